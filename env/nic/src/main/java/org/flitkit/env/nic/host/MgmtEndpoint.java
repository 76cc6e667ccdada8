package org.flitkit.env.nic.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.DescError;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.HostMemory;

/**
 * A management endpoint bound to one VP (the analogue of a GLEX endpoint): {@link #send} writes a 512-bit
 * descriptor into the VP's SDQ (or the PIO VP's hardware queue) and rings the doorbell
 * ({@code glex_send_mgmt_req}); {@link #receive} polls the MPQ and EQ in host memory until the answer with
 * that TransactionID is there or the timeout passes ({@code glex_receive_mgmt_ack(ep, timeout)}). Fault
 * reports addressed to the VP are collected. docs/th2-nic.md, "Host software API".
 */
public final class MgmtEndpoint {
    /** One EQ event as host software reads it. */
    public record Event(NicEvent type, int vp, int code, int tid, int index, long timestamp, long seenAt) {
    }

    /** A packet taken from the MPQ: the cycle it was seen, its index. */
    public record Arrival(ManagementPacket packet, BitVector bits, long cycle, int index) {
    }

    /** Bytes holding the phase bit (its bit 0) of an MPQ entry and of an EQ event. */
    private static final int PHASE_BYTE_MPQ = NicHost.MPQ_ENTRY.PHASE.lsb() / 8;
    private static final int PHASE_BYTE_EQ = NicHost.EVENT.PHASE.lsb() / 8;

    private final NicDriver driver;
    public final int vp;
    private final int log2;
    private final long sdq;
    private final long mpq;
    private final long eq;
    private int sdqTail;
    private int mpqHead;
    private int eqHead;
    private final Map<Integer, Long> doorbell = new HashMap<>();
    private final Map<Integer, MgmtResult> done = new HashMap<>();
    private final List<Arrival> reports = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private final List<Consumer<Arrival>> reportListeners = new ArrayList<>();
    private final List<Consumer<Arrival>> packetListeners = new ArrayList<>();
    private long lateAnswers;

    MgmtEndpoint(NicDriver driver, int vp, int log2, long sdq, long mpq, long eq) {
        this.driver = driver;
        this.vp = vp;
        this.log2 = log2;
        this.sdq = sdq;
        this.mpq = mpq;
        this.eq = eq;
    }

    /** Sends {@code r} (glex_send_mgmt_req): returns its TransactionID; the call takes the software send time. */
    public int send(MgmtRequest r) {
        int tid = driver.tid();
        sendRaw(tid, r.descriptor(tid, vp).encode());
        return tid;
    }

    /**
     * Posts raw descriptor bits under {@code tid} (tests of malformed descriptors: the NIC must refuse them
     * with a DESC_ERROR event instead of sending a packet).
     */
    public void sendRaw(int tid, BitVector descriptor) {
        if (descriptor.width() != Th2.DESCRIPTOR_BITS) {
            throw new IllegalArgumentException("a descriptor is " + Th2.DESCRIPTOR_BITS + " bits, got " + descriptor.width());
        }
        if (done.containsKey(tid) || doorbell.containsKey(tid)) {
            throw new IllegalStateException("TransactionID " + tid + " is still in use on VP " + vp);
        }
        byte[] bytes = descriptor.toBytesLE();
        int overhead = driver.software().sendOverheadCycles();
        if (overhead > 0) {
            driver.tb().run(overhead);
        }
        if (NicHost.isPio(vp)) {
            for (int q = 0; q < NicHost.DESCRIPTOR_QWORDS; q++) {
                long v = 0;
                for (int b = 7; b >= 0; b--) {
                    v = v << 8 | (bytes[8 * q + b] & 0xFF);
                }
                driver.host().mmioWrite(NicHost.bar(vp, NicHost.HDQ_WORD0 + 8 * q), v);
            }
        } else {
            int slot = sdqTail & ((1 << log2) - 1);
            driver.host().memory().write(sdq + (long) slot * NicHost.SDQ_ENTRY_BYTES, bytes);
            sdqTail = (sdqTail + 1) & 0xFFFF;
            driver.host().mmioWrite(NicHost.bar(vp, NicHost.SDQ_TAIL), sdqTail);
        }
        doorbell.put(tid, driver.tb().cycle());
    }

    /** Cycle of {@code tid}'s doorbell write. */
    public long doorbellCycle(int tid) {
        Long c = doorbell.get(tid);
        if (c == null) {
            throw new IllegalArgumentException("no request with TransactionID " + tid + " on VP " + vp);
        }
        return c;
    }

    /**
     * Waits for {@code tid}'s answer (glex_receive_mgmt_ack): polls once per cycle for at most {@code timeout}
     * cycles; the call takes the software receive time after the answer is seen.
     */
    public MgmtResult receive(int tid, long timeout) {
        if (!doorbell.containsKey(tid) && !done.containsKey(tid)) {
            throw new IllegalArgumentException("no request with TransactionID " + tid + " on VP " + vp);
        }
        long start = driver.tb().cycle();
        poll();
        while (!done.containsKey(tid) && driver.tb().cycle() - start < timeout) {
            driver.tb().run(1);
            driver.poll();
        }
        MgmtResult r = take(tid).orElse(null);
        if (r == null) {
            abandon(tid);
            return new MgmtResult.Timeout(tid, driver.tb().cycle() - start);
        }
        int overhead = driver.software().receiveOverheadCycles();
        if (overhead > 0) {
            driver.tb().run(overhead);
        }
        return r;
    }

    /** The answer of {@code tid} if it is already in, without waiting. */
    public Optional<MgmtResult> tryReceive(int tid) {
        poll();
        return take(tid);
    }

    /**
     * The answer of {@code tid} if one was read from the MPQ or EQ, without polling: the TransactionID is free
     * again once it is taken. For software that watches {@link #onPacket} and takes each answer as it sees it.
     */
    public Optional<MgmtResult> take(int tid) {
        MgmtResult r = done.remove(tid);
        if (r != null) {
            doorbell.remove(tid);
        }
        return Optional.ofNullable(r);
    }

    /**
     * Stops waiting for {@code tid} (what {@link #receive} does when its timeout passes): the endpoint holds
     * nothing for it any more, its TransactionID is free, and an answer that still arrives is dropped and
     * counted in {@link #lateAnswers}. The NIC holds nothing for it either (docs/th2-nic.md, "Requests
     * without an answer").
     */
    public void abandon(int tid) {
        doorbell.remove(tid);
        done.remove(tid);
    }

    /** Answers (or refusals) that arrived for no request waited for: after their request was abandoned, or unknown. */
    public long lateAnswers() {
        return lateAnswers;
    }

    /** Fault reports addressed to this VP, in arrival order. */
    public List<Arrival> reports() {
        return reports;
    }

    public void onReport(Consumer<Arrival> l) {
        reportListeners.add(l);
    }

    /** Calls {@code l} with every packet taken from the MPQ (answers and reports), in order. */
    public void onPacket(Consumer<Arrival> l) {
        packetListeners.add(l);
    }

    /** Every EQ event read so far. */
    public List<Event> events() {
        return events;
    }

    /** Requests sent and not yet answered. */
    public int outstanding() {
        return doorbell.size() - done.size();
    }

    /** Reads every new MPQ entry and EQ event (what receive does each cycle). */
    public void poll() {
        HostMemory mem = driver.host().memory();
        long now = driver.tb().cycle();
        int mask = (1 << log2) - 1;
        boolean movedMpq = false;
        while (true) {
            long at = mpq + (long) (mpqHead & mask) * NicHost.MPQ_ENTRY_BYTES;
            // the phase byte lands last: read it alone each poll, the entry only when it is new
            if ((mem.read(at + PHASE_BYTE_MPQ, 1)[0] & 1) != NicHost.phase(mpqHead, log2)) {
                break;
            }
            BitVector bits = BitVector.fromBytesLE(8 * NicHost.MPQ_ENTRY_BYTES, mem.read(at, NicHost.MPQ_ENTRY_BYTES));
            arrived(new Arrival(null, bits.slice(NicHost.MPQ_ENTRY.PACKET), now, mpqHead));
            mpqHead = (mpqHead + 1) & 0xFFFF;
            movedMpq = true;
        }
        if (movedMpq) {
            driver.host().mmioWrite(NicHost.bar(vp, NicHost.MPQ_HEAD), mpqHead);
        }
        boolean movedEq = false;
        while (true) {
            long at = eq + (long) (eqHead & mask) * NicHost.EQ_ENTRY_BYTES;
            if ((mem.read(at + PHASE_BYTE_EQ, 1)[0] & 1) != NicHost.phase(eqHead, log2)) {
                break;
            }
            event(BitVector.fromBytesLE(8 * NicHost.EQ_ENTRY_BYTES, mem.read(at, NicHost.EQ_ENTRY_BYTES)), now);
            eqHead = (eqHead + 1) & 0xFFFF;
            movedEq = true;
        }
        if (movedEq) {
            driver.host().mmioWrite(NicHost.bar(vp, NicHost.EQ_HEAD), eqHead);
        }
    }

    private void arrived(Arrival raw) {
        ManagementPacket p;
        try {
            p = ManagementPacket.parse(raw.bits());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("VP " + vp + " MPQ entry " + raw.index() + " holds no valid packet: " + e.getMessage(), e);
        }
        Arrival a = new Arrival(p, raw.bits(), raw.cycle(), raw.index());
        if (p.nmpType() == NmpType.FAULT_REPORT) {
            packetListeners.forEach(l -> l.accept(a));
            reports.add(a);
            reportListeners.forEach(l -> l.accept(a));
            return;
        }
        int tid = p.transactionId();
        Long t0 = doorbell.get(tid);
        if (t0 == null) {
            lateAnswers++;
        } else if (p.nmpType().isError()) {
            ErrorPayload ep = (ErrorPayload) p.payload();
            done.put(tid, new MgmtResult.Error(tid, p, ep.error(), ep.index(), raw.cycle() - t0));
        } else {
            done.put(tid, new MgmtResult.Ok(tid, p, raw.cycle() - t0));
        }
        // after the answer is stored, so a listener may take it
        packetListeners.forEach(l -> l.accept(a));
    }

    private void event(BitVector ev, long now) {
        NicEvent type = NicEvent.of(ev.get(NicHost.EVENT.TYPE))
                .orElseThrow(() -> new IllegalStateException("VP " + vp + " EQ holds an unknown event type " + ev.get(NicHost.EVENT.TYPE)));
        Event e = new Event(type, (int) ev.get(NicHost.EVENT.VP), (int) ev.get(NicHost.EVENT.CODE),
                (int) ev.get(NicHost.EVENT.TRANSACTION_ID), (int) ev.get(NicHost.EVENT.INDEX), ev.get(NicHost.EVENT.TIMESTAMP), now);
        events.add(e);
        switch (type) {
            case DESC_ERROR -> {
                if (doorbell.containsKey(e.tid())) {
                    done.put(e.tid(), new MgmtResult.Refused(e.tid(), DescError.of(e.code()).orElse(null)));
                } else {
                    lateAnswers++;
                }
            }
            case MPQ_OVERFLOW -> {
                if (doorbell.containsKey(e.tid())) {
                    done.put(e.tid(), new MgmtResult.Dropped(e.tid()));
                }
            }
            default -> {
            }
        }
    }
}
