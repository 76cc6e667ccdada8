package org.flitkit.app.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.flitkit.tools.sweep.PointTask;
import org.flitkit.tools.sweep.SweepStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hdl sweep-point STORE INDEX}: runs one point of a sweep store and writes its row there (or its error); its
 * log goes to stdout. What each Slurm task of {@code hdl sweep --executor slurm} runs (docs/sweeps.md, "Points").
 */
@Command(name = "sweep-point", description = "Run one point of a sweep store and write its row; exit 1 if it failed.")
final class SweepPointCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "STORE", description = "The sweep's directory (as 'hdl sweep' made it).")
    Path store;

    @Parameters(index = "1", paramLabel = "INDEX", description = "The point's index, from 0.")
    int index;

    @Override
    public Integer call() {
        SweepStore s;
        try {
            s = SweepStore.open(store);
            s.point(index);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        return new PointTask(SweepCatalog.runner(hdl.catalog()), SweepCatalog.version()).run(s, index, out) ? 0 : 1;
    }
}
