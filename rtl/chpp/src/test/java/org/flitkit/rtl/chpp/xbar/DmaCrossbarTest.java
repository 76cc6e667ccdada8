package org.flitkit.rtl.chpp.xbar;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.formats.chpp.PktType;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Directed cases of the crossbar, cycle-exact: Dest-Mod VC choice and the GET buffer (by occupancy), a GET on the
 * GET path passing a PUT blocked at its output, malformed destinations dropped at line rate, whole packets in
 * round-robin order at line rate on a contended output. docs/chpp-dma.md, "Intra-DMA crossbar".
 */
@ExtendWith(TestbenchExtension.class)
class DmaCrossbarTest {
    static final int MTU = 128;

    private static Testbench<DmaCrossbar> bench(RunConfig cfg, int ports, int vcs) {
        return Testbench.create(() -> new DmaCrossbar(ports, vcs), cfg);
    }

    private static long occ(Testbench<DmaCrossbar> tb, int i, int v) {
        return tb.sim().peek(tb.dut().occupancy.get(i).get(v));
    }

    @Test
    void destModVcAndGetBuffer(RunConfig cfg) {
        try (Testbench<DmaCrossbar> tb = bench(cfg, 4, 2)) {
            XbarHarness b = new XbarHarness(tb, 0, 1);
            Rng rng = tb.rng("data");
            b.monitors.forEach(m -> m.forceReady = false);
            // destinations 0 and 2 share VC 0, 1 and 3 VC 1; a GET goes to VC 2 whatever its destination
            b.send(b.packet(rng, 0, 0, 1, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 0, 1, 2, PktType.GET, 32, false));
            b.send(b.packet(rng, 0, 2, 2, PktType.NAP, 40, false));
            b.send(b.packet(rng, 0, 3, 0, PktType.PUT, MTU, false));
            tb.reset(1);
            tb.run(9 + 3 + 4 + 9);
            assertThat(b.drivers.get(0).idle()).as("all 25 beats taken at one per cycle").isTrue();
            assertThat(occ(tb, 0, 0)).isEqualTo(4 + 9);
            assertThat(occ(tb, 0, 1)).isEqualTo(9);
            assertThat(occ(tb, 0, 2)).isEqualTo(3);
            // VC 0 holds 13 of 18 beats: a third 9-beat packet for it waits on the input
            b.send(b.packet(rng, 0, 4, 2, PktType.PUT, MTU, false));
            tb.run(10);
            assertThat(occ(tb, 0, 0)).isEqualTo(18);
            assertThat(b.drivers.get(0).taken).isEqualTo(25 + 5);
            b.monitors.forEach(m -> m.forceReady = true);
            tb.runUntil("delivered", b::idle, 200);
            tb.finish();
            assertThat(b.delivered()).isEqualTo(5);
        }
    }

    @Test
    void getPathPassesBlockedPut(RunConfig cfg) {
        try (Testbench<DmaCrossbar> tb = bench(cfg, 4, 2)) {
            XbarHarness b = new XbarHarness(tb, 0, 1);
            Rng rng = tb.rng("data");
            b.monitors.get(1).forceReady = false;
            // two PUTs fill VC 1 toward the blocked output 1; a PUT to 3 (also VC 1) then blocks input 0
            b.send(b.packet(rng, 0, 0, 1, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 0, 1, 1, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 0, 2, 3, PktType.PUT, MTU, false));
            // a GET behind it on the same stream waits too; the same GET on the GET path does not
            b.send(b.packet(rng, 0, 3, 3, PktType.GET, 32, false));
            tb.reset(1);
            tb.run(18);
            b.send(b.packet(rng, 0, 4, 3, PktType.GET, 32, true));
            long start = tb.cycle();
            tb.runUntil("GET from the GET path on GET output 3", () -> b.getMonitor(3).packets == 1, 20);
            // taken by the merge in cycle start, visible at the buffer head one cycle later, 3 beats out
            assertThat(tb.cycle() - start).isEqualTo(4);
            assertThat(b.boards[3][0][b.nvc].matched()).isEqualTo(1);
            tb.run(50);
            assertThat(b.monitors.get(3).packets).as("the PUT on in[0] is still stuck").isZero();
            assertThat(b.getMonitor(3).packets).as("the GET on in[0] is still stuck").isEqualTo(1);
            assertThat(b.drivers.get(0).taken).isEqualTo(18);
            b.monitors.get(1).forceReady = true;
            tb.runUntil("delivered", b::idle, 200);
            tb.finish();
            assertThat(b.delivered()).isEqualTo(5);
        }
    }

    @Test
    void badDestinationDroppedAtLineRate(RunConfig cfg) {
        try (Testbench<DmaCrossbar> tb = bench(cfg, 4, 2)) {
            XbarHarness b = new XbarHarness(tb, 0, 1);
            Rng rng = tb.rng("data");
            b.monitors.forEach(m -> m.forceReady = false);
            // VC 1 of input 0 filled first: destinations 5 and 7 would map to it, a drop must not wait for its space
            b.send(b.packet(rng, 0, 0, 1, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 0, 1, 1, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 0, 2, 5, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 0, 3, 7, PktType.NAP, 0, false));
            b.send(b.packet(rng, 0, 4, 2, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 1, 0, 4, PktType.GET, 32, true));
            tb.reset(1);
            // 18 good beats, 9 + 1 dropped beats and the last good packet's 9 in 37 cycles, every output stalled
            tb.run(37);
            assertThat(b.drivers.get(0).idle()).isTrue();
            assertThat(b.getDrivers.get(1).idle()).isTrue();
            assertThat(tb.sim().peek(tb.dut().badDestination.get(0))).isEqualTo(2);
            assertThat(tb.sim().peek(tb.dut().getBadDestination.get(1))).isEqualTo(1);
            assertThat(tb.sim().peek(tb.dut().badDestination.get(1))).isZero();
            assertThat(occ(tb, 0, 0)).isEqualTo(9);
            assertThat(occ(tb, 0, 1)).isEqualTo(18);
            assertThat(occ(tb, 0, 2) + occ(tb, 1, 2)).isZero();
            b.monitors.forEach(m -> m.forceReady = true);
            tb.runUntil("delivered", b::idle, 100);
            tb.finish();
            assertThat(b.delivered()).isEqualTo(3);
        }
    }

    @Test
    void contendedOutputWholePacketsRoundRobinAtLineRate(RunConfig cfg) {
        try (Testbench<DmaCrossbar> tb = bench(cfg, 4, 2)) {
            XbarHarness b = new XbarHarness(tb, 0, 1);
            Rng rng = tb.rng("data");
            for (int k = 0; k < 3; k++) {
                for (int i = 0; i < 4; i++) {
                    b.send(b.packet(rng, i, k, 0, PktType.PUT, MTU, false));
                }
            }
            tb.reset(1);
            long start = tb.cycle();
            tb.runUntil("delivered", b::idle, 300);
            tb.finish();
            XbarHarness.Monitor m = b.monitors.get(0);
            // the first header is taken in the first cycle and is at its buffer's head one cycle later
            assertThat(m.firstBeatCycle - start).isEqualTo(1);
            // 108 beats on output 0 in 108 consecutive cycles (line rate, no gap between packets)
            assertThat(m.beatCount).isEqualTo(108);
            assertThat(m.lastBeatCycle - m.firstBeatCycle).isEqualTo(107);
            // sources in round-robin order: input 0 first after reset, then 1, 2, 3, 0, ...
            assertThat(b.monitors.get(0).sources).containsExactly(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
        }
    }

    @Test
    void getOutputAndPutOutputDoNotWaitForEachOther(RunConfig cfg) {
        try (Testbench<DmaCrossbar> tb = bench(cfg, 4, 2)) {
            XbarHarness b = new XbarHarness(tb, 0, 1);
            Rng rng = tb.rng("data");
            // output 2's PUT/NAP side stalled with a PUT from input 0 at its head: a GET from input 1 still leaves
            b.monitors.get(2).forceReady = false;
            b.send(b.packet(rng, 0, 0, 2, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 1, 0, 2, PktType.GET, 32, false));
            tb.reset(1);
            tb.runUntil("GET on GET output 2", () -> b.getMonitor(2).packets == 1, 20);
            assertThat(b.monitors.get(2).packets).isZero();
            // and the other way round: GET output 2 stalled, a GET at its head, PUTs to 2 flow
            b.monitors.get(2).forceReady = true;
            b.getMonitor(2).forceReady = false;
            b.send(b.packet(rng, 3, 0, 2, PktType.GET, 32, true));
            b.send(b.packet(rng, 3, 1, 2, PktType.PUT, MTU, false));
            b.send(b.packet(rng, 3, 2, 2, PktType.NAP, 40, false));
            tb.runUntil("PUT and NAP on output 2", () -> b.monitors.get(2).packets == 3, 60);
            assertThat(b.getMonitor(2).packets).isEqualTo(1);
            assertThat(occ(tb, 3, 2)).as("the GET waits in input 3's GET buffer").isEqualTo(3);
            b.getMonitor(2).forceReady = true;
            tb.runUntil("delivered", b::idle, 100);
            tb.finish();
            assertThat(b.delivered()).isEqualTo(5);
        }
    }
}
