package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.flitkit.tools.sweep.Point;
import org.flitkit.tools.sweep.SweepStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario sweeps xud-loss, ring-saturation and fabric (docs/sweeps.md, "Sweeps"): their points, and their
 * smallest points run through {@code hdl sweep-point} with the exact rows the scenario and the benchmark give.
 */
class ScenarioSweepsTest {
    @Test
    void xudLossIsOnePointPerLossRateWithOnlyLossVarying() {
        List<Point> p = SweepCatalog.named("xud-loss").points();
        assertThat(p).extracting(x -> x.param("loss") + "/" + x.param("ack-loss")).containsExactly("0/0", "0.01/0.01", "0.05/0.05", "0.1/0.1",
                "0.2/0.2");
        assertThat(p).allMatch(x -> x.kind().equals("xud-lossy") && x.seed() == 1 && x.param("messages").equals("1000")
                && x.param("dup").equals("0") && x.param("reorder").equals("0") && x.param("corrupt").equals("0"));
    }

    @Test
    void xudLossPointsGiveTheLossyScenariosCounts(@TempDir Path dir) {
        // the same numbers as ./hdl run xud-lossy --loss 0.01 --ack-loss 0.01 --dup 0 --reorder 0 --corrupt 0 --messages 1000
        assertThat(run(dir, "xud-loss", 2)).isEqualTo("point,seed,loss,ack_loss,messages,cycles,delivered,lost,duplicated,timeouts,naks,"
                + "rnr_naks,resends,duplicates_dropped,data_lost,acks_lost,net_duplicated,net_reordered,net_corrupted\n"
                + "0,1,0,0,1000,9398,1000,0,0,0,0,0,0,0,0,0,0,0,0\n"
                + "1,1,0.01,0.01,1000,17287,1000,0,0,21,0,0,21,10,11,10,0,0,0\n");
    }

    @Test
    void ringSaturationPointsAreTheDuplexPairsOneAndThreeOnGrowingRings(@TempDir Path dir) {
        List<Point> p = SweepCatalog.named("ring-saturation").points();
        assertThat(p).extracting(x -> x.param("nodes") + " " + x.param("steps") + " " + x.param("schedule"))
                .containsExactly("8 1,3 shortest", "16 1,3 shortest", "32 1,3 shortest");
        // the same numbers as ./hdl run ring-saturation --nodes 8 --steps 1,3 (its table: C=18.6667 measured=17.6683 measured/C=0.9465)
        assertThat(run(dir, "ring-saturation", 1)).isEqualTo("point,seed,nodes,capacity_c,measured,measured_over_c,mean_delivery,cycles,sent,"
                + "delivered_in_window,throughput_per_mille_of_C\n"
                + "0,1,8,18.666666666666668,17.66825,0.9465133928571429,16.008390757432117,5029,88671,70673,947\n");
    }

    @Test
    void fabricPointsAreRingsOfChipsAnsweringTheBenchmarksRequests(@TempDir Path dir) {
        List<Point> p = SweepCatalog.named("fabric").points();
        assertThat(p).extracting(x -> x.param("chips") + "/" + x.param("requests")).containsExactly("16/400", "64/400", "256/400");
        assertThat(run(dir, "fabric", 1)).isEqualTo("point,seed,chips,requests,cycles,answers,chip_evaluations\n"
                + "0,1,16,400,47756,400,50981\n");
    }

    /** Runs the first {@code n} points of sweep {@code name} through {@code hdl sweep-point} in a store of just those; its rows as CSV. */
    private static String run(Path dir, String name, int n) {
        SweepStore s = SweepStore.prepare(dir.resolve(name), name, SweepCatalog.version(), SweepCatalog.named(name).points().subList(0, n));
        for (int i = 0; i < n; i++) {
            HdlCliTest.Run r = HdlCliTest.hdl("sweep-point", s.dir().toString(), Integer.toString(i));
            assertThat(r.exit()).as(r.err()).isZero();
        }
        return s.csv();
    }
}
