package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.PacketBeat;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.chpp.ChppFormatException;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PacketHeader;
import org.flitkit.formats.chpp.Packets;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.BitVector;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * Test top of the {@link Packer}: transfers given as formats/chpp descriptors (plus the function that rang, the
 * source bytes and an optional error beat) are driven into the packer's four inputs with random idle cycles; the
 * output is taken with random backpressure and every packet is checked against a reference cut of the descriptor
 * (header equal to the formats' {@link PacketHeader}, decoded with every rule; payload byte for byte), every
 * PUT payload is written into a model of the receivers' memory that is compared, at the end, with the memory the
 * descriptors' destination segments say, and every send completion is compared in order.
 */
final class PackerHarness implements AutoCloseable {

    /**
     * A transfer: {@code errorBeat} >= 0 makes that source data beat an error beat with {@code errorStatus};
     * {@code resp} marks a GET answer (a PUT whose packets carry RESP, and whose failure ends with a header-only packet).
     */
    record Xfer(int function, Descriptor d, byte[] src, int errorBeat, CompletionStatus errorStatus, boolean resp) {
        Xfer(int function, Descriptor d, byte[] src) {
            this(function, d, src, -1, null, false);
        }

        Xfer(int function, Descriptor d, byte[] src, int errorBeat, CompletionStatus errorStatus) {
            this(function, d, src, errorBeat, errorStatus, false);
        }

        boolean failed() {
            return errorBeat >= 0;
        }
    }

    record Pkt(PacketHeader header, byte[] payload) {
        @Override
        public String toString() {
            return header + " payload " + payload.length;
        }
    }

    record Ev(int status, int function, int qp, int kind, int cookie, long bytes) {
    }

    final Testbench<Packer> tb;
    final Packer dut;
    final SendEngineParams sp;
    final BeatSource control;
    final BeatSource dst;
    final BeatSource nap;
    final BeatSource data;
    final OutMon out;
    final EvMon events;
    final Probe probe;
    final ArrayDeque<Pkt> expected = new ArrayDeque<>();
    final List<Ev> expectedEvents = new ArrayList<>();
    final Map<Long, Byte> expectedMem = new HashMap<>();
    final Map<Long, Byte> observedMem = new HashMap<>();
    final List<byte[]> expectedNaps = new ArrayList<>();
    final List<byte[]> observedNaps = new ArrayList<>();
    final Rng garbage;
    long expectedPackets;
    int transfers;
    int failures;
    int failedAnswers;

    PackerHarness(RunConfig cfg, SendEngineParams sp, double gapP, double outReady, double eventReady) {
        this.sp = sp;
        tb = Testbench.create(() -> new Packer(sp), cfg);
        dut = tb.dut();
        control = tb.add(new BeatSource("control", dut.control, gapP));
        dst = tb.add(new BeatSource("dst", dut.dst, gapP));
        nap = tb.add(new BeatSource("napData", dut.napData, gapP));
        data = tb.add(new BeatSource("data", dut.data, gapP));
        out = tb.add(new OutMon(outReady));
        events = tb.add(new EvMon(eventReady));
        probe = tb.add(new Probe());
        garbage = tb.rng("garbage");
        tb.reset(1);
    }

    @Override
    public void close() {
        tb.close();
    }

    static int requesterId(SendEngineParams sp, int function) {
        return (sp.requesterBusDevice() & ~7) | (function & 7);
    }

    static List<Descriptor.Segment> destinations(Descriptor d) {
        if (d instanceof Descriptor.Put p) {
            return List.of(new Descriptor.Segment(p.dstAddress(), p.length()));
        }
        if (d instanceof Descriptor.Chain c) {
            return c.destinations();
        }
        return List.of();
    }

    static boolean isNap(Descriptor d) {
        return d.kind().packetType() == PktType.NAP;
    }

    /** The reference cut: every packet the transfer makes if all its data arrives, in order. */
    List<Pkt> cut(Xfer x) {
        return cut(sp, x);
    }

    /** The reference cut with the engine's parameters {@code sp}. */
    static List<Pkt> cut(SendEngineParams sp, Xfer x) {
        Descriptor d = x.d;
        int proc = sp.processor();
        int rid = requesterId(sp, x.function);
        List<Pkt> ps = new ArrayList<>();
        if (isNap(d)) {
            ps.add(new Pkt(Packets.napHeader(d, proc, x.function, rid, Packer.DATA_TC), x.src.clone()));
            return ps;
        }
        EndpointId src = Packets.source(d, proc, x.function);
        long total = d.transferBytes();
        int off = 0;
        for (Descriptor.Segment s : destinations(d)) {
            long a = s.address();
            long left = s.length();
            while (left > 0) {
                int len = (int) Math.min(sp.mtu(), left);
                boolean last = off + len == total;
                ps.add(new Pkt(new PacketHeader(PktType.PUT, Packer.DATA_TC, last && d.common().rce(), last, x.resp, len, rid,
                        d.common().qpMagic(), src, d.common().dst(), a), Arrays.copyOfRange(x.src, off, off + len)));
                a += len;
                left -= len;
                off += len;
            }
        }
        return ps;
    }

    /** Queues the transfer on the inputs and registers its packets, memory, and event. */
    void send(Xfer x) {
        Descriptor d = x.d;
        long total = d.transferBytes();
        if (x.src.length != total) {
            throw new IllegalArgumentException("source bytes " + x.src.length + " for a transfer of " + total);
        }
        // the bytes that arrive before the error beat: the packets wholly inside them are sent
        long good = x.failed() ? 16L * x.errorBeat : total;
        long sentBytes = 0;
        for (Pkt p : cut(x)) {
            long end = sentBytes + p.payload.length;
            if (end > good) {
                break;
            }
            expected.add(p);
            expectedPackets++;
            sentBytes = end;
        }
        if (x.failed() && x.resp) {
            // a failed GET answer ends with its header-only packet where the failed packet would have started
            expected.add(new Pkt(Packets.failedAnswerHeader((Descriptor.Put) d, sp.processor(), x.function,
                    requesterId(sp, x.function), Packer.DATA_TC, sentBytes), new byte[0]));
            expectedPackets++;
            failedAnswers++;
        }
        // the receivers' memory as the descriptor's destination segments place the sent bytes (not the cut above)
        long off = 0;
        for (Descriptor.Segment s : destinations(d)) {
            for (long i = 0; i < s.length() && off < sentBytes; i++, off++) {
                if (expectedMem.put(s.address() + i, x.src[(int) off]) != null) {
                    throw new IllegalArgumentException("overlapping destinations at 0x" + Long.toHexString(s.address() + i));
                }
            }
        }
        if (isNap(d) && !x.failed()) {
            expectedNaps.add(x.src.clone());
        }
        Descriptor.Common c = d.common();
        if (x.failed()) {
            expectedEvents.add(new Ev(x.errorStatus.code(), x.function, c.qp(), d.kind().code(), c.cookie(), sentBytes));
            failures++;
        } else if (c.sce()) {
            expectedEvents.add(new Ev(CompletionStatus.OK.code(), x.function, c.qp(), d.kind().code(), c.cookie(), total));
        }
        transfers++;

        int srcCount = d instanceof Descriptor.Chain ch ? ch.sources().size() : d instanceof Descriptor.NapImmediate || total == 0 ? 0 : 1;
        List<Descriptor.Segment> dsts = destinations(d);
        queueControl(d.kind().code(), x.function, c.qp(), c.sce(), c.rce(), c.dst().encode(), c.qpMagic(), c.cookie(), total, srcCount, dsts.size(),
                x.resp);
        for (int i = 0; i < dsts.size(); i++) {
            queueDst(dsts.get(i).address(), dsts.get(i).length(), i == dsts.size() - 1);
        }
        int beats = (int) ((total + 15) / 16);
        Rng r = garbage;
        for (int b = 0; b < beats; b++) {
            byte[] chunk = Arrays.copyOfRange(x.src, 16 * b, (int) Math.min(total, 16L * b + 16));
            boolean lastBeat = b == beats - 1;
            if (d instanceof Descriptor.NapImmediate) {
                // the extract stage zeroes the bytes past Length
                queueNap(le(chunk, null), lastBeat);
            } else if (b == x.errorBeat) {
                queueData(r.bits(128), r.nextInt(17), true, x.errorStatus.code());
                break;
            } else {
                // bytes past a short last beat's count are garbage: the packer must not send them
                queueData(le(chunk, r), chunk.length, lastBeat, 0);
            }
        }
    }

    /** Little-endian value of {@code bytes} (byte i in bits 8i+7..8i); bytes 16 minus the rest random if {@code r}. */
    static BigInteger le(byte[] bytes, Rng r) {
        BigInteger v = r == null ? BigInteger.ZERO : r.bits(128).shiftRight(8 * bytes.length).shiftLeft(8 * bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            v = v.andNot(BigInteger.valueOf(0xFF).shiftLeft(8 * i)).or(BigInteger.valueOf(bytes[i] & 0xFF).shiftLeft(8 * i));
        }
        return v;
    }

    void queueControl(int kind, int function, int qp, boolean sce, boolean rce, int dstId, int qpMagic, int cookie, long length,
                      int srcCount, int dstCount) {
        queueControl(kind, function, qp, sce, rce, dstId, qpMagic, cookie, length, srcCount, dstCount, false);
    }

    void queueControl(int kind, int function, int qp, boolean sce, boolean rce, int dstId, int qpMagic, int cookie, long length,
                      int srcCount, int dstCount, boolean resp) {
        SendControl c = dut.control.bits;
        control.beat(s -> {
            s.poke(c.kind, kind);
            s.poke(c.function, function);
            s.poke(c.qp, qp);
            s.poke(c.sce, sce);
            s.poke(c.rce, rce);
            s.poke(c.resp, resp);
            s.poke(c.dstId, dstId);
            s.poke(c.qpMagic, qpMagic);
            s.poke(c.cookie, cookie);
            s.poke(c.length, length);
            s.poke(c.srcCount, srcCount);
            s.poke(c.dstCount, dstCount);
        });
    }

    void queueDst(long address, long length, boolean last) {
        SegmentBeat b = dut.dst.bits;
        dst.beat(s -> {
            s.poke(b.address, BigInteger.valueOf(address));
            s.poke(b.length, length);
            s.poke(b.last, last);
        });
    }

    void queueNap(BigInteger v, boolean last) {
        PacketBeat b = dut.napData.bits;
        nap.beat(s -> {
            s.poke(b.data, v);
            s.poke(b.last, last);
        });
    }

    void queueData(BigInteger v, int bytes, boolean last, int status) {
        DataBeat b = dut.data.bits;
        data.beat(s -> {
            s.poke(b.data, v);
            s.poke(b.bytes, bytes);
            s.poke(b.last, last);
            s.poke(b.status, status);
        });
    }

    boolean done() {
        return expected.isEmpty() && events.seen == expectedEvents.size() && control.idle() && dst.idle() && nap.idle() && data.idle();
    }

    /** Runs until every expected packet and event came (at most {@code maxCycles}), then checks the end state. */
    void runAndCheck(long maxCycles) {
        tb.runUntil("every packet and event", this::done, maxCycles);
        // nothing more may come
        tb.run(50);
        tb.finish();
        check();
    }

    void check() {
        Simulator s = tb.sim();
        if (!expectedMem.equals(observedMem)) {
            throw new AssertionError("receiver memory differs: " + expectedMem.size() + " bytes expected, " + observedMem.size() + " written");
        }
        if (expectedNaps.size() != observedNaps.size()) {
            throw new AssertionError(expectedNaps.size() + " NAP messages expected, " + observedNaps.size() + " sent");
        }
        for (int i = 0; i < expectedNaps.size(); i++) {
            if (!Arrays.equals(expectedNaps.get(i), observedNaps.get(i))) {
                throw new AssertionError("NAP message " + i + " differs");
            }
        }
        check("packets", expectedPackets, s.peek(dut.packets));
        check("transfers", transfers, s.peek(dut.transfers));
        check("errors", failures, s.peek(dut.errors));
        check("failed GET answers", failedAnswers, s.peek(dut.failedAnswers));
        check("buffered beats at the end", 0, s.peek(dut.bufferedBeats));
    }

    static void check(String what, long expected, long observed) {
        if (expected != observed) {
            throw new AssertionError(what + ": expected " + expected + ", observed " + observed);
        }
    }

    /** Takes the packets with random backpressure and checks each against the next expected one. */
    final class OutMon extends BeatMonitor {
        long packets;
        final List<PacketHeader> headers = new ArrayList<>();

        OutMon(double readyP) {
            super("out", dut.out, readyP, null);
        }

        @Override
        protected void packet(List<BigInteger> p) {
            PacketHeader h;
            try {
                h = PacketHeader.decode(BitVector.of(PacketBeat.DATA_BITS, p.get(0)));
            } catch (ChppFormatException e) {
                throw fail("packet " + packets + ": header refused by the formats: " + e.getMessage());
            }
            int len = h.length();
            checkEqual("packet " + packets + " beats for Length " + len, 1 + (len + 15) / 16, p.size());
            byte[] payload = new byte[len];
            for (int i = 0; i < 16 * (p.size() - 1); i++) {
                int b = p.get(1 + i / 16).shiftRight(120 - 8 * (i % 16)).intValue() & 0xFF;
                if (i < len) {
                    payload[i] = (byte) b;
                } else if (b != 0) {
                    throw fail("packet " + packets + ": padding byte " + i + " is 0x" + Integer.toHexString(b));
                }
            }
            Pkt e = expected.poll();
            if (e == null) {
                throw fail("unexpected packet " + h);
            }
            checkEqual("packet " + packets + " header", e.header, h);
            if (!Arrays.equals(e.payload, payload)) {
                throw fail("packet " + packets + " payload differs (" + h + ")");
            }
            headers.add(h);
            if (h.type() == PktType.PUT) {
                for (int i = 0; i < len; i++) {
                    if (observedMem.put(h.address() + i, payload[i]) != null) {
                        throw fail("packet " + packets + " writes 0x" + Long.toHexString(h.address() + i) + " a second time");
                    }
                }
            } else {
                observedNaps.add(payload);
            }
            packets++;
        }
    }

    /** Takes the send completions with random backpressure and checks them in order. */
    final class EvMon extends Component {
        final double readyP;
        boolean ready;
        int seen;

        EvMon(double readyP) {
            super("event");
            this.readyP = readyP;
        }

        @Override
        protected void drive() {
            ready = rng().chance(readyP);
            sim().poke(dut.event.ready, ready);
        }

        @Override
        protected void sample() {
            if (ready && sim().peekBool(dut.event.valid)) {
                SendCompletionEvent b = dut.event.bits;
                Simulator s = sim();
                Ev got = new Ev((int) s.peek(b.status), (int) s.peek(b.function), (int) s.peek(b.qp), (int) s.peek(b.kind),
                        (int) s.peek(b.cookie), s.peek(b.bytes));
                if (seen >= expectedEvents.size()) {
                    throw fail("unexpected event " + got);
                }
                checkEqual("event " + seen, expectedEvents.get(seen), got);
                seen++;
            }
        }
    }

    /** Records the cycles in which control words are taken and packet headers leave, and the output's busy cycles. */
    final class Probe extends Component {
        final List<Long> controlAt = new ArrayList<>();
        final List<Long> headerAt = new ArrayList<>();
        long outBeats;
        long firstOut = -1;
        long lastOut = -1;
        private boolean inPacket;

        Probe() {
            super("probe");
        }

        @Override
        protected void sample() {
            Simulator s = sim();
            if (s.peekBool(dut.control.valid) && s.peekBool(dut.control.ready)) {
                controlAt.add(cycle());
            }
            if (s.peekBool(dut.out.valid) && s.peekBool(dut.out.ready)) {
                if (!inPacket) {
                    headerAt.add(cycle());
                }
                inPacket = !s.peekBool(dut.out.bits.last);
                outBeats++;
                if (firstOut < 0) {
                    firstOut = cycle();
                }
                lastOut = cycle();
            }
        }
    }
}
