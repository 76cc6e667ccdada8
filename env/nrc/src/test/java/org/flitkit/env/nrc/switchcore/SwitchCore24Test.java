package org.flitkit.env.nrc.switchcore;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
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
                SwitchSurroundings.writeTable(tb, i, 0, 1L << ((i * 5 + 7) % 24));
            }
            SwitchSurroundings b = SwitchCoreTest.start(tb);
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
    void managementPacketsOvertakeData(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            for (int i = 0; i < 24; i++) {
                SwitchSurroundings.writeTable(tb, i, 0, 1L);
            }
            SwitchSurroundings b = SwitchCoreTest.start(tb);
            // 23 inputs flood output 0 with 8-flit data packets on VC0..VC2
            for (int k = 0; k < 6; k++) {
                for (int i = 1; i < 24; i++) {
                    b.add(i, k % 3, 8, 0, null, 0, 1);
                }
            }
            tb.run(100);
            SwitchSurroundings.Pkt mgmt = b.add(12, org.flitkit.formats.th2.Th2.MANAGEMENT_VC, 4, 0, java.util.List.of(0), 0, 1);
            tb.run(60);
            SwitchSurroundings.Pkt rs = b.addFromRs(0, java.util.List.of(1, 1), 1);
            long rsAdded = tb.cycle();
            SwitchCoreTest.finish(tb, b, 3000);
            // round-robin among 23 inputs would make it wait for up to 22 packets of 8 flits; it waits for the
            // packet on the output (<= 8 flits), its own 4 flits arriving and the pipeline
            assertThat(mgmt.delivered - mgmt.created).isLessThanOrEqualTo(24);
            assertThat(rs.delivered - rsAdded).isLessThanOrEqualTo(16);
            long overtaken = b.done.stream()
                    .filter(pk -> pk.vc != org.flitkit.formats.th2.Th2.MANAGEMENT_VC && pk.injected >= 0
                            && pk.injected < mgmt.injected && pk.delivered > mgmt.delivered)
                    .count();
            assertThat(overtaken).isGreaterThan(10);
        }
    }

    @Test
    void randomTrafficOnAllPorts(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            Rng rng = tb.rng("traffic");
            for (int i = 0; i < 24; i++) {
                for (int dest = 0; dest < P.tableEntries(); dest++) {
                    long mask = 1L << rng.nextInt(24) | (rng.chance(0.5) ? 1L << rng.nextInt(24) : 0);
                    SwitchSurroundings.writeTable(tb, i, dest, mask);
                }
            }
            SwitchSurroundings b = SwitchCoreTest.start(tb);
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
