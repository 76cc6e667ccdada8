package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.PulseCounter;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MpqWriter} with {@link PcieHost} as host memory: every MPQ entry byte-exact at its slot with its phase,
 * nothing else written, one event per packet (MP_ARRIVED at contiguous indexes or MPQ_OVERFLOW), drops only when
 * the ring was full or missing, drop and producer registers, the {@code answered} SrcVPs. Host software consumes
 * the rings by phase and moves the consumer index while packets arrive.
 */
@ExtendWith(TestbenchExtension.class)
class MpqWriterTest {
    /** The harness, the host and what the test observes. */
    static final class Env {
        final Testbench<MpqHarness> tb;
        final MpqHarness h;
        final PcieHost host;
        final StreamSource source;
        final List<BitVector> sent = new ArrayList<>();
        final List<NicEvents.Req> events = new ArrayList<>();
        final List<Integer> answered = new ArrayList<>();
        final PulseCounter overflows;
        final int[] log2 = new int[Th2.VP_COUNT];
        final int[] head = new int[Th2.VP_COUNT];

        Env(Testbench<MpqHarness> tb, Throttle dmaReady, Throttle eventReady) {
            this.tb = tb;
            h = tb.dut();
            host = tb.add(new PcieHost("host", new HostMemory(), PcieParams.th2()).dma(h.dma, null).backpressure(dmaReady));
            source = tb.add(new StreamSource("in", StreamPort.of(h.in)).gaps(Throttle.busy(0.3)));
            StreamPort ev = StreamPort.of(h.events);
            tb.add(new StreamSink("event_sink", ev).backpressure(eventReady));
            tb.add(new StreamMonitor("event_monitor", ev).subscribe(b -> events.add(NicEvents.Req.unpack(b))));
            overflows = tb.add(new PulseCounter("overflow", h.overflow));
            tb.add(new Component("observer") {
                @Override
                protected void sample() {
                    if (sim().peek(h.answered.valid) != 0) {
                        answered.add((int) sim().peek(h.answered.bits));
                    }
                    if (sim().peek(h.overflow) != 0) {
                        // a drop is only right when the ring, as the host set it up in this cycle, had no room
                        int vp = (int) sim().peek(h.lookupVp);
                        int used = ((int) sim().peek(h.producer.get(vp)) - head[vp]) & 0xFFFF;
                        if (log2[vp] != 0 && used < 1 << log2[vp]) {
                            throw fail("MPQ of VP " + vp + " dropped a packet with " + used + " of " + (1 << log2[vp]) + " entries used");
                        }
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

        void send(BitVector p) {
            sent.add(p);
            source.send(p.toBigInteger());
        }

        boolean done() {
            return source.idle() && events.size() == sent.size() && host.idle();
        }

        /**
         * Checks the events against the packets sent (in order), and host memory against the events: returns the
         * MP_ARRIVED count per VP.
         */
        int[] check() {
            assertThat(events).hasSize(sent.size());
            int[] arrived = new int[Th2.VP_COUNT];
            int[] dropped = new int[Th2.VP_COUNT];
            List<Integer> wantAnswered = new ArrayList<>();
            List<PcieHost.Write> wantWrites = new ArrayList<>();
            for (int i = 0; i < sent.size(); i++) {
                BitVector p = sent.get(i);
                NicEvents.Req e = events.get(i);
                int vp = (int) p.get(PacketLayout.HEAD.DEST_VP);
                int tid = (int) p.get(PacketLayout.BODY1.TRANSACTION_ID);
                boolean rint = p.get(PacketLayout.HEAD.RINT) != 0;
                if (e.type() == NicEvent.MP_ARRIVED.code()) {
                    int index = arrived[vp]++;
                    assertThat(e).isEqualTo(new NicEvents.Req(vp, NicEvent.MP_ARRIVED.code(), 0, tid, index, rint ? NicHost.IRQ_MPQ : 0));
                    long addr = MpqHarness.base(vp) + (long) NicHost.MPQ_ENTRY_BYTES * (index % (1 << log2[vp]));
                    wantWrites.add(new PcieHost.Write(0, addr, NicEvents.mpqBytes(p, index, log2[vp])));
                } else {
                    dropped[vp]++;
                    assertThat(e).isEqualTo(new NicEvents.Req(vp, NicEvent.MPQ_OVERFLOW.code(), 0, tid, arrived[vp], 0));
                }
                if (p.get(PacketLayout.BODY1.NMP_TYPE) != NmpType.FAULT_REPORT.code()) {
                    wantAnswered.add((int) p.get(PacketLayout.HEAD.SRC_VP));
                }
            }
            // every DMA write is one of these entries, in order, byte for byte: nothing else is written
            assertThat(host.writes()).hasSize(wantWrites.size());
            for (int i = 0; i < wantWrites.size(); i++) {
                assertThat(host.writes().get(i).addr()).as("write %d address", i).isEqualTo(wantWrites.get(i).addr());
                assertThat(host.writes().get(i).data()).as("write %d bytes", i).isEqualTo(wantWrites.get(i).data());
            }
            assertThat(answered).isEqualTo(wantAnswered);
            int drops = 0;
            for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                assertThat(tb.sim().peek(h.drops.get(vp))).as("drops of VP %d", vp).isEqualTo(dropped[vp]);
                assertThat(tb.sim().peek(h.producer.get(vp))).as("producer of VP %d", vp).isEqualTo(arrived[vp] & 0xFFFF);
                drops += dropped[vp];
            }
            assertThat(overflows.count()).isEqualTo(drops);
            return arrived;
        }
    }

    /** Host software: reads each VP's MPQ in order by phase, keeps the entries, and moves the consumer index. */
    static final class Consumer extends Component {
        final Env env;
        final double rate;
        final int[] ci = new int[Th2.VP_COUNT];
        final Map<Integer, List<byte[]>> consumed = new HashMap<>();

        Consumer(Env env, double rate) {
            super("software");
            this.env = env;
            this.rate = rate;
        }

        @Override
        protected void drive() {
            for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                int lg = env.log2[vp];
                if (lg == 0 || !rng().chance(rate)) {
                    continue;
                }
                long addr = MpqHarness.base(vp) + (long) NicHost.MPQ_ENTRY_BYTES * (ci[vp] % (1 << lg));
                byte[] entry = env.host.memory().read(addr, NicHost.MPQ_ENTRY_BYTES);
                if ((entry[NicHost.MPQ_ENTRY_BYTES - 1] & 1) == NicHost.phase(ci[vp], lg)) {
                    consumed.computeIfAbsent(vp, k -> new ArrayList<>()).add(entry);
                    ci[vp]++;
                    env.head(vp, ci[vp]);
                }
            }
        }
    }

    @Test
    void writesEveryEntryByteExactAndDropsOnlyWhenFull(RunConfig cfg) {
        try (Testbench<MpqHarness> tb = Testbench.create(MpqHarness::new, cfg)) {
            Env env = new Env(tb, Throttle.busy(0.4), Throttle.busy(0.4));
            Consumer sw = tb.add(new Consumer(env, 0.02));
            for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                env.ring(vp, vp % 5 == 4 ? 0 : 1 + vp % 3);
            }
            RandomGenerator rnd = tb.rng("packets");
            for (int i = 0; i < 400; i++) {
                env.send(NicPackets.toHost(rnd, 0x0304, rnd.nextInt(10)).toBits());
            }
            tb.reset(1);
            tb.runUntil("every packet handled", env::done, 50_000);
            tb.run(100); // let software read what is left
            tb.finish();
            int[] arrived = env.check();
            // software saw exactly the entries written, in order, none overwritten before it read them
            int total = 0;
            for (int vp = 0; vp < 10; vp++) {
                List<byte[]> got = sw.consumed.getOrDefault(vp, List.of());
                total += got.size();
                assertThat(got.size()).isLessThanOrEqualTo(arrived[vp]);
                assertThat(arrived[vp] - got.size()).as("unread entries of VP %d", vp).isLessThanOrEqualTo(1 << env.log2[vp]);
                int k = 0;
                for (int i = 0; i < env.sent.size() && k < got.size(); i++) {
                    BitVector p = env.sent.get(i);
                    if (p.get(PacketLayout.HEAD.DEST_VP) == vp && env.events.get(i).type() == NicEvent.MP_ARRIVED.code()) {
                        assertThat(got.get(k)).isEqualTo(NicEvents.mpqBytes(p, k, env.log2[vp]));
                        k++;
                    }
                }
            }
            assertThat(total).isGreaterThan(100);
            assertThat(env.overflows.count()).isGreaterThan(50);
            assertThat(arrived[4] + arrived[9]).as("VPs without an MPQ").isZero();
        }
    }

    @Test
    void aFullMpqDropsCountsAndNeverOverwrites(RunConfig cfg) {
        try (Testbench<MpqHarness> tb = Testbench.create(MpqHarness::new, cfg)) {
            Env env = new Env(tb, Throttle.NONE, Throttle.NONE);
            env.ring(3, 1); // 2 entries
            RandomGenerator rnd = tb.rng("packets");
            List<BitVector> p = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                p.add(NicPackets.toHost(rnd, 0x0304, 3).toBits());
            }
            for (int i = 0; i < 5; i++) {
                env.send(p.get(i));
            }
            BitVector noRing = NicPackets.toHost(rnd, 0x0304, 5).toBits();
            env.send(noRing);
            env.send(noRing);
            tb.reset(1);
            tb.runUntil("7 packets handled", env::done, 2_000);
            // slots 0 and 1 hold packets 0 and 1 (phase 1); packets 2..4 dropped; VP 5 has no MPQ
            assertThat(tb.sim().peek(env.h.drops.get(3))).isEqualTo(3);
            assertThat(tb.sim().peek(env.h.producer.get(3))).isEqualTo(2);
            assertThat(tb.sim().peek(env.h.drops.get(5))).isEqualTo(2);
            assertThat(env.overflows.count()).isEqualTo(5);
            // software frees one entry: the next packet goes to slot 0 on the second lap (phase 0), the one after is dropped
            env.head(3, 1);
            env.send(p.get(5));
            env.send(p.get(6));
            tb.runUntil("2 more", env::done, 2_000);
            tb.finish();
            env.check();
            HostMemory mem = env.host.memory();
            long base = MpqHarness.base(3);
            assertThat(mem.read(base, 128)).isEqualTo(NicEvents.mpqBytes(p.get(5), 2, 1));
            assertThat(mem.read(base + 128, 128)).isEqualTo(NicEvents.mpqBytes(p.get(1), 1, 1));
            assertThat(env.host.writes()).hasSize(3);
            assertThat(env.events).extracting(NicEvents.Req::type).containsExactly(2, 2, 4, 4, 4, 4, 4, 2, 4);
            assertThat(env.events).extracting(NicEvents.Req::index).containsExactly(0, 1, 2, 2, 2, 0, 0, 2, 3);
            assertThat(tb.sim().peek(env.h.drops.get(3))).isEqualTo(4);
            assertThat(env.overflows.count()).isEqualTo(6);
        }
    }
}
