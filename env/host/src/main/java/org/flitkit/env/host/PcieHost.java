package org.flitkit.env.host;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.stream.Throttle;

/**
 * The host end of a device's PCIe-like interface (docs/host-pcie.md), as a testbench component on the top
 * module's ports: takes {@link DmaRequest} beats from {@code dmaRq} (with optional backpressure), hands
 * reassembled writes to {@link HostDma} as posted writes and reads to it as tagged reads, drives the
 * completions on {@code dmaCpl} as beats of the bundles' width (16, 32 or 64 bytes), injects read errors (UR, CA, a lost completion), delivers
 * host BAR writes on {@code mmio} after the posted-write latency, and records the device's interrupts.
 *
 * <p>Timing: a read request taken at cycle c has its first completion beat on {@code dmaCpl} at
 * c + {@link DmaParams#readRoundTripCycles()} (later only if completions queue up); a write whose last beat is
 * taken at c is visible in host memory from c + {@link DmaParams#writeLatencyCycles()}; {@link #mmioWrite}
 * called at cycle c is offered to the device at c + {@link PcieParams#mmioLatencyCycles()}. With a
 * {@link PcieParams#link()} the link is the bottleneck: request beats are taken only as fast as the device-to-host
 * direction carries them, completion beats offered as the host-to-device direction delivers them, each TLP paying
 * its header and processing cycles (docs/host-pcie.md, "Link model").
 */
public final class PcieHost extends Component {
    /** How the host answers a read. */
    public enum ReadOutcome {
        /** Successful completions with the data. */
        OK,
        /** One completion with status Unsupported Request, no data, ending the read. */
        UR,
        /** One completion with status Completer Abort, no data, ending the read. */
        CA,
        /** No completion ever arrives (the device's completion timeout must notice). */
        LOST
    }

    /** Decides, per read request, whether it fails; {@code rng} is the host's seeded stream. */
    @FunctionalInterface
    public interface ReadFaults {
        ReadOutcome decide(long addr, int len, Rng rng);

        /** Every read that overlaps [{@code from}, {@code to}) gets {@code outcome}. */
        static ReadFaults inRange(long from, long to, ReadOutcome outcome) {
            return (addr, len, rng) -> addr < to && addr + len > from ? outcome : ReadOutcome.OK;
        }

        /** Each read independently gets {@code outcome} with probability {@code p} (seeded). */
        static ReadFaults fraction(double p, ReadOutcome outcome) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("read fault fraction must be in [0, 1], got " + p);
            }
            return (addr, len, rng) -> rng.chance(p) ? outcome : ReadOutcome.OK;
        }
    }

    /** A DMA write the device finished (its last beat taken at {@code cycle}). */
    public record Write(long cycle, long addr, byte[] data) {
    }

    /** A DMA read request taken at {@code cycle} and what the host did with it. */
    public record Read(long cycle, int tag, long addr, int len, ReadOutcome outcome) {
    }

    /** An interrupt message seen at {@code cycle}: {@code vp} = bits 5:0, {@code cause} = bits 7:6 (NicHost.IRQ_*). */
    public record Interrupt(long cycle, int vp, int cause) {
    }

    /** A completion beat waiting for the device, offered from cycle {@code at}. */
    private record Beat(long at, int tag, BigInteger data, int bytes, int status, boolean last) {
    }

    /**
     * A completion TLP waiting for the host-to-device link (link model only): data of a successful completion
     * ({@code status} SC) or none (an error completion); {@code last} ends the read.
     */
    private record Tlp(int tag, byte[] data, int status, boolean last) {
    }

    private record DueError(long due, int tag, int status) {
    }

    private record Mmio(long due, long addr, long value) {
    }

    private final PcieParams params;
    private final HostMemory memory;
    private final HostDma dma;
    private Decoupled<DmaRequest> rq;
    private Decoupled<DmaCompletion> cpl;
    private Decoupled<MmioWrite> mmio;
    private Valid<UInt> irq;
    private Throttle backpressure = Throttle.NONE;
    private ReadFaults faults = (addr, len, rng) -> ReadOutcome.OK;

    private final ArrayDeque<Beat> beats = new ArrayDeque<>();
    private final ArrayDeque<DueError> errors = new ArrayDeque<>();
    /** Completion TLPs ready at the host, not yet on the link, in the order the host produced them (link model). */
    private final List<Tlp> pending = new ArrayList<>();
    private final ArrayDeque<Mmio> mmios = new ArrayDeque<>();
    private final Set<Integer> busyTags = new HashSet<>();
    private final List<Write> writes = new ArrayList<>();
    private final List<Read> reads = new ArrayList<>();
    private final List<Interrupt> interrupts = new ArrayList<>();
    private final List<Long> mmioDelivered = new ArrayList<>();
    private final List<Consumer<Write>> writeListeners = new ArrayList<>();
    private final List<Consumer<Interrupt>> irqListeners = new ArrayList<>();

    /** The write being reassembled: its first beat's fields and the bytes so far. */
    private byte[] partial;
    private long partialAddr;
    private int partialLen;
    private int partialBeats;
    private int beatBytes = Pcie.BEAT_BYTES;
    /** Link model: first cycle the device-to-host direction can take a request beat. */
    private long upFreeAt;
    /** Link model: first cycle the host-to-device direction is free for the next completion TLP's header. */
    private long downFreeAt;
    /** Link model, interleaved completions: the tag of the last completion TLP put on the link. */
    private int lastTag = -1;
    private boolean rqReady;
    private boolean cplValid;
    private boolean mmioValid;

    public PcieHost(String name, HostMemory memory, PcieParams params) {
        super(name);
        this.params = params;
        this.memory = memory;
        this.dma = new HostDma(memory, params.dma());
    }

    /**
     * The device's DMA request output and (for a device that reads, else {@code null}) its completion input. The
     * beat width (16, 32 or 64 bytes) is the bundles': both must have the same.
     */
    public PcieHost dma(Decoupled<DmaRequest> requests, Decoupled<DmaCompletion> completions) {
        if (requests == null) {
            throw new IllegalArgumentException(name() + ": the DMA request port is required");
        }
        int b = requests.bits.beatBytes();
        if (completions != null && completions.bits.beatBytes() != b) {
            throw new IllegalArgumentException(name() + ": DMA requests have " + b + "-byte beats but completions "
                    + completions.bits.beatBytes() + "-byte beats; the host needs one beat width");
        }
        this.rq = requests;
        this.cpl = completions;
        this.beatBytes = b;
        return this;
    }

    /** Bytes per data beat, from the bundles given to {@link #dma} (64 until then). */
    public int beatBytes() {
        return beatBytes;
    }

    /** The device's BAR write input. */
    public PcieHost mmio(Decoupled<MmioWrite> port) {
        this.mmio = port;
        return this;
    }

    /** The device's interrupt output: {@code valid} with vp in bits 5:0 and the cause in bits 7:6. */
    public PcieHost irq(Valid<UInt> port) {
        if (port.bits.width() != 8) {
            throw new IllegalArgumentException("interrupt message must be 8 bits (vp 5:0, cause 7:6), " + port.bits.path() + " is "
                    + port.bits.width());
        }
        this.irq = port;
        return this;
    }

    /** Random backpressure on {@code dmaRq}: ready only in the cycles the throttle allows. */
    public PcieHost backpressure(Throttle t) {
        this.backpressure = t;
        return this;
    }

    /** Read error injection. */
    public PcieHost readFaults(ReadFaults f) {
        this.faults = f;
        return this;
    }

    public PcieHost onWrite(Consumer<Write> l) {
        writeListeners.add(l);
        return this;
    }

    public PcieHost onInterrupt(Consumer<Interrupt> l) {
        irqListeners.add(l);
        return this;
    }

    public HostMemory memory() {
        return memory;
    }

    public PcieParams params() {
        return params;
    }

    /** Host software writes {@code value} to BAR address {@code addr}: the device sees it after the BAR write latency, in order. */
    public void mmioWrite(long addr, long value) {
        if (mmio == null) {
            throw new IllegalStateException(name() + ": no mmio port connected for the BAR write to 0x" + Long.toHexString(addr));
        }
        if (addr < 0 || addr % 8 != 0 || addr >= 1L << Pcie.MMIO_ADDR_BITS) {
            throw new IllegalArgumentException("BAR write address 0x" + Long.toHexString(addr) + ": must be 8-byte aligned and below 0x"
                    + Long.toHexString(1L << Pcie.MMIO_ADDR_BITS));
        }
        mmios.add(new Mmio(cycle() + params.mmioLatencyCycles(), addr, value));
    }

    /** Every DMA write, in the order the device finished them. */
    public List<Write> writes() {
        return writes;
    }

    public List<Read> reads() {
        return reads;
    }

    public List<Interrupt> interrupts() {
        return interrupts;
    }

    /** Cycles at which BAR writes were taken by the device, in order. */
    public List<Long> mmioDelivered() {
        return mmioDelivered;
    }

    /** Nothing in flight: no write on its way, no completion due or waiting, no BAR write queued, no write half sent. */
    public boolean idle() {
        return dma.writesInFlight() == 0 && busyTags.isEmpty() && beats.isEmpty() && errors.isEmpty() && pending.isEmpty() && mmios.isEmpty()
                && partial == null;
    }

    @Override
    protected void reset() {
        partial = null;
        if (rq != null) {
            setReady(false);
        }
        if (cpl != null) {
            setCplValid(false);
        }
        if (mmio != null) {
            setMmioValid(false);
        }
    }

    @Override
    protected void drive() {
        long now = cycle();
        PcieLink link = params.link();
        for (HostDma.Completion c : dma.tick(now)) {
            if (link == null) {
                split(c);
            } else {
                pending.add(new Tlp(c.tag(), c.data(), Pcie.SC, c.last()));
            }
        }
        while (!errors.isEmpty() && errors.peekFirst().due() <= now) {
            DueError e = errors.removeFirst();
            if (link == null) {
                beats.addLast(new Beat(now, e.tag(), BigInteger.ZERO, 0, e.status(), true));
            } else {
                pending.add(new Tlp(e.tag(), new byte[0], e.status(), true));
            }
        }
        if (link != null) {
            sendCompletion(link, now);
        }
        if (rq != null) {
            // the throttle draws first, every cycle, so a run's random stream does not depend on the link
            boolean allow = backpressure.allow(rng(), now);
            setReady(allow && (link == null || upFreeAt <= now));
        }
        if (cpl != null) {
            Beat b = beats.peekFirst();
            if (b != null && b.at() > now) {
                b = null; // still on the link
            }
            if (b != null) {
                sim().poke(cpl.bits.tag, b.tag());
                sim().poke(cpl.bits.data, b.data());
                sim().poke(cpl.bits.bytes, b.bytes());
                sim().poke(cpl.bits.status, b.status());
                sim().poke(cpl.bits.last, b.last() ? 1 : 0);
            }
            setCplValid(b != null);
        } else if (!beats.isEmpty()) {
            throw fail("a read completed but the device has no completion port");
        }
        if (mmio != null) {
            Mmio m = mmios.peekFirst();
            boolean offer = m != null && m.due() <= now;
            if (offer) {
                sim().poke(mmio.bits.addr, m.addr());
                sim().poke(mmio.bits.data, BigInteger.valueOf(m.value()).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
            }
            setMmioValid(offer);
        }
    }

    @Override
    protected void sample() {
        if (rq != null && rqReady && sim().peek(rq.valid) != 0) {
            request();
        }
        if (cpl != null && cplValid && sim().peek(cpl.ready) != 0) {
            Beat b = beats.removeFirst();
            if (b.at() > cycle()) {
                throw new IllegalStateException("completion beat taken before it arrived");
            }
            if (b.last()) {
                busyTags.remove(b.tag());
            }
        }
        if (mmio != null && mmioValid && sim().peek(mmio.ready) != 0) {
            mmios.removeFirst();
            mmioDelivered.add(cycle());
        }
        if (irq != null && sim().peek(irq.valid) != 0) {
            int msg = (int) sim().peek(irq.bits);
            Interrupt i = new Interrupt(cycle(), msg & 0x3F, msg >>> 6);
            if (i.cause() == 0 || i.cause() == 3) {
                throw fail("interrupt message 0x" + Integer.toHexString(msg) + " for VP " + i.vp() + " has cause " + i.cause()
                        + ": not a NicHost.IRQ_* cause (1 completion, 2 MPQ)");
            }
            interrupts.add(i);
            irqListeners.forEach(l -> l.accept(i));
        }
    }

    @Override
    protected void finish() {
        if (partial != null) {
            throw fail("a " + partialLen + "-byte DMA write to 0x" + Long.toHexString(partialAddr) + " stopped after " + partialBeats
                    + " of " + beatsOf(partialLen) + " beats");
        }
    }

    @Override
    public List<String> describeState() {
        if (idle()) {
            return List.of();
        }
        List<String> items = new ArrayList<>();
        if (partial != null) {
            items.add(partialLen + "-byte write to 0x" + Long.toHexString(partialAddr) + ": " + partialBeats + " of " + beatsOf(partialLen) + " beats");
        }
        busyTags.forEach(t -> items.add("read tag " + t + " outstanding"));
        mmios.forEach(m -> items.add("BAR write 0x" + Long.toHexString(m.addr()) + " due at cycle " + m.due()));
        return describe(dma.writesInFlight() + " write(s) in flight, " + pending.size() + " completion TLP(s) waiting for the link, " + beats.size()
                + " completion beat(s) waiting:", items, 5, s -> s);
    }

    /** One request beat taken at this cycle. */
    private void request() {
        DmaRequest r = rq.bits;
        boolean write = sim().peek(r.write) != 0;
        long addr = sim().peek(r.addr);
        int len = (int) sim().peek(r.len);
        boolean last = sim().peek(r.last) != 0;
        if (partial != null) {
            if (!write || addr != partialAddr || len != partialLen) {
                throw fail(String.format("beat %d of a %d-byte write to 0x%x changed the request: write=%b addr=0x%x len=%d (every beat"
                        + " repeats write, addr and len)", partialBeats, partialLen, partialAddr, write, addr, len));
            }
        } else {
            if (len < 1 || len > 4096) {
                throw fail("DMA " + (write ? "write" : "read") + " of " + len + " bytes at 0x" + Long.toHexString(addr) + ": len must be 1..4096");
            }
            if ((addr & ~0xFFFL) != ((addr + len - 1) & ~0xFFFL)) {
                throw fail(String.format("DMA %s of %d bytes at 0x%x crosses a 4 KB boundary", write ? "write" : "read", len, addr));
            }
            if (!write) {
                read((int) sim().peek(r.tag), addr, len);
                if (params.link() != null) {
                    // a read request is a TLP without payload: header and processing cycles on the device-to-host link
                    upFreeAt = cycle() + params.link().tlpCycles(0);
                }
                return;
            }
            partial = new byte[len];
            partialAddr = addr;
            partialLen = len;
            partialBeats = 0;
        }
        byte[] beat = littleEndian(sim().peekBig(r.data), beatBytes);
        int off = partialBeats * beatBytes;
        System.arraycopy(beat, 0, partial, off, Math.min(beatBytes, len - off));
        if (params.link() != null) {
            upFreeAt = cycle() + linkCyclesUpTo(addr, len, Math.min(off + beatBytes, len)) - linkCyclesUpTo(addr, len, off);
        }
        partialBeats++;
        boolean final_ = partialBeats == beatsOf(len);
        if (last != final_) {
            throw fail(String.format("DMA write of %d bytes at 0x%x: beat %d of %d has last=%b", len, addr, partialBeats, beatsOf(len), last));
        }
        if (final_) {
            finishWrite();
        }
    }

    /**
     * Link cycles of the first {@code upTo} bytes of a {@code len}-byte write at {@code addr}: the write's TLPs
     * (cut at max-payload-size address boundaries, as {@link #finishWrite}) each cost header + payload cycles +
     * processing; a TLP that {@code upTo} ends inside costs its header and the payload cycles so far. The
     * difference between two beats' ends is what taking a beat costs the device-to-host link.
     */
    private int linkCyclesUpTo(long addr, int len, int upTo) {
        PcieLink link = params.link();
        int mps = params.dma().maxPayloadBytes();
        int cycles = 0;
        int off = 0;
        while (off < upTo) {
            long a = addr + off;
            int n = (int) Math.min(len - off, mps - (a % mps));
            if (off + n <= upTo) {
                cycles += link.tlpCycles(n);
            } else {
                cycles += link.headerCycles() + (upTo - off + link.bytesPerCycle() - 1) / link.bytesPerCycle();
            }
            off += n;
        }
        return cycles;
    }

    /**
     * Link model: puts at most one completion TLP on the host-to-device link this cycle. A TLP whose header starts
     * at s offers beat j (bytes jB.., B the beat width) in the link cycle that carries its last byte,
     * s + header + ceil(min((j+1)B, n) / bytesPerCycle) - 1, and an error completion (no data) its one beat in its
     * header's last cycle; the next TLP's header starts after this one's processing cycles. A TLP ready at the host
     * at cycle c has its first beat offered at c when the link is free (its header went in the cycles before: the
     * round trip counts to the first beat), else as soon as the link is free. FIFO in the order the host produced
     * them, or round robin over the tags with a TLP ready when {@link PcieLink#interleaveTags()}.
     */
    private void sendCompletion(PcieLink link, long now) {
        Tlp pick = null;
        if (!link.interleaveTags()) {
            if (!pending.isEmpty() && downFreeAt + lead(link, pending.get(0)) <= now) {
                pick = pending.get(0);
            }
        } else {
            int best = Integer.MAX_VALUE;
            Set<Integer> seen = new HashSet<>();
            for (Tlp t : pending) {
                if (!seen.add(t.tag())) {
                    continue; // only the oldest TLP of each tag: one tag's completions stay in order
                }
                if (downFreeAt + lead(link, t) > now) {
                    continue;
                }
                int distance = Math.floorMod(t.tag() - lastTag - 1, 1 << Pcie.TAG_BITS); // round robin after the last tag served
                if (distance < best) {
                    best = distance;
                    pick = t;
                }
            }
        }
        if (pick == null) {
            return;
        }
        pending.remove(pick);
        lastTag = pick.tag();
        long start = now - lead(link, pick);
        int n = pick.data().length;
        if (n == 0) {
            beats.addLast(new Beat(now, pick.tag(), BigInteger.ZERO, 0, pick.status(), true));
        }
        for (int off = 0; off < n; off += beatBytes) {
            int k = Math.min(beatBytes, n - off);
            byte[] part = new byte[k];
            System.arraycopy(pick.data(), off, part, 0, k);
            long at = start + link.headerCycles() + ceilDiv(off + k, link.bytesPerCycle()) - 1;
            beats.addLast(new Beat(at, pick.tag(), fromLittleEndian(part), k, Pcie.SC, pick.last() && off + k == n));
        }
        downFreeAt = start + link.tlpCycles(n);
    }

    /** Cycles from the start of a completion TLP's header to its first beat. */
    private int lead(PcieLink link, Tlp t) {
        return link.headerCycles() - 1 + ceilDiv(Math.min(beatBytes, t.data().length), link.bytesPerCycle());
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** Posted writes of at most the max payload size, cut at its address boundaries as the device's PCIe core would. */
    private void finishWrite() {
        byte[] data = partial;
        long addr = partialAddr;
        partial = null;
        int mps = params.dma().maxPayloadBytes();
        int off = 0;
        while (off < data.length) {
            long a = addr + off;
            int n = (int) Math.min(data.length - off, mps - (a % mps));
            byte[] part = new byte[n];
            System.arraycopy(data, off, part, 0, n);
            dma.write(cycle(), a, part);
            off += n;
        }
        Write w = new Write(cycle(), addr, data);
        writes.add(w);
        writeListeners.forEach(l -> l.accept(w));
    }

    private void read(int tag, long addr, int len) {
        if (cpl == null) {
            throw fail("DMA read at 0x" + Long.toHexString(addr) + " but the device has no completion port");
        }
        if (tag >= params.dma().tags()) {
            throw fail("DMA read tag " + tag + " outside 0.." + (params.dma().tags() - 1));
        }
        if (busyTags.contains(tag)) {
            throw fail("DMA read with tag " + tag + " while a read with that tag is outstanding");
        }
        if (len > params.dma().maxReadRequestBytes()) {
            throw fail("DMA read of " + len + " bytes at 0x" + Long.toHexString(addr) + ": above the max read request size of "
                    + params.dma().maxReadRequestBytes() + " bytes");
        }
        ReadOutcome o = faults.decide(addr, len, rng());
        reads.add(new Read(cycle(), tag, addr, len, o));
        switch (o) {
            case OK -> {
                busyTags.add(tag);
                dma.read(cycle(), tag, addr, len);
            }
            case UR, CA -> {
                busyTags.add(tag);
                errors.addLast(new DueError(cycle() + params.dma().readRoundTripCycles(), tag, o == ReadOutcome.UR ? Pcie.UR : Pcie.CA));
            }
            case LOST -> {
                // nothing will come: the tag is the device's again once its completion timeout gives up
            }
        }
    }

    /** A HostDma completion as beats of the bus width; {@code last} only on the read's final beat. */
    private void split(HostDma.Completion c) {
        byte[] d = c.data();
        for (int off = 0; off < d.length; off += beatBytes) {
            int n = Math.min(beatBytes, d.length - off);
            byte[] part = new byte[n];
            System.arraycopy(d, off, part, 0, n);
            beats.addLast(new Beat(cycle(), c.tag(), fromLittleEndian(part), n, Pcie.SC, c.last() && off + n == d.length));
        }
    }

    private int beatsOf(int len) {
        return Pcie.beatsOf(len, beatBytes);
    }

    /** Byte i of the value is bits 8i+7..8i. */
    public static byte[] littleEndian(BigInteger v, int bytes) {
        byte[] out = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            out[i] = v.shiftRight(8 * i).byteValue();
        }
        return out;
    }

    public static BigInteger fromLittleEndian(byte[] b) {
        byte[] be = new byte[b.length + 1];
        for (int i = 0; i < b.length; i++) {
            be[b.length - i] = b[i];
        }
        return new BigInteger(be);
    }

    private void setReady(boolean v) {
        rqReady = v;
        sim().poke(rq.ready, v ? 1 : 0);
    }

    private void setCplValid(boolean v) {
        cplValid = v;
        sim().poke(cpl.valid, v ? 1 : 0);
    }

    private void setMmioValid(boolean v) {
        mmioValid = v;
        sim().poke(mmio.valid, v ? 1 : 0);
    }
}
