package org.flitkit.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flitkit.testbench.RepoFiles;
import org.flitkit.figures.FigureRun;
import org.junit.jupiter.api.Test;

/**
 * docs/figures is what the code gives: every registered figure has its row, the table matches the
 * definitions (ids, titles, paper values, tolerances, explanations) and the logged values exactly, and
 * the fast figures (seconds of simulation), measured afresh, give exactly the committed values and plot
 * data. Slow figures are checked on their definitions; the table says when they were measured.
 */
class FiguresUpToDateTest {
    @Test
    void docsFiguresMatchTheCode() {
        Path dir = RepoFiles.find("docs/figures");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            assertThat(FigureRun.staleness(Catalog.standard().figureRegistry(), dir, pool))
                    .as("docs/figures is stale; regenerate with ./hdl figures (or ./hdl figures --only SOURCE|FIGURE)").isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }
}
