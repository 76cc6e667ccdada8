package org.flitkit.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Sweeps: rows in point order whatever the finishing order, points really in parallel on a pool, errors unwrapped, CSV exact. */
class SweepTest {
    @Test
    void runsPointsInParallelAndKeepsTheirOrder() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch allStarted = new CountDownLatch(3);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try {
            // every point waits until all three have started: this only finishes if they run at the same time
            Table t = Sweep.<Integer>of("squares", List.of("n", "square"), n -> {
                threads.add(Thread.currentThread().getName());
                allStarted.countDown();
                try {
                    assertThat(allStarted.await(10, TimeUnit.SECONDS)).isTrue();
                    Thread.sleep(30L * (3 - n)); // the first point finishes last
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return new double[] {n, n * n + 0.5};
            }).run(List.of(0, 1, 2), pool);
            assertThat(threads).hasSize(3);
            assertThat(t.csv()).isEqualTo("n,square\n0,0.5\n1,1.5\n2,4.5\n");
            assertThat(t.column("square")).containsExactly(0.5, 1.5, 4.5);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void runsOnTheCallersThreadWithADirectExecutor() {
        String caller = Thread.currentThread().getName();
        Table t = Sweep.<Integer>of("t", List.of("n"), n -> {
            assertThat(Thread.currentThread().getName()).isEqualTo(caller);
            return new double[] {n};
        }).run(List.of(3, 1), Runnable::run);
        assertThat(t.csv()).isEqualTo("n\n3\n1\n");
    }

    @Test
    void aFailingPointEndsTheSweepWithItsOwnException() {
        Sweep<Integer> s = Sweep.of("t", List.of("n"), n -> {
            if (n == 2) {
                throw new IllegalStateException("point 2 broke");
            }
            return new double[] {n};
        });
        assertThatThrownBy(() -> s.run(List.of(1, 2, 3), Runnable::run)).isInstanceOf(IllegalStateException.class).hasMessage("point 2 broke");
    }

    @Test
    void rowsMustFitTheColumns() {
        assertThatThrownBy(() -> Sweep.<Integer>of("t", List.of("a", "b"), n -> new double[] {n}).run(List.of(1), Runnable::run))
                .hasMessageContaining("table t: a row has 1 values for 2 columns");
        assertThatThrownBy(() -> new Table("t", List.of("a"), List.of()).column("b")).hasMessageContaining("table t has no column 'b'");
        assertThatThrownBy(() -> new Table("T", List.of("a"), List.of())).hasMessageContaining("table name 'T'");
    }
}
