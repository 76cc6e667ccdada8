package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link EventWriter} with {@link PcieHost} as host memory: every written event byte-exact (phase, timestamp) at
 * its slot, nothing else written, drops exactly when the EQ was full or missing (decided the cycle after an event
 * is taken), drop and producer registers, and one interrupt per written event that asks for one, in the cycle
 * its write leaves.
 */
@ExtendWith(TestbenchExtension.class)
class EventWriterTest {
    /** An event as it was taken, with the counter value (its timestamp) and what the model decided for it. */
    record Taken(NicEvents.Req req, long stamp, boolean write) {
    }

    static final class Env {
        final Testbench<EqHarness> tb;
        final EqHarness h;
        final PcieHost host;
        final StreamSource source;
        final List<Taken> taken = new ArrayList<>();
        final int[] log2 = new int[Th2.VP_COUNT];
        final int[] head = new int[Th2.VP_COUNT];
        int sent;

        Env(Testbench<EqHarness> tb, Throttle dmaReady, Throttle gaps) {
            this.tb = tb;
            h = tb.dut();
            host = tb.add(new PcieHost("host", new HostMemory(), PcieParams.th2()).dma(h.dma, null).irq(h.irq).backpressure(dmaReady));
            source = tb.add(new StreamSource("in", StreamPort.of(h.in)).gaps(gaps));
            NicEvents.Req[] pending = new NicEvents.Req[1];
            long[] stamp = new long[1];
            tb.add(new StreamMonitor("in_monitor", StreamPort.of(h.in)).subscribe(b -> {
                pending[0] = NicEvents.Req.unpack(b);
                stamp[0] = tb.sim().peek(h.now);
            }));
            tb.add(new Component("model") {
                NicEvents.Req deciding;
                long decidingStamp;

                @Override
                protected void sample() {
                    if (deciding != null) {
                        // the writer decides the cycle after it took the event, against the ring as it is now
                        int vp = deciding.vp();
                        int used = ((int) sim().peek(h.producer.get(vp)) - head[vp]) & 0xFFFF;
                        taken.add(new Taken(deciding, decidingStamp, log2[vp] != 0 && used < 1 << log2[vp]));
                        deciding = null;
                    }
                    if (pending[0] != null) {
                        deciding = pending[0];
                        decidingStamp = stamp[0];
                        pending[0] = null;
                    }
                }
            });
        }

        void ring(int vp, int lg) {
            log2[vp] = lg;
            tb.sim().poke(h.log2.get(vp), lg);
        }

        void head(int vp, int index) {
            head[vp] = index & 0xFFFF;
            tb.sim().poke(h.head.get(vp), head[vp]);
        }

        void send(NicEvents.Req r) {
            sent++;
            source.send(r.pack());
        }

        boolean done() {
            return source.idle() && taken.size() == sent && host.idle();
        }

        /** Host memory, registers and interrupts against the model's decisions; returns the events written per VP. */
        int[] check() {
            int[] written = new int[Th2.VP_COUNT];
            int[] dropped = new int[Th2.VP_COUNT];
            List<PcieHost.Write> want = new ArrayList<>();
            List<NicEvents.Req> wantIrq = new ArrayList<>();
            for (Taken t : taken) {
                int vp = t.req().vp();
                if (!t.write()) {
                    dropped[vp]++;
                    continue;
                }
                int index = written[vp]++;
                want.add(new PcieHost.Write(0, EqHarness.base(vp) + (long) NicHost.EQ_ENTRY_BYTES * (index % (1 << log2[vp])),
                        NicEvents.eqBytes(t.req(), index, log2[vp], t.stamp())));
                if (t.req().irq() != 0) {
                    wantIrq.add(t.req());
                }
            }
            assertThat(host.writes()).hasSize(want.size());
            for (int i = 0; i < want.size(); i++) {
                assertThat(host.writes().get(i).addr()).as("write %d address", i).isEqualTo(want.get(i).addr());
                assertThat(host.writes().get(i).data()).as("write %d bytes", i).isEqualTo(want.get(i).data());
            }
            assertThat(host.interrupts()).extracting(PcieHost.Interrupt::vp).isEqualTo(wantIrq.stream().map(NicEvents.Req::vp).toList());
            assertThat(host.interrupts()).extracting(PcieHost.Interrupt::cause).isEqualTo(wantIrq.stream().map(NicEvents.Req::irq).toList());
            // each interrupt in the cycle its event's write left
            int k = 0;
            int j = 0;
            for (Taken t : taken) {
                if (t.write()) {
                    if (t.req().irq() != 0) {
                        assertThat(host.interrupts().get(k++).cycle()).isEqualTo(host.writes().get(j).cycle());
                    }
                    j++;
                }
            }
            for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                assertThat(tb.sim().peek(h.drops.get(vp))).as("drops of VP %d", vp).isEqualTo(dropped[vp]);
                assertThat(tb.sim().peek(h.producer.get(vp))).as("producer of VP %d", vp).isEqualTo(written[vp] & 0xFFFF);
            }
            return dropped;
        }
    }

    static NicEvents.Req random(RandomGenerator rnd, int vp) {
        int type = 1 + rnd.nextInt(NicEvent.values().length);
        return new NicEvents.Req(vp, type, rnd.nextInt(256), rnd.nextInt(0x10000), rnd.nextInt(0x10000), rnd.nextInt(3));
    }

    @Test
    void writesEveryEventByteExactAndDropsOnlyWhenFull(RunConfig cfg) {
        try (Testbench<EqHarness> tb = Testbench.create(EqHarness::new, cfg)) {
            Env env = new Env(tb, Throttle.busy(0.4), Throttle.busy(0.3));
            for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                env.ring(vp, vp % 4 == 3 ? 0 : 1 + vp % 3);
            }
            // host software reads each EQ by phase and frees the entries it read
            int[] ci = new int[Th2.VP_COUNT];
            int[] read = {0};
            tb.add(new Component("software") {
                @Override
                protected void drive() {
                    int vp = rng().nextInt(8);
                    int lg = env.log2[vp];
                    if (lg == 0 || !rng().chance(0.3)) {
                        return;
                    }
                    long addr = EqHarness.base(vp) + (long) NicHost.EQ_ENTRY_BYTES * (ci[vp] % (1 << lg));
                    if ((env.host.memory().read(addr, 1)[0] & 1) == NicHost.phase(ci[vp], lg)) {
                        ci[vp]++;
                        read[0]++;
                        env.head(vp, ci[vp]);
                    }
                }
            });
            RandomGenerator rnd = tb.rng("events");
            for (int i = 0; i < 500; i++) {
                env.send(random(rnd, rnd.nextInt(8)));
            }
            tb.reset(1);
            tb.runUntil("every event handled", env::done, 50_000);
            tb.finish();
            int[] dropped = env.check();
            int drops = 0;
            for (int d : dropped) {
                drops += d;
            }
            assertThat(env.taken).hasSize(500);
            assertThat(drops).isGreaterThan(100);
            assertThat(env.host.writes().size()).isGreaterThan(150);
            assertThat(read[0]).isGreaterThan(100);
        }
    }

    @Test
    void aFullEqDropsAndCounts(RunConfig cfg) {
        try (Testbench<EqHarness> tb = Testbench.create(EqHarness::new, cfg)) {
            Env env = new Env(tb, Throttle.NONE, Throttle.NONE);
            env.ring(7, 1);
            RandomGenerator rnd = tb.rng("events");
            for (int i = 0; i < 5; i++) {
                env.send(new NicEvents.Req(7, NicEvent.SEND_DONE.code(), 0, 100 + i, i, NicHost.IRQ_COMPLETION));
            }
            env.send(random(rnd, 9)); // no EQ
            tb.reset(1);
            tb.runUntil("6 events", env::done, 1_000);
            assertThat(tb.sim().peek(env.h.drops.get(7))).isEqualTo(3);
            assertThat(tb.sim().peek(env.h.producer.get(7))).isEqualTo(2);
            assertThat(tb.sim().peek(env.h.drops.get(9))).isEqualTo(1);
            assertThat(env.host.interrupts()).hasSize(2);
            env.head(7, 2);
            env.send(new NicEvents.Req(7, NicEvent.MP_ARRIVED.code(), 0, 200, 5, NicHost.IRQ_MPQ));
            env.send(new NicEvents.Req(7, NicEvent.MP_ARRIVED.code(), 0, 201, 6, 0));
            env.send(new NicEvents.Req(7, NicEvent.MP_ARRIVED.code(), 0, 202, 7, 0));
            tb.runUntil("3 more", env::done, 1_000);
            tb.finish();
            env.check();
            HostMemory mem = env.host.memory();
            // second lap: phase 0, the newest events in both slots
            assertThat(mem.read(EqHarness.base(7), 16)).isEqualTo(NicEvents.eqBytes(env.taken.get(6).req(), 2, 1, env.taken.get(6).stamp()));
            assertThat(mem.read(EqHarness.base(7) + 16, 16)).isEqualTo(NicEvents.eqBytes(env.taken.get(7).req(), 3, 1, env.taken.get(7).stamp()));
            assertThat(env.host.writes()).hasSize(4);
            assertThat(tb.sim().peek(env.h.drops.get(7))).isEqualTo(4);
            assertThat(env.host.interrupts()).extracting(PcieHost.Interrupt::cause)
                    .containsExactly(NicHost.IRQ_COMPLETION, NicHost.IRQ_COMPLETION, NicHost.IRQ_MPQ);
            assertThat(env.host.interrupts()).extracting(PcieHost.Interrupt::vp).containsExactly(7, 7, 7);
        }
    }
}
