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
 * The crossbar under seeded random traffic on every input and GET path (PUT, NAP and GET of 1..9 beats, some to a
 * port that does not exist) with random idle beats and random output backpressure: every packet delivered once,
 * intact and in order per (input, output, VC), on the output its header names, the Decoupled hold rule on every
 * output, and the drop counters exact. docs/chpp-dma.md, "Intra-DMA crossbar".
 */
@ExtendWith(TestbenchExtension.class)
class DmaCrossbarRandomTest {

    static void run(RunConfig cfg, int ports, int vcs, int vcDepth, int getDepth, int packetsPerInput, double gapP, double readyP) {
        try (Testbench<DmaCrossbar> tb = Testbench.create(() -> new DmaCrossbar(ports, vcs, vcDepth, getDepth), cfg)) {
            XbarHarness b = new XbarHarness(tb, gapP, readyP);
            Rng rng = tb.rng("traffic");
            int destValues = 1 << tb.dut().destField.width();
            long sent = 0;
            for (int i = 0; i < ports; i++) {
                long seq = 0;
                for (int k = 0; k < packetsPerInput; k++) {
                    // a destination that does not exist, when the field can name one, 1 packet in 15
                    int dest = destValues > ports && rng.chance(1.0 / 15) ? ports + rng.nextInt(destValues - ports) : rng.nextInt(ports);
                    double r = rng.nextDouble();
                    XbarHarness.Pkt p;
                    if (r < 0.15) {
                        p = b.packet(rng, i, seq++, dest, PktType.GET, 32, true);
                    } else if (r < 0.22) {
                        p = b.packet(rng, i, seq++, dest, PktType.GET, 32, false);
                    } else if (r < 0.4) {
                        p = b.packet(rng, i, seq++, dest, PktType.NAP, rng.nextInt(129), false);
                    } else {
                        p = b.packet(rng, i, seq++, dest, PktType.PUT, 1 + rng.nextInt(128), false);
                    }
                    b.send(p);
                    sent++;
                }
            }
            tb.reset(1);
            tb.runUntil("every packet delivered or dropped", b::idle, 200L * packetsPerInput * ports);
            tb.run(20);
            tb.finish();
            long dropped = 0;
            for (int i = 0; i < ports; i++) {
                assertThat(tb.sim().peek(tb.dut().badDestination.get(i))).as("badDestination[%d]", i).isEqualTo(b.expectedDrops[i]);
                assertThat(tb.sim().peek(tb.dut().getBadDestination.get(i))).as("getBadDestination[%d]", i).isEqualTo(b.expectedGetDrops[i]);
                dropped += b.expectedDrops[i] + b.expectedGetDrops[i];
                for (int v = 0; v <= vcs; v++) {
                    assertThat(tb.sim().peek(tb.dut().occupancy.get(i).get(v))).as("buffer %d.%d empty", i, v).isZero();
                }
            }
            assertThat(b.delivered()).isEqualTo(sent - dropped);
            if (destValues > ports) {
                assertThat(dropped).as("some packets had a bad destination").isPositive();
            }
            System.out.printf("crossbar %dx%d random (seed %d): %d packets sent, %d delivered, %d dropped, %d cycles%n",
                    ports, vcs, cfg.seed(), sent, b.delivered(), dropped, tb.cycle());
        }
    }

    @Test
    void fourPortsTwoVcs(RunConfig cfg) {
        run(cfg, 4, 2, DmaCrossbar.DEFAULT_VC_DEPTH, DmaCrossbar.DEFAULT_GET_DEPTH, 300, 0.2, 0.7);
    }

    @Test
    void fivePortsThreeVcsHeavyBackpressure(RunConfig cfg) {
        // 3 VCs is not a power of two: Dest-Mod by lookup; 5 ports leave destinations 5..7 nameable but absent
        run(cfg, 5, 3, 9, 3, 150, 0.1, 0.3);
    }

    @Test
    void sixteenPortsUseFourDestinationBits(RunConfig cfg) {
        // beyond 8 ports the destination takes DST_ID 55:52: every packet must still reach the port it names
        run(cfg, 16, 2, 9, 3, 40, 0.1, 0.7);
    }

    @Test
    void smallestBuffers(RunConfig cfg) {
        // one-beat buffers: every VC is full all the time
        run(cfg, 2, 1, 1, 1, 200, 0.0, 0.8);
    }
}
