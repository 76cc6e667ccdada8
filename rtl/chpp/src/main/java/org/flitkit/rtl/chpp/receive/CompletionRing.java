package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.Entries;
import org.flitkit.rtl.chpp.PacketBeat;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.CompletionLayouts;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * Writer of completion rings in host memory (paper section 4.2: send and receive completion rings, each
 * circular with a flow-control counter against overflow): takes 16-byte entries (formats/chpp
 * {@code CompletionLayouts}), sets their Phase bit and writes each with one 16-byte posted write at
 * base + 16 x slot of the ring the entry names (one per local QP in the engine, one in the simplest case);
 * software returns its consumer index by a BAR write, and a full ring back-pressures {@link #in}, never
 * overwriting an unread entry. docs/chpp-receive-engine.md, "CompletionRing".
 */
public final class CompletionRing extends Module {
    /** PCIe beat width of the cHPP engines' bus: one entry is one beat. */
    public static final int BEAT_BYTES = Chpp.COMPLETION_BYTES;
    /** Bit of the entry the ring owns: the Phase bit, at the same place in the send and the receive layout. */
    public static final int PHASE_BIT = CompletionLayouts.SEND.PHASE.lsb();

    static {
        if (CompletionLayouts.RECEIVE.PHASE.lsb() != PHASE_BIT || PacketBeat.DATA_BYTES != BEAT_BYTES) {
            throw new IllegalStateException("send and receive entries must keep Phase at bit " + PHASE_BIT
                    + " and be one 16-byte beat");
        }
    }

    public final CompletionRingParams params;
    public final int rings;

    /**
     * Entries to post, 128 bits in the layout's bit order (bit i = bit i mod 8 of byte i / 8), Phase ignored, with
     * their ring (a ring number beyond {@code rings} is folded by its low bits: callers name existing QPs only).
     */
    public final Decoupled<RingEntry> in;
    /**
     * Host BAR writes (always ready; writes outside the rings' registers are ignored, so one MMIO stream can fan
     * out to several writers): ring r's registers at {@code mmioOffset + 16 r}: +0 base (16-byte aligned; also
     * empties the ring: producer = consumer = 0, Phase 1), +8 software's consumer index (mod 2 x entries).
     */
    public final Decoupled<MmioWrite> mmio;
    /** Posted writes of 16 bytes (one beat, {@code last} high, tag 0) to host memory. */
    public final Decoupled<DmaRequest> dmaRq;
    /** Per ring: producer index the hardware keeps, entries written mod 2 x entries (top bit = lap parity). */
    public final Vec<UInt> producer;
    /** Per ring: consumer index last returned by software. */
    public final Vec<UInt> consumer;
    /** Per ring: high once a base has been written; until then its entries are held off (nothing goes to address 0). */
    public final Vec<Bool> enabled;
    /** Entries written (saturating 32-bit). */
    public final UInt written;
    /** Cycles an entry waited because its ring was full (saturating 32-bit). */
    public final UInt fullCycles;
    /** Consumer writes refused because they would return more entries than were produced (saturating 32-bit). */
    public final UInt badConsumer;

    /** One ring, at {@code params.mmioOffset()}; entries' ring numbers are ignored. */
    public CompletionRing(CompletionRingParams params) {
        this(params, 1);
    }

    /**
     * {@code rings} rings of {@code params.entries()} entries each (one per local QP in the engine); ring r's
     * registers are at {@code params.mmioOffset() + 16 r}.
     */
    public CompletionRing(CompletionRingParams params, int rings) {
        if (rings > 1 << QpKeyWrite.QP_INDEX_BITS) {
            throw new IllegalArgumentException("CompletionRing: " + rings + " rings, but an entry names its ring in "
                    + QpKeyWrite.QP_INDEX_BITS + " bits (at most " + (1 << QpKeyWrite.QP_INDEX_BITS) + ", one per local QP)");
        }
        if (rings < 1 || params.mmioOffset() + CompletionRingParams.STRIDE * rings > 1 << org.flitkit.rtl.pcie.Pcie.MMIO_ADDR_BITS) {
            throw new IllegalArgumentException("CompletionRing: " + rings + " rings at 0x" + Integer.toHexString(params.mmioOffset())
                    + " do not fit the " + org.flitkit.rtl.pcie.Pcie.MMIO_ADDR_BITS + "-bit BAR (at least one ring, 16 bytes of registers each)");
        }
        this.params = params;
        this.rings = rings;
        int ib = params.indexBits();
        int slotBits = ib - 1;
        int n = params.entries();

        in = input(Decoupled.of(RingEntry::new));
        mmio = input(Decoupled.of(MmioWrite::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(BEAT_BYTES)));
        producer = output(Vec(rings, () -> UInt(ib)));
        consumer = output(Vec(rings, () -> UInt(ib)));
        enabled = output(Vec(rings, () -> Bool()));
        written = output(UInt(Counters.BITS));
        fullCycles = output(UInt(Counters.BITS));
        badConsumer = output(UInt(Counters.BITS));

        // bits 63:4 of each ring's base: written only by software, read only for the ring being posted to, so one
        // small RAM (LUT RAM on an FPGA) instead of a 60-bit register per ring
        Mem<UInt> base = mem(rings, UInt(60)).named("base");
        List<Bool> en = new ArrayList<>();
        List<UInt> prod = new ArrayList<>();
        List<UInt> cons = new ArrayList<>();
        for (int r = 0; r < rings; r++) {
            String sfx = rings == 1 ? "" : Integer.toString(r);
            en.add(regInit(Bool(), 0).named("en" + sfx));
            prod.add(regInit(UInt(ib), 0).named("prod" + sfx));
            cons.add(regInit(UInt(ib), 0).named("cons" + sfx));
        }

        int rb = Math.max(1, Bitwise.log2Up(rings));
        UInt ring = rings == 1 ? lit(0, 1) : in.bits.ring.bits(rb - 1, 0);
        List<Bool> sel = new ArrayList<>();
        for (int r = 0; r < rings; r++) {
            sel.add(rings == 1 ? TRUE() : ring.eq(r));
        }
        UInt p = Mux1H(sel, prod);
        // entries software has not yet returned; the flow-control counter of the paper
        Bool full = p.sub(Mux1H(sel, cons)).eq(n);
        Bool open = Mux1H(sel, en);
        Bool go = in.valid.and(open).andNot(full);

        dmaRq.valid.assign(go);
        dmaRq.bits.write.assign(TRUE());
        dmaRq.bits.tag.assign(0);
        dmaRq.bits.addr.assign(cat(base.read(ring), lit(0, 4)).add(p.bits(slotBits - 1, 0).pad(64).shl(4).trunc(64)));
        dmaRq.bits.len.assign(BEAT_BYTES);
        dmaRq.bits.last.assign(TRUE());
        // Phase 1 on lap 0 (the producer's top bit 0), flipping every wrap
        Bool phase = p.bit(ib - 1).not();
        dmaRq.bits.data.assign(cat(phase, in.bits.entry.bits(PHASE_BIT - 1, 0)));
        in.ready.assign(open.andNot(full).and(dmaRq.ready));
        Bool fire = go.and(dmaRq.ready);

        mmio.ready.assign(TRUE());
        UInt newCons = mmio.bits.data.bits(ib - 1, 0);
        Bool anyBad = FALSE();
        Bool anyBaseWr = FALSE();
        for (int r = 0; r < rings; r++) {
            final int rr = r;
            int off = params.mmioOffset() + CompletionRingParams.STRIDE * r;
            Bool baseWr = mmio.valid.and(mmio.bits.addr.eq(off + CompletionRingParams.REG_BASE));
            Bool consWr = mmio.valid.and(mmio.bits.addr.eq(off + CompletionRingParams.REG_CONSUMER));
            // a returned index may not pass the producer: (prod - newCons) mod 2n must stay within 0..n
            // (upper data bits beyond the index are software's business and ignored)
            Bool consOk = prod.get(r).sub(newCons).le(n);
            anyBad = anyBad.or(consWr.andNot(consOk));
            when(fire.and(sel.get(r)), () -> prod.get(rr).assign(prod.get(rr).add(1)));
            when(consWr.and(consOk), () -> cons.get(rr).assign(newCons));
            anyBaseWr = anyBaseWr.or(baseWr);
            when(baseWr, () -> {
                en.get(rr).assign(TRUE());
                prod.get(rr).assign(0);
                cons.get(rr).assign(0);
            });
            producer.get(r).assign(prod.get(r));
            consumer.get(r).assign(cons.get(r));
            enabled.get(r).assign(en.get(r));
        }
        // ring r's registers are 16 bytes apart from mmioOffset: the written ring is the address's bits above 4
        UInt baseRing = rings == 1 ? lit(0, 1) : mmio.bits.addr.sub(params.mmioOffset()).bits(rb + 3, 4);
        when(anyBaseWr, () -> base.write(baseRing, mmio.bits.data.bits(63, 4)));
        written.assign(Counters.count(fire, "writtenCount"));
        fullCycles.assign(Counters.count(in.valid.and(open).and(full), "fullCount"));
        badConsumer.assign(Counters.count(anyBad, "badConsumerCount"));
    }
}
