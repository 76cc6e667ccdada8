package org.flitkit.env.nrc.switchcore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input never hangs the core: random 198-bit flits on every input, ignoring credits (bad VCs, Len 0..31,
 * RtType 0..3, stray body flits, random source routes); then a few body flits to end any packet left open;
 * then every buffer drains, every credit comes back, and a good packet from each input still gets through.
 */
@ExtendWith(TestbenchExtension.class)
class SwitchFuzzTest {
    /** Drives the inputs (garbage, then flush, then good packets) and plays the downstream on every output. */
    static final class Fuzz extends Component {
        final SwitchCore d;
        final int n;
        int phase; // 0 garbage, 1 flush, 2 idle, 3 good packets
        final int[] flushLeft;
        final int[] outVc;
        final int[] outLeft;
        final List<long[]> good = new ArrayList<>();
        final List<long[]> received = new ArrayList<>();
        final long[] buf = new long[Flits.LIMBS];
        boolean goodSent;

        Fuzz(SwitchCore d) {
            super("fuzz");
            this.d = d;
            this.n = d.params.ports();
            flushLeft = new int[n];
            outVc = new int[n];
            outLeft = new int[n];
        }

        @Override
        protected void drive() {
            Simulator sim = sim();
            Rng rng = rng();
            for (int i = 0; i < n; i++) {
                boolean v = false;
                long[] f = new long[Flits.LIMBS];
                if (phase == 0 && rng.chance(0.4)) {
                    for (int l = 0; l < Flits.LIMBS; l++) {
                        f[l] = rng.nextLong();
                    }
                    f[3] &= (1L << 6) - 1;
                    v = true;
                } else if (phase == 1 && flushLeft[i] > 0) {
                    flushLeft[i]--;
                    Flits.set(f, DataLayouts.BODY.KIND, flushLeft[i] == 0 ? 1 : 0);
                    v = true;
                } else if (phase == 3 && !goodSent) {
                    f = good.get(i);
                    v = true;
                }
                sim.poke(d.in.get(i).valid, v);
                sim.poke(d.in.get(i).bits, f);
                sim.poke(d.out.get(i).ready, rng.chance(0.7));
                sim.poke(d.toRs.get(i).ready, rng.chance(0.7));
            }
            if (phase == 3) {
                goodSent = true;
            }
        }

        @Override
        protected void sample() {
            Simulator sim = sim();
            for (int o = 0; o < n; o++) {
                boolean fire = sim.peekBool(d.out.get(o).valid) && sim.peekBool(d.out.get(o).ready);
                int vc = outVc[o];
                if (fire) {
                    sim.peekInto(d.out.get(o).bits, buf);
                    if (outLeft[o] == 0) {
                        if ((Flits.kind(buf) & 2) == 0) {
                            throw fail("output " + o + ": a packet starts without a head: " + Flits.hex(buf));
                        }
                        vc = (int) Flits.get(buf, DataLayouts.HEAD.VC);
                        outVc[o] = vc;
                        outLeft[o] = (int) Flits.get(buf, DataLayouts.HEAD.LEN);
                        if (phase == 3) {
                            received.add(buf.clone());
                        }
                    }
                    outLeft[o]--;
                }
            }
        }
    }

    @Test
    void garbageOnEveryInputNeverHangsTheCore(RunConfig cfg) {
        try (Testbench<SwitchCore> tb = SwitchCoreTest.bench(cfg)) {
            SwitchCore d = tb.dut();
            Simulator sim = tb.sim();
            for (int i = 0; i < 4; i++) {
                for (int e = 0; e < 16; e++) {
                    SwitchSurroundings.writeTable(tb, i, e, e == 0 ? 1L << ((i + 1) % 4) : (e * 7 + i) % 16);
                }
            }
            Fuzz fz = tb.add(new Fuzz(d));
            // the downstream returns each flit's credit the next cycle (registered in the harness below)
            tb.add(new Component("credits") {
                final boolean[] due = new boolean[4];
                final int[] vc = new int[4];

                @Override
                protected void drive() {
                    for (int o = 0; o < 4; o++) {
                        sim().poke(d.creditIn.get(o).valid, due[o]);
                        sim().poke(d.creditIn.get(o).bits.vc, vc[o]);
                        sim().poke(d.creditIn.get(o).bits.count, 1);
                    }
                }

                @Override
                protected void sample() {
                    for (int o = 0; o < 4; o++) {
                        due[o] = sim().peekBool(d.out.get(o).valid) && sim().peekBool(d.out.get(o).ready);
                        // the VC of the flit just taken: the head's, or the packet's (kept by the fuzz component)
                        vc[o] = fz.outVc[o];
                    }
                }
            });
            for (int i = 0; i < 4; i++) {
                sim.poke(d.linkUp.get(i), true);
            }
            tb.reset(2);
            tb.run(3000);
            fz.phase = 1;
            java.util.Arrays.fill(fz.flushLeft, 32);
            tb.run(40);
            fz.phase = 2;
            tb.runUntil("every input buffer empty and every credit back", () -> {
                for (int i = 0; i < 4; i++) {
                    if (sim.peek(d.inputs.get(i).damq.free) != SwitchCoreTest.SMALL.capacity()) {
                        return false;
                    }
                    for (int v = 0; v < 4; v++) {
                        if (sim.peek(d.occ[i][v]) != 0) {
                            return false;
                        }
                    }
                }
                return true;
            }, 2000);
            assertThat(sim.peek(d.malformedDrops)).isPositive();
            assertThat(sim.peek(d.badVcDrops)).isPositive();
            assertThat(sim.peek(d.framingErrors)).isPositive();
            // one good one-flit packet per input, table entry 0: to the next port
            for (int i = 0; i < 4; i++) {
                fz.good.add(Flits.packet(1000 + i, 0, 1, 0, i, null, 0)[0]);
            }
            fz.phase = 3;
            tb.runUntil("the 4 good packets out", () -> fz.received.size() == 4, 200);
            for (long[] f : fz.received) {
                int src = (int) Flits.get(f, DataLayouts.HEAD.SRC_ID);
                assertThat(f).isEqualTo(fz.good.get(src));
            }
        }
    }
}
