package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cycles of runs and waits summed over testbenches and threads, every report passed on to the delegate. */
class CycleTallyTest {
    /** Two testbenches' runs and waits as {@link Testbench#run} and {@link Testbench#runUntil} report them: 8 + 5, then 3. */
    private static void twoTestbenches(ProgressListener p) {
        p.progress("run", 2, 2, 10);
        p.progress("run", 6, 2, 10);
        p.progress("run", 10, 2, 10);
        p.progress("the end", 10, 10, -1);
        p.progress("the end", 15, 10, -1);
        p.progress("the end", 15, 10, -1);
        // a second testbench on the same thread, from its own reset
        p.progress("run", 2, 2, 5);
        p.progress("run", 5, 2, 5);
    }

    @Test
    void sumsTheRunsAndWaitsOfEveryThreadAndPassesThemOn() throws InterruptedException {
        List<String> heard = new ArrayList<>();
        ProgressListener delegate = new ProgressListener() {
            @Override
            public synchronized void progress(String what, long cycle, long start, long end) {
                heard.add(what + "@" + cycle);
            }

            @Override
            public synchronized void phase(String name) {
                heard.add("phase " + name);
            }
        };
        CycleTally tally = new CycleTally(delegate);
        Thread other = new Thread(() -> {
            tally.phase("building");
            tally.progress("run", 1, 1, 101);
            tally.progress("run", 101, 1, 101);
            twoTestbenches(tally);
        });
        other.start();
        twoTestbenches(tally);
        other.join();
        assertThat(tally.total()).isEqualTo(2 * (8 + 5 + 3) + 100);
        assertThat(heard).hasSize(2 * 8 + 3).contains("phase building", "run@101", "the end@15");
    }

    @Test
    void countReturnsTheCyclesNewSinceTheThreadsLastReport() {
        CycleTally tally = new CycleTally();
        assertThat(tally.count(7, 7)).isZero();
        assertThat(tally.count(12, 7)).isEqualTo(5);
        assertThat(tally.count(12, 7)).isZero();
        assertThat(tally.count(20, 7)).isEqualTo(8);
        assertThat(tally.total()).isEqualTo(13);
    }
}
