package org.flitkit.rtl.nic;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import java.util.Map;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * DMA write into the target VP's MPQ (NIC flow (4)): each packet from the management response receive FIFO
 * becomes one 128-byte MPQ entry at the VP's producer index, then an {@code MP_ARRIVED} event (with the Rint
 * interrupt); a full MPQ, or none, drops the packet with an {@code MPQ_OVERFLOW} event and never overwrites.
 * Spec: 20-th2-management.md, "Where management packets go inside the chips"; docs/th2-nic.md, "Host-visible queues".
 */
public final class MpqWriter extends Module {
    /** IDLE (takes a packet), DECIDE (room in the VP's MPQ?), BEAT0 and BEAT1 (the entry's two DMA beats), EVENT. */
    public enum State { IDLE, DECIDE, BEAT0, BEAT1, EVENT }

    public final Decoupled<UInt> in = input(PacketWords.packetStream());
    /** The MPQ of the held packet's DestVP (this block drives {@code vp}). */
    public final QueueLookup mpq = input(new QueueLookup());
    public final Decoupled<DmaRequest> dma = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<EventReq> events = output(Decoupled.of(EventReq::new));
    /** Per-VP producer index (next slot to write), for the register map. */
    public final Vec<UInt> producer;
    /** Per-VP count of packets dropped at a full (or missing) MPQ, for the register map. */
    public final Vec<UInt> drops;
    /** SrcVP of a response or error response (not a fault report) once it was written or dropped (fence accounting). */
    public final Valid<UInt> answered = output(Valid.of(UInt(6)));
    /** One-cycle pulse per dropped packet: the mpq-overflow fault input. */
    public final Bool overflow = output(Bool());
    public final Fsm<State> fsm;

    /** The packet being written, its slot in the MPQ, and whether it was written (else dropped). */
    private final UInt pkt;
    private final RingSlot slot;
    private final Bool written;

    public MpqWriter() {
        this(Th2.VP_COUNT);
    }

    /** {@code vpCount} VPs; packets come from a {@link RecvDispatch} of the same count, so DestVP is below it. */
    public MpqWriter(int vpCount) {
        producer = output(Vec(RingCounters.checkVps(vpCount), () -> UInt(NicHost.INDEX_BITS)));
        drops = output(Vec(vpCount, () -> UInt(32)));
        RingCounters ring = new RingCounters(vpCount, producer, drops);
        fsm = new Fsm<>(State.class);
        pkt = regInit(UInt(Th2.PACKET_BITS), 0);
        slot = regInit(new RingSlot(), 0);
        written = regInit(Bool(), 0);

        UInt vp = LayoutBits.get(pkt, HEAD.DEST_VP);
        mpq.vp.assign(vp);
        in.ready.assign(fsm.is(State.IDLE));
        when(in.fire(), () -> {
            pkt.assign(in.bits);
            fsm.goTo(State.DECIDE);
        });

        // ---- decide: the ring as the host set it up now; the index is free-running, slot = index mod entries
        UInt prod = ring.producer.at(vp);
        Bool noRoom = mpq.full(prod);
        overflow.assign(fsm.is(State.DECIDE).and(noRoom));
        fsm.on(State.DECIDE, () -> {
            written.assign(noRoom.not());
            when(noRoom, () -> {
                fsm.goTo(State.EVENT);
                ring.drop(vp);
            }).otherwise(() -> fsm.goTo(State.BEAT0));
            slot.take(mpq, prod, 7);
        });

        writeEntry();
        when(dma.fire().and(fsm.is(State.BEAT1)), () -> {
            ring.producer.write(vp, slot.index.add(1));
            fsm.goTo(State.EVENT);
        });
        event();
    }

    /** BEAT0, BEAT1: the entry, packet in bytes 0..98 and phase in bit 0 of byte 127 (the last byte, so it lands last). */
    private void writeEntry() {
        UInt entry = LayoutBits.build(NicHost.MPQ_ENTRY.layout(), Map.of(NicHost.MPQ_ENTRY.PACKET, pkt, NicHost.MPQ_ENTRY.PHASE, slot.phase));
        Bool beat1 = fsm.is(State.BEAT1);
        dma.valid.assign(fsm.is(State.BEAT0).or(beat1));
        dma.bits.write.assign(TRUE());
        dma.bits.tag.assign(0);
        dma.bits.addr.assign(slot.addr);
        dma.bits.len.assign(NicHost.MPQ_ENTRY_BYTES);
        dma.bits.data.assign(mux(beat1, entry.bits(2 * Pcie.BEAT_BITS - 1, Pcie.BEAT_BITS), entry.bits(Pcie.BEAT_BITS - 1, 0)));
        dma.bits.last.assign(beat1);
        when(dma.fire().and(fsm.is(State.BEAT0)), () -> fsm.goTo(State.BEAT1));
    }

    /** EVENT: MP_ARRIVED (Rint: MPQ interrupt) or MPQ_OVERFLOW at the index it would have taken. */
    private void event() {
        events.valid.assign(fsm.is(State.EVENT));
        events.bits.vp.assign(LayoutBits.get(pkt, HEAD.DEST_VP));
        events.bits.type.assign(mux(written, lit(NicEvent.MP_ARRIVED.code(), NicEvent.BITS), lit(NicEvent.MPQ_OVERFLOW.code(), NicEvent.BITS)));
        events.bits.code.assign(0);
        events.bits.tid.assign(LayoutBits.get(pkt, BODY1.TRANSACTION_ID));
        events.bits.index.assign(slot.index);
        events.bits.irq.assign(mux(written.and(LayoutBits.get(pkt, HEAD.RINT).bit(0)), lit(NicHost.IRQ_MPQ, 2), lit(EventReq.IRQ_NONE, 2)));
        Bool isReport = LayoutBits.get(pkt, BODY1.NMP_TYPE).eq(NmpType.FAULT_REPORT.code());
        answered.valid.assign(events.fire().and(isReport.not()));
        answered.bits.assign(LayoutBits.get(pkt, HEAD.SRC_VP));
        when(events.fire(), () -> fsm.goTo(State.IDLE));
    }
}
