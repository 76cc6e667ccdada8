package org.flitkit.testbench;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;
import org.junit.jupiter.api.Assumptions;

/** Tests that need an external tool (vcd2fst, verilator, ...) skip without it, except in CI. */
public final class ExternalTools {
    private ExternalTools() {
    }

    /**
     * Returns if {@code tool} is on the PATH; otherwise fails when {@code CI=true} and skips the test
     * (with a message naming the Debian package) when not.
     */
    public static void require(String tool, String debianPackage) {
        if (VerilogTools.available(tool)) {
            return;
        }
        String why = tool + " is not installed (sudo apt-get install " + debianPackage + ")";
        if ("true".equals(System.getenv("CI"))) {
            fail(why + "; CI=true requires it");
        }
        Assumptions.abort(why + ": skipping");
    }

    /**
     * Elaborates {@code top}, writes its Verilog to {@code dir} and fails the test unless {@code verilator
     * --lint-only -Wall} finds nothing (skips without verilator outside CI, as {@link #require}).
     */
    public static VerilogEmitter.Result verilatorLintClean(Path dir, Supplier<Module> top) {
        require("verilator", "verilator");
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(top));
        VerilogEmitter.write(v.files(), dir);
        VerilogTools.Result r = VerilogTools.verilatorLint(VerilogTools.verilogFiles(dir), v.topModule());
        if (!r.ok()) {
            fail("verilator lint of " + v.topModule() + ":\n" + r);
        }
        return v;
    }

    /**
     * Elaborates {@code top}, writes its Verilog to {@code dir} and fails the test unless Yosys {@code synth}
     * finishes without error within {@code limit} (skips without yosys outside CI); prints the time it took.
     */
    public static VerilogEmitter.Result yosysSynthClean(Path dir, Supplier<Module> top, Duration limit) {
        require("yosys", "yosys");
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(top));
        VerilogEmitter.write(v.files(), dir);
        long t0 = System.nanoTime();
        VerilogTools.Result r = VerilogTools.yosysSynth(VerilogTools.verilogFiles(dir), v.topModule(), limit);
        if (!r.ok()) {
            fail("yosys synth of " + v.topModule() + ":\n" + r);
        }
        System.out.printf("yosys synth of %s: %.1f s%n", v.topModule(), (System.nanoTime() - t0) / 1e9);
        return v;
    }
}
