package org.flitkit.env.chpp;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.DoorbellWrite;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.rtl.chpp.upload.BufferListRegs;
import org.flitkit.rtl.chpp.ChppRegisters;
import org.flitkit.rtl.chpp.receive.CompletionRingParams;

/**
 * Host software's view of one cHPP DMA engine (paper section 3.4: queue pairs, descriptors in host memory,
 * doorbells, completion rings): opens queue pairs, writes descriptors and rings their doorbells, polls the send
 * and receive completion rings. Every testbench drives the engine through it; docs/chpp-nic.md, "Driver".
 */
public final class ChppDriver {
    /** Host memory the driver keeps for itself; data buffers are the caller's, below this. */
    public static final long RINGS = 0x7000_0000L;
    /** Descriptor slots: {@link #DESCRIPTOR_SLOTS} of 4096 bytes per local QP, reused round robin. */
    public static final long DESCRIPTORS = 0x7100_0000L;
    public static final int DESCRIPTOR_SLOTS = 64;

    /** The NAP receive-buffer list (8-byte entries) and, after it, the buffers themselves. */
    public static final long BUFFER_LIST = 0x7800_0000L;

    private final PcieHost host;
    private int bufferListSize;
    private long buffersPosted;
    private final int processor;
    private final CompletionRingParams rings;
    private final Qp[] qps = new Qp[Chpp.FUNCTIONS * Chpp.QPS];

    /** The driver of the engine of {@code processor} behind {@code host}; {@code rings} sizes every ring. */
    public ChppDriver(PcieHost host, int processor, CompletionRingParams rings) {
        if (processor < 0 || processor >= Chpp.PROCESSORS) {
            throw new IllegalArgumentException("processor " + processor + " outside 0.." + (Chpp.PROCESSORS - 1));
        }
        this.host = host;
        this.processor = processor;
        this.rings = rings;
    }

    public HostMemory memory() {
        return host.memory();
    }

    public int processor() {
        return processor;
    }

    /**
     * Opens local QP {@code qp} of {@code function}: its key (packets for it must carry {@code key}) and both
     * completion rings (BAR writes, seen by the engine after the host's BAR latency).
     */
    public Qp open(int function, int qp, int key) {
        EndpointId id = new EndpointId(processor, function, qp);
        int r = index(function, qp);
        if (qps[r] != null) {
            throw new IllegalStateException("QP " + id + " is already open");
        }
        if (key < 0 || key > 0xFFFF) {
            throw new IllegalArgumentException("QPMagic key 0x" + Integer.toHexString(key) + " is not 16 bits");
        }
        Qp q = new Qp(id, key, r);
        qps[r] = q;
        host.mmioWrite(ChppRegisters.sendRing(r) + CompletionRingParams.REG_BASE, q.sendRing);
        host.mmioWrite(ChppRegisters.receiveRing(r) + CompletionRingParams.REG_BASE, q.receiveRing);
        host.mmioWrite(ChppRegisters.qpKey(r), key | (1L << 16));
        return q;
    }

    /**
     * Gives buffer management a list of {@code listSize} entries (a power of two) at {@link #BUFFER_LIST} and posts
     * {@code count} free 2 KB receive buffers from {@code buffers} on (NAPs land there).
     */
    public void openReceiveBuffers(int listSize, long buffers, int count) {
        bufferListSize = listSize;
        buffersPosted = 0;
        host.mmioWrite(ChppRegisters.BUFFERS + BufferListRegs.REG_SIZE, listSize);
        host.mmioWrite(ChppRegisters.BUFFERS + BufferListRegs.REG_BASE, BUFFER_LIST);
        List<Long> l = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            l.add(buffers + (long) i * BufferListRegs.BUFFER_BYTES);
        }
        postReceiveBuffers(l);
    }

    /** Posts free receive buffers (2 KB aligned) to the list; the list must have room (software's flow control). */
    public void postReceiveBuffers(List<Long> addresses) {
        for (long a : addresses) {
            host.memory().writeLe(BUFFER_LIST + (buffersPosted % bufferListSize) * BufferListRegs.ENTRY_BYTES, a,
                    BufferListRegs.ENTRY_BYTES);
            buffersPosted++;
        }
        host.mmioWrite(ChppRegisters.BUFFERS + BufferListRegs.REG_PRODUCER, buffersPosted & 0xFFFF_FFFFL);
    }

    /** A GET a QP posted whose end the requester has not seen yet: its cookie and its local destination range. */
    public record PendingGet(int cookie, long dst, long length) {
        /** {@code address} lies in [dst, dst + length). */
        public boolean holds(long address) {
            return address >= dst && address - dst < length;
        }
    }

    /**
     * How a GET ended at the requester (docs/chpp-nic.md, decision "driver's GET end"): OK with all its bytes, or
     * GET_FAILED (the target could not read its data; QP_MAGIC_REFUSED if our own key refused the answer's last
     * packet) after {@code bytesArrived} bytes, the whole packets that arrived before the failure, at the start of its
     * destination.
     */
    public record GetEnd(PendingGet get, CompletionStatus status, long bytesArrived) {
        public boolean ok() {
            return status == CompletionStatus.OK;
        }
    }

    private static int index(int function, int qp) {
        if (function < 0 || function >= Chpp.FUNCTIONS || qp < 0 || qp >= Chpp.QPS) {
            throw new IllegalArgumentException("function " + function + " QP " + qp + ": functions 0.." + (Chpp.FUNCTIONS - 1)
                    + ", QPs 0.." + (Chpp.QPS - 1));
        }
        return function * Chpp.QPS + qp;
    }

    /** One queue pair: a send queue (descriptors + doorbells), its send ring and its receive ring. */
    public final class Qp {
        private final EndpointId id;
        private final int key;
        private final int index;
        final long sendRing;
        final long receiveRing;
        private final long descriptors;
        private int nextSlot;
        /** Cookies run 1..65535: 0 is what a completion carries when the descriptor itself could not be read. */
        private int cookie = 1;
        private long sendConsumed;
        private long receiveConsumed;
        /** GETs posted and not yet ended, in posting order. */
        private final List<PendingGet> gets = new ArrayList<>();

        private Qp(EndpointId id, int key, int index) {
            this.id = id;
            this.key = key;
            this.index = index;
            long ringBytes = (long) rings.entries() * Chpp.COMPLETION_BYTES;
            this.sendRing = RINGS + 2L * index * ringBytes;
            this.receiveRing = sendRing + ringBytes;
            this.descriptors = DESCRIPTORS + (long) index * DESCRIPTOR_SLOTS * Chpp.MAX_DESCRIPTOR_BYTES;
        }

        public EndpointId id() {
            return id;
        }

        public int key() {
            return key;
        }

        /** The next cookie this QP's posts will use (posts number their requests 1, 2, ..., 65535, 1, ...). */
        public int nextCookie() {
            return cookie;
        }

        /** Common word of a descriptor from this QP to {@code dst} under {@code dstKey}, with the next cookie. */
        public Descriptor.Common common(EndpointId dst, int dstKey, boolean sce, boolean rce) {
            return new Descriptor.Common(id.qp(), sce, rce, dst, dstKey, cookie);
        }

        /** NAP with its data in the descriptor. */
        public int napImmediate(EndpointId dst, int dstKey, byte[] data, boolean sce) {
            return post(new Descriptor.NapImmediate(common(dst, dstKey, sce, true), data));
        }

        /** NAP whose data the engine reads from {@code src}. */
        public int napIndirect(EndpointId dst, int dstKey, long src, int length, boolean sce) {
            return post(new Descriptor.NapIndirect(common(dst, dstKey, sce, true), length, src));
        }

        /** PUT: {@code length} bytes from local {@code src} to the receiver's {@code dstAddr}. */
        public int put(EndpointId dst, int dstKey, long src, long dstAddr, long length, boolean sce, boolean rce) {
            return post(new Descriptor.Put(common(dst, dstKey, sce, rce), length, src, dstAddr));
        }

        /** GET: the remote engine PUTs {@code length} bytes from its {@code remoteSrc} to our {@code localDst}. */
        public int get(EndpointId dst, int dstKey, long remoteSrc, long localDst, long length, boolean sce, boolean rce) {
            return post(new Descriptor.Get(common(dst, dstKey, sce, rce), length, remoteSrc, localDst));
        }

        /** Chain DMA: source and destination lists whose totals match. */
        public int chain(EndpointId dst, int dstKey, List<Descriptor.Segment> sources, List<Descriptor.Segment> destinations,
                boolean sce, boolean rce) {
            return post(new Descriptor.Chain(common(dst, dstKey, sce, rce), sources, destinations));
        }

        /**
         * Writes {@code d} into this QP's next descriptor slot and rings the doorbell; returns the cookie it
         * carries. The descriptor's QP must be this QP's (the engine refuses others); its cookie is the caller's.
         */
        public int post(Descriptor d) {
            byte[] bytes = d.encode();
            long addr = descriptors + (long) nextSlot * Chpp.MAX_DESCRIPTOR_BYTES;
            nextSlot = (nextSlot + 1) % DESCRIPTOR_SLOTS;
            host.memory().write(addr, bytes);
            DoorbellWrite w = new DoorbellWrite(id.qp(), addr, bytes.length);
            host.mmioWrite(ChppRegisters.doorbell(id.function(), id.qp()), w.data());
            int c = d.common().cookie();
            if (d instanceof Descriptor.Get g) {
                gets.add(new PendingGet(c, g.dstAddress(), g.length()));
            }
            if (c == cookie) {
                cookie = cookie == 0xFFFF ? 1 : cookie + 1;
            }
            return c;
        }

        /** Rings a doorbell for raw descriptor bytes (malformed descriptors in tests); returns the slot address. */
        public long postRaw(byte[] bytes, int doorbellLength) {
            long addr = descriptors + (long) nextSlot * Chpp.MAX_DESCRIPTOR_BYTES;
            nextSlot = (nextSlot + 1) % DESCRIPTOR_SLOTS;
            host.memory().write(addr, bytes);
            host.mmioWrite(ChppRegisters.doorbell(id.function(), id.qp()),
                    ((long) (doorbellLength / Chpp.WORD_BYTES) << 52) | addr);
            return addr;
        }

        /**
         * Send completions posted since the last poll (in ring order); returns their slots to the engine. A GET whose
         * send completion is a failure never left: it is no longer pending.
         */
        public List<SendCompletion> pollSend() {
            List<SendCompletion> out = new ArrayList<>();
            sendConsumed = poll(sendRing, sendConsumed, ChppRegisters.sendRing(index), b -> out.add(SendCompletion.decode(b)));
            for (SendCompletion c : out) {
                if (c.kind() == DescKind.GET && c.status() != CompletionStatus.OK) {
                    gets.removeIf(g -> g.cookie() == c.cookie());
                }
            }
            return out;
        }

        /** GETs posted on this QP whose end has not been seen (by {@link #getEnded}), oldest first. */
        public List<PendingGet> pendingGets() {
            return List.copyOf(gets);
        }

        /**
         * The end of one of this QP's GETs, if {@code rc} (from {@link #pollReceive}) is one: a PUT completion with
         * Resp whose Address lies in the destination range of a pending GET. OK ends it when the answer's last packet
         * ends at the range's end; any other status (GET_FAILED) ends it with the bytes before Address. Returns null
         * for every other completion; a Resp completion that matches no pending GET, or an OK one that does not end
         * its GET, is refused (IllegalStateException): the engine would have broken the format's promise.
         */
        public GetEnd getEnded(ReceiveCompletion rc) {
            if (rc.type() != PktType.PUT || !rc.resp()) {
                return null;
            }
            PendingGet g = gets.stream().filter(x -> x.holds(rc.address())).findFirst().orElseThrow(() -> new IllegalStateException(
                    "QP " + id + ": Resp receive completion " + rc + " at 0x" + Long.toHexString(rc.address())
                            + " is in no pending GET's destination " + gets));
            if (rc.status() == CompletionStatus.OK && rc.address() + rc.length() != g.dst() + g.length()) {
                throw new IllegalStateException("QP " + id + ": OK Resp completion " + rc + " ends at 0x"
                        + Long.toHexString(rc.address() + rc.length()) + ", its GET " + g + " at 0x" + Long.toHexString(g.dst() + g.length()));
            }
            gets.remove(g);
            return new GetEnd(g, rc.status(), rc.status() == CompletionStatus.OK ? g.length() : rc.address() - g.dst());
        }

        /** Receive completions posted since the last poll (NAP, PUT with CE, refusals). */
        public List<ReceiveCompletion> pollReceive() {
            List<ReceiveCompletion> out = new ArrayList<>();
            receiveConsumed = poll(receiveRing, receiveConsumed, ChppRegisters.receiveRing(index),
                    b -> out.add(ReceiveCompletion.decode(b)));
            return out;
        }
    }

    /**
     * Reads entries from {@code consumed} on while their Phase is the lap's (1 on even laps), hands them to
     * {@code sink}, and returns the new consumer index to the engine (one BAR write if anything was read).
     */
    private long poll(long base, long consumed, int regs, java.util.function.Consumer<byte[]> sink) {
        int n = rings.entries();
        long c = consumed;
        while (true) {
            long slot = c % n;
            boolean phase = ((c / n) & 1) == 0;
            byte[] e = host.memory().read(base + slot * Chpp.COMPLETION_BYTES, Chpp.COMPLETION_BYTES);
            boolean p = (e[Chpp.COMPLETION_BYTES - 1] & 0x80) != 0;
            if (p != phase) {
                break;
            }
            sink.accept(e);
            c++;
        }
        if (c != consumed) {
            host.mmioWrite(regs + CompletionRingParams.REG_CONSUMER, c % (2L * n));
        }
        return c;
    }
}
