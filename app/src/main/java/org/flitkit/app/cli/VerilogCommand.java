package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.hdl.verilog.VerilogTools;
import org.flitkit.app.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code hdl verilog <design> -o DIR}: one Verilog-2001 file per module definition. */
@Command(name = "verilog", description = "Emit a design as Verilog-2001, one file per module definition.")
final class VerilogCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<design>", description = "Name from 'hdl list'.")
    String name;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true, description = "Directory for the .v files (created if missing).")
    Path dir;

    @Option(names = "--lint", description = "Also run 'verilator --lint-only -Wall' on the result.")
    boolean lint;

    @Override
    public Integer call() {
        Catalog.DesignEntry entry = hdl.catalog().design(name).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "unknown design '" + name + "'; available: "
                        + hdl.catalog().designs().stream().map(Catalog.DesignEntry::name).collect(Collectors.joining(", "))));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        VerilogEmitter.Result emitted;
        try {
            emitted = new VerilogEmitter().emitResult(Circuit.elaborate(entry.top()));
        } catch (HdlException e) {
            err.println(e.getMessage());
            err.println("hdl verilog: design '" + name + "' did not elaborate");
            err.flush();
            return 1;
        }
        List<Path> files = VerilogEmitter.write(emitted.files(), dir);
        for (Path f : files) {
            out.println(f);
        }
        out.println("wrote " + files.size() + " file(s), top module " + emitted.topModule() + ", to " + dir);
        out.flush();
        if (lint) {
            if (!VerilogTools.available("verilator")) {
                err.println("hdl verilog --lint: verilator is not installed (apt-get install verilator)");
                err.flush();
                return 1;
            }
            VerilogTools.Result r = VerilogTools.verilatorLint(files, emitted.topModule());
            if (!r.clean()) {
                err.println(r);
                err.flush();
                return 1;
            }
            out.println("verilator --lint-only -Wall: clean");
            out.flush();
        }
        return 0;
    }
}
