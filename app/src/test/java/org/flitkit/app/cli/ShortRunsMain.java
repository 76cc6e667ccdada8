package org.flitkit.app.cli;

import org.flitkit.app.Catalog;
import org.flitkit.app.demo.FlitLoopback;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Testbench;

/**
 * {@code hdl run short-runs} in a JVM of its own, for {@link ProgressTerminalTest} to start at a pseudo-terminal:
 * one testbench advanced by thousands of {@link Testbench#run} calls of 1 to 8 cycles each, as scenarios that
 * poll do, for {@code args[0]} seconds after the build, halfway printing one line of its own on System.out. Its
 * counts: {@code runs}, and {@code shown}, the cycles the status line had counted by the end.
 */
final class ShortRunsMain {
    static final String HALFWAY = "halfway through the short runs";

    private ShortRunsMain() {
    }

    public static void main(String[] args) {
        long nanos = (long) (Double.parseDouble(args[0]) * 1e9);
        Catalog catalog = new Catalog().testbench("short-runs", "many runs of a few cycles", cfg -> shortRuns(cfg, nanos));
        System.exit(Main.commandLine(catalog).execute("run", "short-runs"));
    }

    private static ScenarioResult shortRuns(RunConfig cfg, long nanos) {
        try (Testbench<FlitLoopback> tb = Testbench.create(FlitLoopback::new, cfg)) {
            tb.reset(2);
            long runs = 0;
            long t0 = System.nanoTime();
            boolean halfway = false;
            while (System.nanoTime() - t0 < nanos) {
                tb.run(1 + runs % 8);
                runs++;
                if (!halfway && System.nanoTime() - t0 >= nanos / 2) {
                    System.out.println(HALFWAY);
                    halfway = true;
                }
            }
            long shown = cfg.progress() instanceof ProgressBars p ? p.cycles() : -1;
            return tb.result().with("runs", runs).with("shown", shown);
        }
    }
}
