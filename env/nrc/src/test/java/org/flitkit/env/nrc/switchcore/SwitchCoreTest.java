package org.flitkit.env.nrc.switchcore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The switch core on a small 2 x 2 configuration: routing, priorities, adaptivity, drops, the table port. */
@ExtendWith(TestbenchExtension.class)
class SwitchCoreTest {
    /** 4 ports in 2 x 2 tiles, 4 VCs (VC3 = management), 4 reserved + 4 shared flits per input, packets up to 4 flits */
    static final SwitchParams SMALL = new SwitchParams(4, 2, 2, 4, 4, 4, 4, 16);
    private static Simulator compiled;

    static synchronized Simulator small() {
        if (compiled == null) {
            compiled = Simulator.of(() -> new SwitchCore(SMALL));
        }
        return compiled.newInstance();
    }

    static Testbench<SwitchCore> bench(RunConfig cfg) {
        return Testbench.create(small(), cfg);
    }

    /** Writes {@code mask} into entry {@code index} of input {@code port}'s table (one cycle). */
    static SwitchSurroundings start(Testbench<SwitchCore> tb) {
        SwitchSurroundings b = tb.add(new SwitchSurroundings(tb.dut()));
        for (int i = 0; i < tb.dut().params.ports(); i++) {
            tb.sim().poke(tb.dut().linkUp.get(i), true);
        }
        tb.reset(2);
        return b;
    }

    static void finish(Testbench<SwitchCore> tb, SwitchSurroundings b, int maxCycles) {
        tb.runUntil("every packet delivered and every credit back", () -> b.idle() && b.drained(), maxCycles);
        tb.finish();
    }

    @Test
    void sourceRoutesIncrementHopPtrAndArrivalsGoToTheRelayStation(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            SwitchSurroundings b = start(tb);
            b.readyRate = new double[] {0.6, 0.6, 0.6, 0.6};
            b.toRsReadyRate = 0.5;
            for (int i = 0; i < 4; i++) {
                for (int o = 0; o < 4; o++) {
                    // hop o at this chip (HopPtr 1 of a 3-hop route): leaves by o with HopPtr 2
                    b.add(i, Th2.MANAGEMENT_VC, 4, 0, List.of(3, o, 2), 1, 1L << o);
                }
                // arrived (HopPtr == HopNum): to this port's relay station, HopPtr unchanged
                b.add(i, Th2.MANAGEMENT_VC, 4, 0, List.of(1, 2), 2, 0);
                // a source-routed data packet on VC1 follows its route too
                b.add(i, 1, 2, 0, List.of((i + 1) % 4), 0, 1L << ((i + 1) % 4));
            }
            finish(tb, b, 2000);
            assertThat(b.done).hasSize(24);
            assertThat(b.done.stream().filter(pk -> pk.output == -2).count()).isEqualTo(4);
            assertThat(tb.dut().malformedDrops).isNotNull();
            assertThat(tb.sim().peek(tb.dut().malformedDrops)).isZero();
            long forwarded = 0;
            for (int o = 0; o < 4; o++) {
                forwarded += tb.sim().peek(tb.dut().forwarded.get(o));
            }
            assertThat(forwarded).isEqualTo(20);
        }
    }

    @Test
    void tableRoutingAvoidsTheCongestedOutput(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            for (int i = 0; i < 4; i++) {
                SwitchSurroundings.writeTable(tb, 0, 5, 0b0110); // DestID 5 from input 0: output 1 or 2
            }
            SwitchSurroundings b = start(tb);
            b.creditDelayMax[1] = -1; // output 1's neighbour never frees a slot: congested
            for (int k = 0; k < 40; k++) {
                b.add(0, 0, 2, 5, null, 0, 0b0110);
            }
            tb.runUntil("every packet delivered", () -> b.outstanding.isEmpty(), 3000);
            // the first packet takes the lower port of a tie; the second already sees more credits at output 2
            assertThat(b.done.get(0).output).isEqualTo(1);
            assertThat(b.done.get(1).output).isEqualTo(2);
            long to1 = b.done.stream().filter(pk -> pk.output == 1).count();
            long to2 = b.done.stream().filter(pk -> pk.output == 2).count();
            // output 1 takes packets only while its credits last: VC0's 4 reserved + 4 shared = 4 packets of 2
            assertThat(to1).isEqualTo(4);
            assertThat(to2).isEqualTo(36);
        }
    }

    @Test
    void roundRobinSharesAnOutputEquallyAcrossRowsAndTiles(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            for (int i = 0; i < 3; i++) {
                SwitchSurroundings.writeTable(tb, i, 0, 0b1000);
            }
            SwitchSurroundings b = start(tb);
            b.keepDone = true;
            // inputs 0 and 1 (row 0) and 2 (row 1) all want output 3, one-flit packets, never idle
            for (int k = 0; k < 400; k++) {
                for (int i = 0; i < 3; i++) {
                    b.add(i, 0, 1, 0, null, 0, 0b1000);
                }
            }
            tb.run(400);
            long[] per = new long[3];
            b.done.stream().filter(pk -> pk.delivered >= 100 && pk.delivered < 400).forEach(pk -> per[pk.input]++);
            // the output alternates between its two rows; row 0's tile alternates between its two inputs
            assertThat(per[0] + per[1] + per[2]).isEqualTo(300);
            assertThat(per[2]).isBetween(149L, 151L);
            assertThat(per[0]).isBetween(74L, 76L);
            assertThat(per[1]).isBetween(74L, 76L);
        }
    }

    @Test
    void adaptiveRoutingNeverPicksADownLink(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            SwitchSurroundings.writeTable(tb, 3, 9, 0b0111);
            SwitchSurroundings b = start(tb);
            tb.sim().poke(tb.dut().linkUp.get(0), false);
            tb.sim().poke(tb.dut().linkUp.get(2), false);
            for (int k = 0; k < 30; k++) {
                b.add(3, k % 3, 1 + k % 4, 9, null, 0, 0b0010);
            }
            finish(tb, b, 3000);
            assertThat(b.done).hasSize(30).allMatch(pk -> pk.output == 1);
        }
    }

    @Test
    void aSourceRouteToADownLinkIsDroppedAndCountedNotWaitedFor(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            SwitchSurroundings b = start(tb);
            tb.sim().poke(tb.dut().linkUp.get(2), false);
            // management requests to the dead port 2, each with live ones behind it on the same VC
            for (int k = 0; k < 3; k++) {
                b.add(0, Th2.MANAGEMENT_VC, 4, 0, List.of(2, 1), 0, -1);
                b.add(0, Th2.MANAGEMENT_VC, 4, 0, List.of(1, 1), 0, 1L << 1);
                b.add(0, Th2.MANAGEMENT_VC, 4, 0, List.of(3, 1), 0, 1L << 3);
            }
            finish(tb, b, 2000);
            assertThat(tb.sim().peek(tb.dut().linkDownDrops)).isEqualTo(3);
            assertThat(tb.sim().peek(tb.dut().malformedDrops)).isZero();
            assertThat(b.done).hasSize(6);
        }
    }

    @Test
    void malformedPacketsAreDroppedAndCounted(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            SwitchSurroundings.writeTable(tb, 1, 2, 0b1000);
            SwitchSurroundings b = start(tb);
            b.add(1, 0, 2, 2, null, 0, 0b1000);          // good
            b.add(1, 0, 0, 2, null, 0, -1);              // Len 0
            b.add(1, 1, 5, 2, null, 0, -1);              // Len over max (4)
            b.add(1, 5, 2, 2, null, 0, -1);              // VC5: this core has VC0..VC3
            b.add(1, 2, 3, 7, null, 0, -1);              // empty table entry
            b.add(1, 1, 2, 0, List.of(4), 0, -1);         // hop to port 4 of a 4-port core
            b.add(1, 1, 2, 0, List.of(0), 2, -1);         // HopPtr past HopNum
            b.add(1, 0, 2, 0, List.of(), 0, -1);          // arrived, but not on the management VC
            SwitchSurroundings.Pkt rt2 = b.add(1, 0, 2, 2, null, 0, -1);
            Flits.set(rt2.flits[0], org.flitkit.formats.th2.DataLayouts.HEAD.RT_TYPE, 2); // RtType 2
            b.add(1, 2, 3, 2, null, 0, 0b1000);          // good, after them
            finish(tb, b, 2000);
            SwitchCore d = tb.dut();
            assertThat(tb.sim().peek(d.malformedDrops)).isEqualTo(6);
            assertThat(tb.sim().peek(d.unroutableDrops)).isEqualTo(1);
            assertThat(tb.sim().peek(d.badVcDrops)).isEqualTo(1);
            assertThat(tb.sim().peek(d.overflowDrops)).isZero();
            assertThat(tb.sim().peek(d.framingErrors)).isZero();
            assertThat(tb.sim().peek(d.linkDownDrops)).isZero();
            assertThat(b.done).hasSize(2);
        }
    }

    @Test
    void tableReadPortShowsWhatWasWritten(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            tb.reset(1);
            SwitchSurroundings.writeTable(tb, 2, 11, 0b1010);
            SwitchSurroundings.writeTable(tb, 3, 11, 0b0101);
            Simulator sim = tb.sim();
            SwitchCore d = tb.dut();
            sim.poke(d.tableRead.port, 2);
            sim.poke(d.tableRead.index, 11);
            assertThat(sim.peek(d.tableReadData)).isEqualTo(0b1010);
            sim.poke(d.tableRead.port, 3);
            assertThat(sim.peek(d.tableReadData)).isEqualTo(0b0101);
            sim.poke(d.tableRead.index, 10);
            assertThat(sim.peek(d.tableReadData)).isZero();
        }
    }

    @Test
    void randomTrafficWithBackpressureAndCreditDelays(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = bench(cfg)) {
            Rng rng = tb.rng("traffic");
            for (int i = 0; i < 4; i++) {
                for (int dest = 0; dest < 16; dest++) {
                    long mask = 1L << rng.nextInt(4) | (rng.chance(0.5) ? 1L << rng.nextInt(4) : 0);
                    SwitchSurroundings.writeTable(tb, i, dest, mask);
                }
            }
            SwitchSurroundings b = start(tb);
            b.sendRate = 0.8;
            for (int o = 0; o < 4; o++) {
                b.readyRate[o] = 0.7;
                b.creditDelayMax[o] = 12;
            }
            b.toRsReadyRate = 0.7;
            randomPackets(tb, b, rng, 120);
            finish(tb, b, 20_000);
            assertThat(b.done).hasSize(4 * 120 + 4 * 5);
        }
    }

    /** {@code perInput} random packets per input (mixed VCs and lengths, table and source routed, some for the relay station), and 5 relay-station packets per output. */
    static void randomPackets(Testbench<SwitchCore> tb, SwitchSurroundings b, Rng rng, int perInput) {
        SwitchParams p = tb.dut().params;
        int n = p.ports();
        for (int k = 0; k < perInput; k++) {
            for (int i = 0; i < n; i++) {
                int vc = rng.nextInt(p.vcs());
                if (vc == Th2.MANAGEMENT_VC) {
                    if (rng.chance(0.2)) {
                        b.add(i, vc, 4, 0, List.of(rng.nextInt(n)), 1, 0);
                    } else {
                        int o = rng.nextInt(n);
                        b.add(i, vc, 4, 0, List.of(o, rng.nextInt(n)), 0, 1L << o);
                    }
                } else {
                    int dest = rng.nextInt(p.tableEntries());
                    // the bench knows each input's table: read it back through the read port
                    tb.sim().poke(tb.dut().tableRead.port, i);
                    tb.sim().poke(tb.dut().tableRead.index, dest);
                    long mask = tb.sim().peek(tb.dut().tableReadData);
                    b.add(i, vc, 1 + rng.nextInt(p.maxPacketFlits()), dest, null, 0, mask);
                }
            }
        }
        for (int o = 0; o < n; o++) {
            for (int k = 0; k < 5; k++) {
                b.addFromRs(o, List.of(o, 0), 1);
            }
        }
    }
}
