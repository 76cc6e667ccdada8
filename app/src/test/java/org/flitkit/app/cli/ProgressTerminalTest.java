package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A command at a terminal draws one status line, however many runs it makes: {@link ShortRunsMain} runs
 * thousands of short {@code Testbench.run} calls under {@code script} (a pseudo-terminal), and the redraws
 * in what the terminal received are counted against the bound that {@link ProgressBars#DELAY} and
 * {@link ProgressBars#MIN_GAP} set for the time the command took.
 */
class ProgressTerminalTest {
    /** A redraw: a carriage return that starts a line of text (a line break is "\r\n", an erase "\r\033[K"). */
    private static final Pattern REDRAW = Pattern.compile("\r(?![\n\033])");

    @Test
    void manyShortRunsAtATerminalRedrawOneLineAFewTimesASecond() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "script (util-linux) runs a command at a pseudo-terminal");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = "'" + java + "' -cp '" + System.getProperty("java.class.path") + "' " + ShortRunsMain.class.getName() + " 4";
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder("/usr/bin/script", "-qfec", cmd, "/dev/null").redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        double seconds = (System.nanoTime() - t0) / 1e9;
        String tty = new String(bytes, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(tty).isZero();

        Matcher pass = Pattern.compile("PASS short-runs seed=1 cycles=(\\d+) runs=(\\d+) shown=(\\d+) time=").matcher(tty);
        assertThat(pass.find()).as(tty).isTrue();
        long cycles = Long.parseLong(pass.group(1));
        long runs = Long.parseLong(pass.group(2));
        assertThat(runs).as("short runs made").isGreaterThan(1_000);
        // every cycle after the 2 of reset, summed over all the runs
        assertThat(Long.parseLong(pass.group(3))).isEqualTo(cycles - 2);

        long redraws = REDRAW.matcher(tty).results().count();
        long bound = 1 + (long) ((seconds - ProgressBars.DELAY.toMillis() / 1e3) * 1e3 / ProgressBars.MIN_GAP.toMillis());
        assertThat(redraws).as("redraws in %.1f s", seconds).isPositive().isLessThanOrEqualTo(bound);
        // the command's own line is printed on a line of its own: the status line is erased first
        assertThat(tty).contains("\r\033[K" + ShortRunsMain.HALFWAY + "\r\n");
        assertThat(tty).contains("short-runs: run  ");
    }
}
