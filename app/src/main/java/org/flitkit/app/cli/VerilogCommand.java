package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code hdl verilog <design>|--class CLASS -o DIR}: one Verilog-2001 file per module definition. */
@Command(name = "verilog", description = "Emit a design as Verilog-2001, one file per module definition.")
final class VerilogCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Mixin
    DesignOption design;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true, description = "Directory for the .v files (created if missing).")
    Path dir;

    @Option(names = "--lint", description = "Also run 'verilator --lint-only -Wall' on the result.")
    boolean lint;

    /**
     * The design's Verilog, or null after printing why it did not elaborate (the caller exits with 1); shared by
     * the commands that start from Verilog.
     */
    static VerilogEmitter.Result emit(DesignOption.Design d, PrintWriter err, String command) {
        try {
            return new VerilogEmitter().emitResult(Circuit.elaborate(d.top()));
        } catch (HdlException e) {
            err.println(e.getMessage());
            err.println("hdl " + command + ": design '" + d.label() + "' did not elaborate");
            err.flush();
            return null;
        }
    }

    @Override
    public Integer call() {
        DesignOption.Design d = design.resolve(hdl.catalog());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        VerilogEmitter.Result emitted = emit(d, err, "verilog");
        if (emitted == null) {
            return 1;
        }
        out.println("design: " + d.origin());
        List<Path> files = VerilogEmitter.write(emitted.files(), dir);
        for (Path f : files) {
            out.println(f);
        }
        out.println("wrote " + files.size() + " file(s), top module " + emitted.topModule() + ", to " + dir);
        out.flush();
        if (lint) {
            if (!VerilogTools.available("verilator")) {
                throw CliError.failure("verilog --lint: verilator is not installed (apt-get install verilator)");
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
