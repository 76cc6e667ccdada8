package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.mnc.MncPorts.BusRequest;
import org.flitkit.rtl.mnc.MncPorts.Packet;
import org.flitkit.rtl.mnc.MncPorts.SdmaJob;

/**
 * The SDMA engine (multi-rail paper, section 2.1.2): takes a chunk from its job queue and moves it from the
 * host buffer into NIC SRAM over the PCI bus, one packet buffer at a time, handing each filled buffer with its
 * header to the SEND engine. It is in SDMAING from taking a job until its last packet is in SRAM, which is
 * what makes the link BUSY (section 2.3.2).
 */
public final class SdmaEngine extends Module {
    /** The paper's states, with SDMAING split where a bus read is outstanding. */
    public enum State { IDLE, SDMAING, SDMAING_WAIT }

    public final Decoupled<SdmaJob> job = input(Decoupled.of(SdmaJob::new));
    /** A free send buffer (from the send {@link SlotPool}). */
    public final Decoupled<UInt> slot = input(Decoupled.of(UInt(SLOT_BITS)));
    public final Decoupled<BusRequest> bus = output(Decoupled.of(BusRequest::new));
    /** The bus finished this engine's read. */
    public final Bool busDone = input(Bool());
    public final Decoupled<Packet> out = output(Decoupled.of(Packet::new));
    public final UInt srcNode = input(UInt(NODE_BITS));
    public final UInt srcRail = input(UInt(RAIL_BITS));
    public final Bool sdmaing = output(Bool());
    public final Fsm<State> fsm;

    public SdmaEngine(MncParams p) {
        fsm = new Fsm<>(State.class);
        SdmaJob cur = regInit(new SdmaJob(), 0).named("cur");
        UInt curSlot = regInit(UInt(SLOT_BITS), 0).named("curSlot");
        UInt plen = regInit(UInt(PLEN_BITS), 0).named("plen");
        UInt pb = lit(p.packetBytes(), LEN_BITS);
        UInt nextLen = mux(cur.len.gt(pb), pb, cur.len).bits(PLEN_BITS - 1, 0);

        job.ready.assign(fsm.is(State.IDLE));
        slot.ready.assign(fsm.is(State.SDMAING).and(bus.ready));
        bus.valid.assign(fsm.is(State.SDMAING).and(slot.valid));
        bus.bits.write.assign(FALSE());
        bus.bits.slot.assign(slot.bits);
        bus.bits.addr.assign(cur.srcAddr);
        bus.bits.len.assign(nextLen);

        Bool last = cur.len.eq(plen.pad(LEN_BITS));
        out.valid.assign(fsm.is(State.SDMAING_WAIT).and(busDone));
        out.bits.slot.assign(curSlot);
        out.bits.hdr.kind.assign(lit(MncPorts.KIND_DATA, 2));
        out.bits.hdr.srcNode.assign(srcNode);
        out.bits.hdr.srcRail.assign(srcRail);
        out.bits.hdr.dstNode.assign(cur.dstNode);
        out.bits.hdr.dstRail.assign(cur.dstRail);
        out.bits.hdr.flow.assign(cur.flow);
        out.bits.hdr.seq.assign(cur.seq);
        out.bits.hdr.nchunks.assign(cur.nchunks);
        out.bits.hdr.last.assign(last);
        out.bits.hdr.addr.assign(cur.dstAddr);
        out.bits.hdr.len.assign(plen);
        out.bits.hdr.status.assign(lit(0, 4));

        when(job.fire(), () -> {
            cur.assign(job.bits);
            fsm.goTo(State.SDMAING);
        });
        when(bus.fire(), () -> {
            curSlot.assign(slot.bits);
            plen.assign(nextLen);
            fsm.goTo(State.SDMAING_WAIT);
        });
        // the SEND queue holds as many packets as there are send buffers, so a filled buffer always has a place
        check(fsm.is(State.SDMAING_WAIT).and(busDone).not().or(out.ready), "SDMA: packet queue full with a filled buffer");
        when(fsm.is(State.SDMAING_WAIT).and(busDone), () -> {
            cur.srcAddr.assign(cur.srcAddr.add(plen.pad(ADDR_BITS)));
            cur.dstAddr.assign(cur.dstAddr.add(plen.pad(ADDR_BITS)));
            cur.len.assign(cur.len.sub(plen.pad(LEN_BITS)));
            when(last, () -> fsm.goTo(State.IDLE)).otherwise(() -> fsm.goTo(State.SDMAING));
        });
        sdmaing.assign(fsm.is(State.IDLE).not());
    }
}
