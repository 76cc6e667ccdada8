package org.flitkit.testbench;

import static org.junit.jupiter.api.Assertions.fail;

import org.flitkit.hdl.verilog.VerilogTools;
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
}
