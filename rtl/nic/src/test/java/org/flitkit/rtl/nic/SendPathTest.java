package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.DescError;
import org.flitkit.formats.th2.DescriptorLayout;
import org.flitkit.formats.th2.DescriptorMapping;
import org.flitkit.formats.th2.ManagementDescriptor;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.DmaParams;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.PulseCounter;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * NIC flow (1) on {@link SendPath}: descriptors from SDQs (DMA VPs) and hardware queues (PIO VPs) become
 * exactly the packets {@link DescriptorMapping} defines; malformed descriptors become DESC_ERROR events;
 * Fen parks a VP until its answers are in (or the fence times out); failed and lost descriptor reads become
 * FETCH_ERROR events and free their tags; bad doorbells and a full HDQ are refused and counted; 40 VPs at
 * once under backpressure, every packet once and in order per VP.
 */
@ExtendWith(TestbenchExtension.class)
class SendPathTest {
    /** Round trip 30, posted write 15, BAR write 10 cycles. */
    static final PcieParams PCIE = new PcieParams(new DmaParams(30, 15, 32, 512, 128, 64), 10);
    static final long SDQ = 0x10_0000;
    static final int LOG2 = 3;
    static final int CHIP_ID = 0x0001;

    record Ev(int vp, int type, int code, int tid, int index, int irq, long cycle) {
        static Ev decode(BigInteger v, long cycle) {
            long x = v.longValue();
            return new Ev((int) (x >>> 50) & 0x3F, (int) (x >>> 42) & 0xFF, (int) (x >>> 34) & 0xFF, (int) (x >>> 18) & 0xFFFF,
                    (int) (x >>> 2) & 0xFFFF, (int) x & 3, cycle);
        }
    }

    record Pkt(BitVector bits, long cycle) {
    }

    static final PacketCodec<BitVector> FLITS = PacketCodec.of(
            p -> PacketLayout.toFlits(p).stream().map(BitVector::toBigInteger).toList(),
            flits -> PacketLayout.fromFlits(flits.stream().map(f -> BitVector.of(Th2.FLIT_BITS, f)).toList()));

    static final class Env implements AutoCloseable {
        final Testbench<SendPath> tb;
        final SendPath d;
        final HostMemory mem = new HostMemory();
        final PcieHost host;
        final List<Pkt> packets = new ArrayList<>();
        final List<Ev> events = new ArrayList<>();
        final PulseCounter doorbellErrors;
        final PulseCounter hdqOverflows;
        final PulseCounter badWrites;
        final int[] tails = new int[Th2.VP_COUNT];

        Env(RunConfig cfg, Throttle linkBackpressure, int tags) {
            tb = Testbench.create(() -> new SendPath(Th2.VP_COUNT, tags), cfg);
            d = tb.dut();
            host = tb.add(new PcieHost("host", mem, PCIE).dma(d.dmaRq, d.dmaCpl).mmio(d.mmio));
            StreamPort link = StreamPort.of(d.linkOut);
            tb.add(new StreamSink("link", link).backpressure(linkBackpressure));
            tb.add(new FrameMonitor<>("linkMon", link, Framing.fixed(Th2.PACKET_FLITS), FLITS).subscribe(p -> packets.add(new Pkt(p, tb.cycle()))));
            StreamPort ev = StreamPort.of(d.events);
            tb.add(new StreamSink("events", ev));
            tb.add(new StreamMonitor("eventMon", ev).subscribe(v -> events.add(Ev.decode(v, tb.cycle()))));
            doorbellErrors = tb.add(new PulseCounter("doorbellErrors", d.queues.doorbellError));
            hdqOverflows = tb.add(new PulseCounter("hdqOverflows", d.queues.hdqOverflow));
            badWrites = tb.add(new PulseCounter("badWrites", d.queues.badWrite));
            tb.sim().poke(d.chipId, CHIP_ID);
            tb.sim().poke(d.fenceTimeout, 4);
            tb.sim().poke(d.cplTimeout, 200);
            tb.reset(2);
            for (int vp = NicHost.PIO_VPS; vp < Th2.VP_COUNT; vp++) {
                host.mmioWrite(NicHost.bar(vp, NicHost.SDQ_BASE), NicHost.queueBase(sdqOf(vp), LOG2));
            }
            tb.runUntil("the BAR set-up", host::idle, 200);
        }

        static long sdqOf(int vp) {
            return SDQ + vp * 0x1000L;
        }

        /** Posts a descriptor on {@code vp} (SDQ + doorbell, or 8 HDQ qwords). */
        void post(int vp, BitVector desc) {
            byte[] b = desc.toBytesLE();
            if (NicHost.isPio(vp)) {
                for (int q = 0; q < 8; q++) {
                    long v = 0;
                    for (int i = 7; i >= 0; i--) {
                        v = v << 8 | (b[8 * q + i] & 0xFF);
                    }
                    host.mmioWrite(NicHost.bar(vp, NicHost.HDQ_WORD0 + 8 * q), v);
                }
            } else {
                mem.write(sdqOf(vp) + 64L * (tails[vp] & ((1 << LOG2) - 1)), b);
                tails[vp]++;
                host.mmioWrite(NicHost.bar(vp, NicHost.SDQ_TAIL), tails[vp]);
            }
        }

        void answer(int vp) {
            tb.sim().poke(d.answered.valid, 1);
            tb.sim().poke(d.answered.bits, vp);
            tb.run(1);
            tb.sim().poke(d.answered.valid, 0);
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    static ManagementDescriptor.Builder read(int vp, int tid) {
        return ManagementDescriptor.builder().destType(ChipType.NRC).destId(0x0042).transactionId(tid).destVp(vp).srcVp(vp)
                .forwardRoute(RoutingField.of(3, 7)).backwardRoute(RoutingField.of(1, 5))
                .request(NmpType.REG_READ_REQ, RegisterPayload.of(0x008, 0x009));
    }

    static BitVector expected(BitVector desc) {
        return DescriptorMapping.requestBits(desc, CHIP_ID);
    }

    @Test
    void dmaAndPioDescriptorsBecomeTheMappedPacketsAtExactCycles(RunConfig cfg) {
        try (Env e = new Env(cfg, Throttle.NONE, 4)) {
            e.tb.run(20);
            BitVector dma = read(8, 0x1111).lint(true).build().encode();
            long c0 = e.tb.cycle();
            e.post(8, dma);
            e.tb.runUntil("the DMA VP's packet", () -> e.packets.size() == 1, 500);
            BitVector pio = read(3, 0x2222).build().encode();
            long c1 = e.tb.cycle();
            e.post(3, pio);
            e.tb.runUntil("the PIO VP's packet", () -> e.packets.size() == 2, 500);
            e.tb.run(20);
            e.tb.finish();
            assertThat(e.packets.get(0).bits()).isEqualTo(expected(dma));
            assertThat(e.packets.get(1).bits()).isEqualTo(expected(pio));
            // doorbell at c0+10, read issued c0+11, completion c0+41, packet's 4 flits out by c0+47
            assertThat(e.host.reads()).hasSize(1);
            assertThat(e.host.reads().get(0).cycle()).isEqualTo(c0 + 11);
            assertThat(e.host.reads().get(0).addr()).isEqualTo(Env.sdqOf(8));
            assertThat(e.packets.get(0).cycle() - c0).isEqualTo(47);
            // the last HDQ qword lands at c1+10+7 (one BAR write per cycle), 8 qword reads, then the packet
            assertThat(e.packets.get(1).cycle() - c1).isEqualTo(32);
            // Lint: SEND_DONE with the completion interrupt; no Lint: no event
            assertThat(e.events).containsExactly(new Ev(8, NicEvent.SEND_DONE.code(), 0, 0x1111, 0, NicHost.IRQ_COMPLETION, e.events.get(0).cycle()));
            assertThat(e.doorbellErrors.count() + e.hdqOverflows.count() + e.badWrites.count()).isZero();
        }
    }

    @Test
    void eachMalformedDescriptorGetsItsDescErrorAndNoPacket(RunConfig cfg) {
        DescriptorLayout.Descriptor D = DescriptorLayout.DESCRIPTOR;
        BitVector good = read(9, 0x100).build().encode();
        int regCount = D.NMP_DATA.lsb() + PayloadLayouts.REGISTER.COUNT.lsb();
        List<BitVector> bad = List.of(
                good.with(D.HEAD, 0),
                good.with(D.ERR, 1),
                good.with(D.INST, 0),
                good.with(D.NMP_TYPE, NmpType.REG_READ_RESP.code()),
                good.with(D.DEST_TYPE, 2),
                good.with(D.SRC_VP, 10),
                good.with(D.F_ROUTING_FIELD, good.slice(D.F_ROUTING_FIELD).with(org.flitkit.formats.th2.FlitLayouts.ROUTE.HOP_NUM, 21)),
                good.withSlice(regCount, BitVector.ofLong(3, 3)));
        List<DescError> want = List.of(DescError.NO_HEAD, DescError.ERR_SET, DescError.NOT_MANAGEMENT, DescError.BAD_NMP_TYPE,
                DescError.BAD_DEST_TYPE, DescError.BAD_VP, DescError.BAD_ROUTE, DescError.BAD_COUNT);
        try (Env e = new Env(cfg, Throttle.NONE, 4)) {
            e.tb.run(20);
            for (BitVector b : bad) {
                e.post(9, b.with(D.TRANSACTION_ID, 0x100 + e.events.size()));
                int n = e.events.size();
                e.tb.runUntil("the DESC_ERROR event", () -> e.events.size() == n + 1, 500);
            }
            e.post(9, good);
            e.tb.runUntil("the good descriptor's packet", () -> e.packets.size() == 1, 500);
            e.tb.finish();
            assertThat(e.events).extracting(Ev::code).containsExactlyElementsOf(want.stream().map(DescError::code).toList());
            assertThat(e.events).extracting(Ev::type).containsOnly(NicEvent.DESC_ERROR.code());
            assertThat(e.events).extracting(Ev::tid).containsExactly(0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107);
            assertThat(e.events).extracting(Ev::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            assertThat(e.packets).extracting(Pkt::bits).containsExactly(expected(good));
        }
    }

    @Test
    void fenParksTheVpUntilItsAnswersAreInAndOtherVpsGoOn(RunConfig cfg) {
        try (Env e = new Env(cfg, Throttle.NONE, 4)) {
            e.post(10, read(10, 1).build().encode());
            e.post(10, read(10, 2).build().encode());
            e.post(10, read(10, 3).fen(true).build().encode());
            e.tb.runUntil("the two unfenced packets", () -> e.packets.size() == 2, 1_000);
            e.tb.run(100);
            // parked: the fenced descriptor waits, another VP is not held up
            assertThat(e.packets).hasSize(2);
            assertThat(e.tb.sim().peek(e.d.dispatch.parked)).isEqualTo(1L << 10);
            e.post(11, read(11, 4).build().encode());
            e.tb.runUntil("VP 11's packet", () -> e.packets.size() == 3, 500);
            e.answer(10);
            e.tb.run(100);
            assertThat(e.packets).hasSize(3);
            e.answer(10);
            long released = e.tb.cycle();
            e.tb.runUntil("the fenced packet", () -> e.packets.size() == 4, 500);
            e.tb.finish();
            assertThat(e.packets).extracting(p -> (int) p.bits().get(PacketLayout.BODY1.TRANSACTION_ID)).containsExactly(1, 2, 4, 3);
            // released the cycle after the last answer, fetched again: one more read round trip
            assertThat(e.packets.get(3).cycle() - released).isEqualTo(37);
            assertThat(e.host.reads()).extracting(PcieHost.Read::addr)
                    .containsExactly(Env.sdqOf(10), Env.sdqOf(10) + 64, Env.sdqOf(10) + 128, Env.sdqOf(11), Env.sdqOf(10) + 128);
            assertThat(e.events).isEmpty();
            assertThat(e.tb.sim().peek(e.d.dispatch.parked)).isZero();
        }
    }

    @Test
    void aFenceWhoseAnswerNeverComesIsReleasedByTheTimeoutWithAnEvent(RunConfig cfg) {
        try (Env e = new Env(cfg, Throttle.NONE, 4)) {
            e.post(12, read(12, 7).build().encode());
            e.post(12, read(12, 8).fen(true).build().encode());
            e.tb.runUntil("the first packet", () -> e.packets.size() == 1, 500);
            e.tb.runUntil("the fence timeout", () -> !e.events.isEmpty(), 10_000);
            e.tb.runUntil("the fenced packet", () -> e.packets.size() == 2, 500);
            e.tb.finish();
            Ev t = e.events.get(0);
            assertThat(t.type()).isEqualTo(NicEvent.FENCE_TIMEOUT.code());
            assertThat(t.vp()).isEqualTo(12);
            // a fence timeout of 4 units of 1024 cycles counts 4 prescaler ticks; the prescaler starts when the VP is
            // parked (no other is), so the event comes 4 x 1024 cycles after parking plus the pipeline: 4124 cycles
            // after the first packet
            long parkedAt = e.packets.get(0).cycle();
            assertThat(t.cycle() - parkedAt).isEqualTo(4124);
            assertThat(e.tb.sim().peek(e.d.dispatch.outstanding.get(12))).isEqualTo(1);
        }
    }

    @Test
    void failedAndLostDescriptorReadsBecomeFetchErrorsAndTheQueueGoesOn(RunConfig cfg) {
        try (Env e = new Env(cfg, Throttle.NONE, 2)) {
            long s = Env.sdqOf(13);
            e.host.readFaults((addr, len, rng) -> addr == s ? PcieHost.ReadOutcome.UR
                    : addr == s + 64 ? PcieHost.ReadOutcome.LOST : PcieHost.ReadOutcome.OK);
            e.post(13, read(13, 1).build().encode());
            e.post(13, read(13, 2).build().encode());
            e.post(13, read(13, 3).build().encode());
            e.tb.runUntil("the third descriptor's packet", () -> e.packets.size() == 1, 2_000);
            e.tb.run(50);
            e.tb.finish();
            assertThat(e.events).extracting(Ev::type).containsExactly(NicEvent.FETCH_ERROR.code(), NicEvent.FETCH_ERROR.code());
            assertThat(e.events).extracting(Ev::code).containsExactly(org.flitkit.rtl.pcie.Pcie.UR, DescFetch.TIMEOUT);
            assertThat(e.events).extracting(Ev::index).containsExactly(0, 1);
            assertThat(e.packets).extracting(p -> (int) p.bits().get(PacketLayout.BODY1.TRANSACTION_ID)).containsExactly(3);
            // the lost read timed out 200 cycles after it was issued
            long lostIssued = e.host.reads().get(1).cycle();
            assertThat(e.events.get(1).cycle() - lostIssued).isEqualTo(202);
        }
    }

    @Test
    void badDoorbellsFullHardwareQueuesAndStrayWritesAreRefusedAndCounted(RunConfig cfg) {
        try (Env e = new Env(cfg, Throttle.NONE, 4)) {
            e.host.mmioWrite(NicHost.bar(14, NicHost.SDQ_TAIL), 9);                 // 9 ahead of a ring of 8
            e.host.mmioWrite(NicHost.bar(Th2.VP_COUNT - 1, NicHost.SDQ_TAIL) + (1L << 12), 1); // VP 40: no window
            e.host.mmioWrite(NicHost.bar(15, 0x30), 1);                             // no register at 0x30
            e.host.mmioWrite(NicHost.bar(2, NicHost.SDQ_TAIL), 1);                  // a PIO VP has no SDQ
            e.tb.run(30);
            // a PIO VP's queue holds 4 descriptors: park the VP with a fence so it fills; the 5th is refused
            e.post(2, read(2, 20).build().encode());
            e.post(2, read(2, 21).fen(true).build().encode());
            e.tb.runUntil("the first PIO packet", () -> e.packets.size() == 1, 500);
            for (int i = 0; i < 4; i++) {
                e.post(2, read(2, 22 + i).build().encode());
            }
            e.tb.run(100);
            assertThat(e.packets).hasSize(1);
            e.answer(2);
            e.tb.runUntil("the queued PIO packets", () -> e.packets.size() == 5, 1_000);
            e.tb.run(100);
            e.tb.finish();
            assertThat(e.packets).extracting(p -> (int) p.bits().get(PacketLayout.BODY1.TRANSACTION_ID)).containsExactly(20, 21, 22, 23, 24);
            assertThat(e.doorbellErrors.count()).isEqualTo(2);
            assertThat(e.badWrites.count()).isEqualTo(2);
            assertThat(e.hdqOverflows.count()).isEqualTo(1);
        }
    }

    @Test
    void fortyVpsAtOnceUnderBackpressureEveryPacketOnceAndInOrderPerVp(RunConfig cfg) {
        try (Env e = new Env(cfg, Throttle.random(0.3), 4)) {
            org.flitkit.testbench.Rng rng = e.tb.rng("order");
            java.util.Map<Integer, List<Integer>> want = new java.util.HashMap<>();
            int tid = 1;
            for (int round = 0; round < 3; round++) {
                List<Integer> vps = new ArrayList<>();
                for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                    vps.add(vp);
                }
                java.util.Collections.shuffle(vps, new java.util.Random(rng.nextLong()));
                for (int vp : vps) {
                    e.post(vp, read(vp, tid).build().encode());
                    want.computeIfAbsent(vp, k -> new ArrayList<>()).add(tid++);
                }
            }
            e.tb.runUntil("120 packets", () -> e.packets.size() == 120, 20_000);
            e.tb.run(200);
            e.tb.finish();
            java.util.Map<Integer, List<Integer>> got = new java.util.HashMap<>();
            for (Pkt p : e.packets) {
                got.computeIfAbsent((int) p.bits().get(org.flitkit.formats.th2.PacketLayout.HEAD.SRC_VP), k -> new ArrayList<>())
                        .add((int) p.bits().get(PacketLayout.BODY1.TRANSACTION_ID));
            }
            assertThat(got).isEqualTo(want);
            assertThat(e.hdqOverflows.count() + e.doorbellErrors.count()).isZero();
        }
    }
}
