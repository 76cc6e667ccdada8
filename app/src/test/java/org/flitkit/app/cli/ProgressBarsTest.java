package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The status line's count of cycles and its phase lines, fed as a testbench feeds them; its redraws and output above it. */
class ProgressBarsTest {
    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();

    private String terminal() {
        return terminal.toString(StandardCharsets.UTF_8);
    }

    /**
     * The lines as a terminal shows them: what follows a line's last carriage return, without the erase-line code.
     * The update thread may draw the status line before the phase's line replaces it (the delay is zero here).
     */
    private Stream<String> screen() {
        return Arrays.stream(terminal().split("\n"))
                .map(l -> l.substring(l.lastIndexOf('\r') + 1).replace("\033[K", ""));
    }

    @Test
    void cyclesAddUpOverRunsWaitsTestbenchesAndThreads() throws InterruptedException {
        try (ProgressBars p = new ProgressBars("t", new PrintStream(terminal, true, StandardCharsets.UTF_8), Duration.ofHours(1))) {
            p.progress("run", 2, 2, 10);
            p.progress("run", 6, 2, 10);
            p.progress("run", 10, 2, 10);
            p.progress("the end", 10, 10, -1);
            p.progress("the end", 15, 10, -1);
            // a second testbench on the same thread, from its own reset
            p.progress("run", 2, 2, 5);
            p.progress("run", 5, 2, 5);
            Thread other = new Thread(() -> {
                p.progress("run", 2, 2, 102);
                p.progress("run", 102, 2, 102);
            });
            other.start();
            other.join();
            assertThat(p.cycles()).isEqualTo(8 + 5 + 3 + 100);
        }
        assertThat(terminal()).isEmpty();
    }

    @Test
    void aPhaseLongerThanTheDelayLeavesOneLineWithItsCycles() {
        try (ProgressBars p = new ProgressBars("mgmt nrc", new PrintStream(terminal, true, StandardCharsets.UTF_8), Duration.ZERO)) {
            p.phase("booting");
            p.progress("the power-up load", 2, 2, -1);
            p.progress("the power-up load", 4098, 2, -1);
            p.phase(null);
            p.phase("booting");
            p.phase(null);
        }
        assertThat(screen().filter(l -> l.contains("booting:"))).singleElement().asString()
                .matches("mgmt nrc: booting: 4,096 cycles in \\d+\\.\\ds");
    }
}
