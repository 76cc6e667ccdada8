package org.flitkit.env.nic.mgmt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.junit.jupiter.api.Test;

/**
 * The arithmetic of the system figures: the Fig. 10 fit and the paper's scan estimate over the whole machine's
 * histogram of distances from the server (Table 1), which discovery finds (docs/th2-management.md).
 */
class FabricFiguresTest {
    /** NRCs by distance from the server's NRC on the whole machine, as `./hdl fabric discover --topology th2` finds them */
    static final int[] TH2_HISTOGRAM = {1, 2, 23, 262, 744, 984, 1_248, 856, 1_712};

    @Test
    void theFitRecoversProcessingAndPerHop() {
        double[] x = {0, 1, 2, 3};
        double[] y = Arrays.stream(x).map(h -> 5.9597 + (h + 1) * 0.8762).toArray();
        double[] fit = FabricFigures.fit(x, y);
        assertThat(fit[0]).isCloseTo(5.9597, within(1e-9));
        assertThat(fit[1]).isCloseTo(0.8762, within(1e-9));
    }

    @Test
    void thePapersScanEstimateOverTheWholeMachinesDistances() {
        int[] h = TH2_HISTOGRAM;
        assertThat(Arrays.stream(h).sum()).isEqualTo(Th2FatTree.th2().nrcs().size());
        // 120 x sum n_d (7.40 + d 0.88) us, d counted from the server's NRC, then from the server's link
        assertThat(FabricFigures.paperFormula(h, 0)).isCloseTo(8.9704896, within(1e-9));
        assertThat(FabricFigures.paperFormula(h, 1)).isCloseTo(9.5863488, within(1e-9));
        assertThat(FabricFigures.SCAN_REQUESTS_PER_NRC).isEqualTo(120);
    }
}
