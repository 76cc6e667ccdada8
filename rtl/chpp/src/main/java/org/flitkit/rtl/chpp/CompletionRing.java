package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.CompletionLayouts;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * Writer of one completion ring in host memory (paper section 4.2: send and receive completion rings, each
 * circular with a flow-control counter against overflow): takes 16-byte entries (formats/chpp
 * {@code CompletionLayouts}), sets their Phase bit and writes each with one 16-byte posted write at
 * base + 16 x slot; software returns its consumer index by a BAR write, and a full ring back-pressures
 * {@link #in}, never overwriting an unread entry. docs/chpp-receive-engine.md, "CompletionRing".
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

    public final RingParams params;

    /** Entries to post, 128 bits in the layout's bit order (bit i = bit i mod 8 of byte i / 8); Phase is ignored. */
    public final Decoupled<UInt> in;
    /**
     * Host BAR writes (always ready; writes outside the ring's two registers are ignored, so one MMIO stream can
     * fan out to several rings): +0 ring base (16-byte aligned; also empties the ring: producer = consumer = 0,
     * Phase 1), +8 software's consumer index (entries consumed mod 2 x entries).
     */
    public final Decoupled<MmioWrite> mmio;
    /** Posted writes of 16 bytes (one beat, {@code last} high, tag 0) to host memory. */
    public final Decoupled<DmaRequest> dmaRq;
    /** Producer index the hardware keeps: entries written mod 2 x entries (top bit = lap parity). */
    public final UInt producer;
    /** Consumer index last returned by software. */
    public final UInt consumer;
    /** High once a base address has been written; until then {@link #in} is held off (nothing goes to address 0). */
    public final Bool enabled;
    /** Entries written (saturating 32-bit). */
    public final UInt written;
    /** Cycles an entry waited because the ring was full (saturating 32-bit). */
    public final UInt fullCycles;
    /** Consumer writes refused because they would return more entries than were produced (saturating 32-bit). */
    public final UInt badConsumer;

    public CompletionRing(RingParams params) {
        this.params = params;
        int ib = params.indexBits();
        int slotBits = ib - 1;
        int n = params.entries();

        in = input(Decoupled.of(UInt(Chpp.COMPLETION_BYTES * 8)));
        mmio = input(Decoupled.of(MmioWrite::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(BEAT_BYTES)));
        producer = output(UInt(ib));
        consumer = output(UInt(ib));
        enabled = output(Bool());
        written = output(UInt(Counters.BITS));
        fullCycles = output(UInt(Counters.BITS));
        badConsumer = output(UInt(Counters.BITS));

        UInt base = regInit(UInt(64), 0).named("base");
        Bool en = regInit(Bool(), 0).named("en");
        UInt prod = regInit(UInt(ib), 0).named("prod");
        UInt cons = regInit(UInt(ib), 0).named("cons");

        // entries software has not yet returned; the flow-control counter of the paper
        UInt used = prod.sub(cons);
        Bool full = used.eq(n);
        Bool go = in.valid.and(en).andNot(full);

        dmaRq.valid.assign(go);
        dmaRq.bits.write.assign(TRUE());
        dmaRq.bits.tag.assign(0);
        dmaRq.bits.addr.assign(base.add(prod.bits(slotBits - 1, 0).pad(64).shl(4).trunc(64)));
        dmaRq.bits.len.assign(BEAT_BYTES);
        dmaRq.bits.last.assign(TRUE());
        // Phase 1 on lap 0 (prod's top bit 0), flipping every wrap
        Bool phase = prod.bit(ib - 1).not();
        dmaRq.bits.data.assign(cat(phase, in.bits.bits(PHASE_BIT - 1, 0)));
        in.ready.assign(en.andNot(full).and(dmaRq.ready));

        Bool fire = go.and(dmaRq.ready);
        when(fire, () -> prod.assign(prod.add(1)));

        mmio.ready.assign(TRUE());
        Bool baseWr = mmio.valid.and(mmio.bits.addr.eq(params.mmioOffset() + RingParams.REG_BASE));
        Bool consWr = mmio.valid.and(mmio.bits.addr.eq(params.mmioOffset() + RingParams.REG_CONSUMER));
        UInt newCons = mmio.bits.data.bits(ib - 1, 0);
        // a returned index may not pass the producer: (prod - newCons) mod 2n must stay within 0..n
        // (upper data bits beyond the index are software's business and ignored)
        Bool consOk = prod.sub(newCons).le(n);
        when(consWr.and(consOk), () -> cons.assign(newCons));
        when(baseWr, () -> {
            base.assign(cat(mmio.bits.data.bits(63, 4), lit(0, 4)));
            en.assign(TRUE());
            prod.assign(0);
            cons.assign(0);
        });

        producer.assign(prod);
        consumer.assign(cons);
        enabled.assign(en);
        written.assign(Counters.count(fire, "writtenCount"));
        fullCycles.assign(Counters.count(in.valid.and(en).and(full), "fullCount"));
        badConsumer.assign(Counters.count(consWr.andNot(consOk), "badConsumerCount"));
    }
}
