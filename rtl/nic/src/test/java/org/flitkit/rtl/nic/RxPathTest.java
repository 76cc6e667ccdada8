package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.PacketLayout;
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
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * NIC flow (4) end to end ({@link RxHarness}): flits from the link to MPQ entries, EQ events and Rint interrupts
 * in host memory through {@link PcieHost} with the TH-2 timing: the exact cycles of one response, and a seeded mix
 * of responses, requests and bad packets with host software consuming the rings slowly enough to fill its MPQs.
 */
@ExtendWith(TestbenchExtension.class)
class RxPathTest {
    static final int ME = 0x0304;

    static final class Env {
        final Testbench<RxHarness> tb;
        final RxHarness h;
        final PcieHost host;
        final StreamSource link;
        final List<Long> flitCycles = new ArrayList<>();
        final List<BitVector> nma = new ArrayList<>();
        long drops;

        Env(Testbench<RxHarness> tb, Throttle dmaReady) {
            this.tb = tb;
            h = tb.dut();
            tb.sim().poke(h.chipId, ME);
            host = tb.add(new PcieHost("host", new HostMemory(), PcieParams.th2()).dma(h.dma, null).irq(h.irq).backpressure(dmaReady));
            link = tb.add(new StreamSource("link", StreamPort.of(h.linkIn)).gaps(Throttle.busy(0.2)));
            tb.add(new StreamMonitor("link_monitor", StreamPort.of(h.linkIn)).subscribe(b -> flitCycles.add(tb.cycle())));
            StreamPort toNma = StreamPort.of(h.toNma);
            tb.add(new StreamSink("nma_sink", toNma));
            tb.add(new StreamMonitor("nma_monitor", toNma).subscribe(b -> nma.add(NicPackets.bits(b))));
            tb.add(new Component("drops") {
                @Override
                protected void sample() {
                    drops += Long.bitCount(sim().peek(h.dropped));
                }
            });
        }

        void rings(int vp, int mpqLog2, int eqLog2) {
            tb.sim().poke(h.mpqLog2.get(vp), mpqLog2);
            tb.sim().poke(h.eqLog2.get(vp), eqLog2);
        }
    }

    static BitVector withRint(BitVector p) {
        return NicPackets.withField(p, PacketLayout.HEAD.RINT, 1);
    }

    @Test
    void oneResponseReachesTheMpqTheEqAndRaisesItsInterruptAtExactCycles(RunConfig cfg) {
        try (Testbench<RxHarness> tb = Testbench.create(RxHarness::new, cfg)) {
            Env env = new Env(tb, Throttle.NONE);
            env.rings(2, 3, 3);
            BitVector p = withRint(NicPackets.toHost(tb.rng("packet"), ME, 2).toBits());
            NicPackets.flits(p).forEach(env.link::send);
            long[] mpqAt = {-1};
            long[] eqAt = {-1};
            HostMemory mem = env.host.memory();
            tb.add(new Component("software") {
                @Override
                protected void drive() {
                    if (mpqAt[0] < 0 && (mem.read(MpqHarness.base(2) + 127, 1)[0] & 1) == 1) {
                        mpqAt[0] = cycle();
                    }
                    if (eqAt[0] < 0 && (mem.read(EqHarness.base(2), 1)[0] & 1) == 1) {
                        eqAt[0] = cycle();
                    }
                }
            });
            tb.reset(1);
            tb.runUntil("the interrupt and the EQ event", () -> eqAt[0] >= 0, 500);
            tb.finish();
            long tail = env.flitCycles.get(3);
            // stage +1, response FIFO +1, MPQ writer decides +1, two write beats (+1, +1): the entry's last beat at tail + 5,
            // visible 30 cycles (300 ns) later; the event leaves at tail + 6, is written at tail + 8 with the interrupt
            assertThat(env.host.writes()).extracting(PcieHost.Write::cycle).containsExactly(tail + 5, tail + 8);
            assertThat(mpqAt[0]).isEqualTo(tail + 35);
            assertThat(eqAt[0]).isEqualTo(tail + 38);
            assertThat(env.host.interrupts()).containsExactly(new PcieHost.Interrupt(tail + 8, 2, NicHost.IRQ_MPQ));
            assertThat(mem.read(MpqHarness.base(2), 128)).isEqualTo(NicEvents.mpqBytes(p, 0, 3));
            // the timestamp is the NIC counter (0 in the first cycle after reset) when the event was handed over
            int tid = (int) p.get(PacketLayout.BODY1.TRANSACTION_ID);
            NicEvents.Req ev = new NicEvents.Req(2, NicEvent.MP_ARRIVED.code(), 0, tid, 0, NicHost.IRQ_MPQ);
            assertThat(mem.read(EqHarness.base(2), 16)).isEqualTo(NicEvents.eqBytes(ev, 0, 3, tail + 6 - 1));
            assertThat(env.host.writes()).hasSize(2);
        }
    }

    @Test
    void aSeededMixLandsByteExactWithOverflowsAccountedFor(RunConfig cfg) {
        int vps = 6;
        try (Testbench<RxHarness> tb = Testbench.create(RxHarness::new, cfg)) {
            Env env = new Env(tb, Throttle.busy(0.3));
            for (int vp = 0; vp < vps; vp++) {
                env.rings(vp, vp == 5 ? 0 : 2, 8); // 4-entry MPQs (none for VP 5), EQs that never fill
            }
            RandomGenerator rnd = tb.rng("packets");
            List<BitVector> toHost = new ArrayList<>();
            int toNma = 0;
            int bad = 0;
            boolean stray = false;
            for (int i = 0; i < 300; i++) {
                int pick = rnd.nextInt(10);
                BitVector good = NicPackets.toHost(rnd, ME, rnd.nextInt(vps)).toBits();
                if (pick < 7) {
                    NicPackets.flits(good).forEach(env.link::send);
                    toHost.add(good);
                } else if (pick == 7) {
                    NicPackets.flits(NicPackets.forNma(rnd, ME).toBits()).forEach(env.link::send);
                    toNma++;
                } else if (pick == 8) {
                    NicPackets.flits(NicPackets.withField(good, PacketLayout.HEAD.DEST_ID, ME + 1)).forEach(env.link::send);
                    bad++;
                } else {
                    env.link.send(NicPackets.flits(good).get(2)); // a body without a head: a run of them is one break
                    bad += stray ? 0 : 1;
                }
                stray = pick == 9;
            }
            // host software: reads the MPQs slowly (they fill up), the EQs quickly, in order by phase
            HostMemory mem = env.host.memory();
            int[] mpqCi = new int[vps];
            int[] eqCi = new int[vps];
            Map<Integer, List<byte[]>> entries = new HashMap<>();
            Map<Integer, List<byte[]>> events = new HashMap<>();
            tb.add(new Component("software") {
                @Override
                protected void drive() {
                    int vp = rng().nextInt(vps);
                    long e = MpqHarness.base(vp) + 128L * (mpqCi[vp] % 4);
                    if (vp != 5 && rng().chance(0.25) && (mem.read(e + 127, 1)[0] & 1) == NicHost.phase(mpqCi[vp], 2)) {
                        entries.computeIfAbsent(vp, k -> new ArrayList<>()).add(mem.read(e, 128));
                        mpqCi[vp]++;
                        sim().poke(env.h.mpqHead.get(vp), mpqCi[vp]);
                    }
                    long q = EqHarness.base(vp) + 16L * (eqCi[vp] % 256);
                    if ((mem.read(q, 1)[0] & 1) == NicHost.phase(eqCi[vp], 8)) {
                        events.computeIfAbsent(vp, k -> new ArrayList<>()).add(mem.read(q, 16));
                        eqCi[vp]++;
                        sim().poke(env.h.eqHead.get(vp), eqCi[vp]);
                    }
                }
            });
            int nmaCount = toNma;
            tb.reset(1);
            tb.runUntil("every packet handled", () -> env.link.idle() && env.nma.size() == nmaCount
                    && java.util.Arrays.stream(eqCi).sum() == toHost.size() && env.host.idle(), 100_000);
            tb.finish();
            // what software has not read yet is still in the rings
            int unread = 0;
            for (int vp = 0; vp < 5; vp++) {
                for (long e = MpqHarness.base(vp) + 128L * (mpqCi[vp] % 4); (mem.read(e + 127, 1)[0] & 1) == NicHost.phase(mpqCi[vp], 2);
                        e = MpqHarness.base(vp) + 128L * (mpqCi[vp] % 4)) {
                    entries.computeIfAbsent(vp, k -> new ArrayList<>()).add(mem.read(e, 128));
                    mpqCi[vp]++;
                    unread++;
                }
            }
            assertThat(unread).isLessThanOrEqualTo(5 * 4);
            assertThat(env.drops).isEqualTo(bad);
            // per VP: one event per packet, in order; MP_ARRIVED at contiguous indexes, MPQ_OVERFLOW at the next one
            int arrivedTotal = 0;
            int overflowTotal = 0;
            List<Integer> irqVps = new ArrayList<>();
            Map<Integer, Integer> arrived = new HashMap<>();
            Map<Integer, Integer> seen = new HashMap<>();
            for (BitVector p : toHost) {
                int vp = (int) p.get(PacketLayout.HEAD.DEST_VP);
                int k = seen.merge(vp, 1, Integer::sum) - 1;
                byte[] ev = events.get(vp).get(k);
                BitVector e = BitVector.fromBytesLE(128, ev);
                int index = arrived.getOrDefault(vp, 0);
                int tid = (int) p.get(PacketLayout.BODY1.TRANSACTION_ID);
                boolean rint = p.get(PacketLayout.HEAD.RINT) != 0;
                NicHost.Event f = NicHost.EVENT;
                long stamp = e.get(f.TIMESTAMP);
                if (e.get(f.TYPE) == NicEvent.MP_ARRIVED.code()) {
                    NicEvents.Req want = new NicEvents.Req(vp, NicEvent.MP_ARRIVED.code(), 0, tid, index, rint ? NicHost.IRQ_MPQ : 0);
                    assertThat(ev).isEqualTo(NicEvents.eqBytes(want, k, 8, stamp));
                    assertThat(entries.get(vp).get(index)).isEqualTo(NicEvents.mpqBytes(p, index, 2));
                    arrived.put(vp, index + 1);
                    arrivedTotal++;
                    if (rint) {
                        irqVps.add(vp);
                    }
                } else {
                    NicEvents.Req want = new NicEvents.Req(vp, NicEvent.MPQ_OVERFLOW.code(), 0, tid, index, 0);
                    assertThat(ev).isEqualTo(NicEvents.eqBytes(want, k, 8, stamp));
                    overflowTotal++;
                }
            }
            assertThat(arrived.getOrDefault(5, 0)).isZero();
            assertThat(env.host.writes()).hasSize(arrivedTotal + toHost.size());
            assertThat(env.host.interrupts()).extracting(PcieHost.Interrupt::vp).isEqualTo(irqVps);
            assertThat(env.nma).hasSize(toNma);
            assertThat(overflowTotal).isGreaterThan(20);
            assertThat(arrivedTotal).isGreaterThan(100);
        }
    }
}
