package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The figures' measurements on a short run ({@link ChppMeasurements} on {@link ChppFigures#host()}): exact cycles of one
 * operation alone, its memory-read share and the engines' own share, and the cycles of one 64 KB PUT.
 */
@ExtendWith(TestbenchExtension.class)
class LatencyTest {
    @Test
    void oneOperationAloneTakesItsExactCycles(RunConfig cfg) {
        try (ChppMeasurements r = new ChppMeasurements(cfg, SendEngineParams.defaults(), ChppFigures.host())) {
            ChppMeasurements.Latency nap = r.latency(ChppMeasurements.Op.NAP_IMMEDIATE, 1);
            ChppMeasurements.Latency put = r.latency(ChppMeasurements.Op.PUT, 1);
            ChppMeasurements.Latency get = r.latency(ChppMeasurements.Op.GET, 1);
            ChppMeasurements.Latency put2k = r.latency(ChppMeasurements.Op.PUT, 2048);
            ChppMeasurements.Stream s = r.stream(ChppMeasurements.Op.PUT, 64 * 1024, 1, 1);
            System.out.printf("NAP imm 1 B %s%nPUT 1 B %s%nGET 1 B %s%nPUT 2 KB %s%nPUT 64 KB %d cycles, %.3f GB/s%n", nap, put, get,
                    put2k, s.cycles(), s.gbps());
            // doorbell BAR write 65 + descriptor read 131 + engines 10 + posted write 65
            assertThat(nap.cycles()).isEqualTo(271);
            assertThat(nap.memoryReadCycles()).isEqualTo(131);
            assertThat(nap.processingCycles()).isEqualTo(10);
            // two reads in a row (descriptor, then data): 261
            assertThat(put.cycles()).isEqualTo(403);
            assertThat(put.processingCycles()).isEqualTo(12);
            // the GET packet, then the remote engine's data read and its PUT back: 6 cycles more than a PUT
            assertThat(get.cycles()).isEqualTo(409);
            assertThat(get.processingCycles()).isEqualTo(18);
            assertThat(put2k.cycles()).isEqualTo(568);
            assertThat(s.cycles()).isEqualTo(5528);
        }
    }
}
