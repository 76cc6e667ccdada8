package org.flitkit.rtl.chpp.receive;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receive dispatch as Verilog: {@code verilator --lint-only -Wall} is clean. docs/chpp-receive-engine.md. */
class ReceiveDispatchVerilogTest {

    @Test
    void dispatchIsLintClean(@TempDir Path dir) {
        CompletionRingVerilogTest.lint(dir, ReceiveDispatch::new);
    }
}
