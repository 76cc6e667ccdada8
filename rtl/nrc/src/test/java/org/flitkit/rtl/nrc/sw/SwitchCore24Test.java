package org.flitkit.rtl.nrc.sw;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The full TH-2 core (24 ports in 4 x 6 tiles, 6 VCs; 32 table entries to keep the build short). */
@ExtendWith(TestbenchExtension.class)
class SwitchCore24Test {
    static final SwitchParams P = new SwitchParams(24, 4, 6, 6, 8, 32, 8, 32);
    private static Simulator compiled;

    static synchronized Testbench<SwitchCore> bench(RunConfig cfg) {
        if (compiled == null) {
            compiled = Simulator.of(() -> new SwitchCore(P));
        }
        return Testbench.create(compiled.newInstance(), cfg);
    }

    @Test
    void permutationOfOneFlitPacketsMovesOneFlitPerCyclePerPort(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            for (int i = 0; i < 24; i++) {
                SwitchCoreTest.writeTable(tb, i, 0, 1L << ((i * 5 + 7) % 24));
            }
            SwitchBench b = SwitchCoreTest.start(tb);
            b.keepDone = false;
            for (int k = 0; k < 400; k++) {
                for (int i = 0; i < 24; i++) {
                    b.add(i, k % 3, 1, 0, null, 0, 1L << ((i * 5 + 7) % 24));
                }
            }
            tb.run(40); // the pipeline fills
            b.measureFrom = tb.cycle();
            tb.run(300);
            for (int o = 0; o < 24; o++) {
                assertThat(b.flitsOutPerPort[o]).as("flits out of port %d in 300 cycles", o).isEqualTo(300);
            }
            SwitchCoreTest.finish(tb, b, 1000);
        }
    }

    @Test
    void randomTrafficOnAllPorts(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            Rng rng = tb.rng("traffic");
            for (int i = 0; i < 24; i++) {
                for (int dest = 0; dest < P.tableEntries(); dest++) {
                    long mask = 1L << rng.nextInt(24) | (rng.chance(0.5) ? 1L << rng.nextInt(24) : 0);
                    SwitchCoreTest.writeTable(tb, i, dest, mask);
                }
            }
            SwitchBench b = SwitchCoreTest.start(tb);
            b.sendRate = 0.9;
            for (int o = 0; o < 24; o++) {
                b.readyRate[o] = 0.8;
                b.creditDelayMax[o] = 10;
            }
            b.toRsReadyRate = 0.7;
            SwitchCoreTest.randomPackets(tb, b, rng, 12);
            SwitchCoreTest.finish(tb, b, 5000);
            assertThat(b.done).hasSize(24 * 12 + 24 * 5);
            assertThat(tb.sim().peek(tb.dut().malformedDrops) + tb.sim().peek(tb.dut().overflowDrops)
                    + tb.sim().peek(tb.dut().framingErrors)).isZero();
        }
    }
}
