package org.flitkit.tools.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepStoreTest {
    @TempDir
    Path dir;

    static List<Point> points(int n) {
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Point("demo", i, "square", Map.of("x", Integer.toString(i)), 7));
        }
        return out;
    }

    @Test
    void rowsKeepEveryBitOfTheirDoubles() {
        SweepStore s = SweepStore.prepare(dir, "demo", "1.0", points(1));
        double[] tricky = {0.1 + 0.2, Double.MIN_VALUE, -0.0, 1e300 / 3, Math.PI, 4.35, 123456789.0000001, -Double.MAX_VALUE};
        List<String> cols = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        s.writeRow(s.point(0), new PointRunner.Result(cols, tricky, List.of("a note")), "1.0");
        Row back = SweepStore.open(dir).row(0).orElseThrow();
        for (int i = 0; i < tricky.length; i++) {
            assertThat(Double.doubleToRawLongBits(back.values()[i])).as(cols.get(i)).isEqualTo(Double.doubleToRawLongBits(tricky[i]));
        }
        assertThat(back.notes()).containsExactly("a note");
        assertThat(back.seed()).isEqualTo(7);
        assertThat(back.version()).isEqualTo("1.0");
        assertThat(SweepStore.open(dir).csv()).isEqualTo("point,seed,a,b,c,d,e,f,g,h\n"
                + "0,7,0.30000000000000004,4.9E-324,-0.0,3.3333333333333335E299,3.141592653589793,4.35,1.234567890000001E8,-1.7976931348623157E308\n");
    }

    @Test
    void pointsRoundTripThroughTheirJson() {
        SweepStore s = SweepStore.prepare(dir, "demo", "1.0", points(3));
        assertThat(SweepStore.open(dir).points()).isEqualTo(points(3));
        assertThat(s.point(2).param("x")).isEqualTo("2");
        assertThatThrownBy(() -> s.point(3)).hasMessageContaining("has points 0..2, not 3");
    }

    @Test
    void aResumedSweepRunsOnlyWhatHasNoRow() {
        AtomicInteger runs = new AtomicInteger();
        PointTask task = new PointTask((p, log) -> {
            runs.incrementAndGet();
            long x = p.longParam("x");
            return new PointRunner.Result(List.of("x", "sq"), new double[] {x, x * x});
        }, "1.0");
        SweepStore s = SweepStore.prepare(dir, "demo", "1.0", points(4));
        task.run(s, 1);
        task.run(s, 3);
        assertThat(s.pending()).extracting(Point::index).containsExactly(0, 2);
        SweepRun.Outcome o = SweepRun.run(SweepStore.prepare(dir, "demo", "1.0", points(4)), new LocalExecutor(task, 2));
        assertThat(runs.get()).isEqualTo(4);
        assertThat(o.ran()).isEqualTo(2);
        assertThat(o.retried()).isZero();
        assertThat(o.failures()).isEmpty();
        assertThat(s.csv()).isEqualTo("point,seed,x,sq\n0,7,0,0\n1,7,1,1\n2,7,2,4\n3,7,3,9\n");
    }

    @Test
    void aLocalFailureIsRetriedOnceThenReportedWithItsLog() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        PointTask task = new PointTask((p, log) -> {
            if (p.index() == 1) {
                tries.incrementAndGet();
                log.println("about to fail");
                throw new IllegalStateException("no luck at x=1");
            }
            return new PointRunner.Result(List.of("x"), new double[] {p.longParam("x")});
        }, "1.0");
        SweepStore s = SweepStore.prepare(dir, "demo", "1.0", points(3));
        SweepRun.Outcome o = SweepRun.run(s, new LocalExecutor(task, 1));
        assertThat(tries.get()).isEqualTo(2);
        assertThat(o.failures()).hasSize(1);
        SweepRun.Failure f = o.failures().get(0);
        assertThat(f.point().index()).isEqualTo(1);
        assertThat(f.error()).isEqualTo("java.lang.IllegalStateException: no luck at x=1\n");
        assertThat(f.log()).isEqualTo(dir.toAbsolutePath().resolve("logs/00001.log"));
        assertThat(Files.readString(f.log())).contains("about to fail").contains("no luck at x=1");
    }

    @Test
    void aStoreOfOtherPointsIsNotReused() {
        SweepStore.prepare(dir, "demo", "1.0", points(2));
        List<Point> other = new ArrayList<>(points(2));
        other.set(1, new Point("demo", 1, "square", Map.of("x", "5"), 7));
        assertThatThrownBy(() -> SweepStore.prepare(dir, "demo", "1.0", other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("point 1 is").hasMessageContaining("remove it or give another store directory");
        assertThatThrownBy(() -> SweepStore.prepare(dir, "demo", "2.0", points(2))).hasMessageContaining("version=1.0");
        assertThatThrownBy(() -> SweepStore.open(dir.resolve("none"))).hasMessageContaining("no sweep store in");
    }
}
