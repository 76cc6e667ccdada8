package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;

/**
 * The SEND engine (multi-rail paper, section 2.1.2): takes the next filled transmit buffer (or a SReq/SAck of
 * the dispatch unit, which go first), spends the firmware's per-packet cycles adding route and control
 * information, puts the packet on the link and frees its buffer when the link has taken the tail. The last
 * packet of a chunk returns a send event (the paper's send token) to the host.
 */
public final class MncSendEngine extends Module {
    /** IDLE, PREPARE (per-packet firmware cycles), SENDING (on the link), EVENT (returning the token). */
    public enum State { IDLE, PREPARE, SENDING, EVENT }

    public final Decoupled<Packet> data = input(Decoupled.of(Packet::new));
    public final Decoupled<Header> ctrl = input(Decoupled.of(Header::new));
    public final Decoupled<Packet> tx = output(Decoupled.of(Packet::new));
    /** The link has taken the packet's tail. */
    public final Bool txDone = input(Bool());
    public final Valid<UInt> release = output(Valid.of(UInt(SLOT_BITS)));
    public final Decoupled<Event> event = output(Decoupled.of(Event::new));
    public final Bool sending = output(Bool());
    /** Data is queued ahead on this NIC (jobs, SDMA, filled buffers): with software dispatch a SReq waits behind it. */
    public final Bool dataAhead = input(Bool());
    public final Fsm<State> fsm;

    public MncSendEngine(MncParams p) {
        fsm = new Fsm<>(State.class);
        Packet cur = regInit(new Packet(), 0).named("cur");
        Bool isData = regInit(Bool(), 0).named("isData");
        Bool offered = regInit(Bool(), 0).named("offered");
        UInt wait = regInit(UInt(CYCLE_BITS), 0).named("wait");

        Bool idle = fsm.is(State.IDLE);
        // software dispatch: the SReq went through the host's send queue, so it leaves after the data queued before it
        Bool ctrlFirst = p.softwareDispatch() ? ctrl.valid.and(dataAhead.not()).and(data.valid.not()) : ctrl.valid;
        ctrl.ready.assign(idle.and(p.softwareDispatch() ? dataAhead.not().and(data.valid.not()) : TRUE()));
        data.ready.assign(idle.and(ctrlFirst.not()));
        UInt cycles = lit(p.packetCycles(), CYCLE_BITS);
        State afterTake = p.packetCycles() == 0 ? State.SENDING : State.PREPARE;
        when(ctrl.fire(), () -> {
            cur.hdr.assign(ctrl.bits);
            cur.slot.assign(lit(0, SLOT_BITS));
            isData.assign(FALSE());
            wait.assign(cycles);
            fsm.goTo(afterTake);
        });
        when(data.fire(), () -> {
            cur.assign(data.bits);
            isData.assign(TRUE());
            wait.assign(cycles);
            fsm.goTo(afterTake);
        });
        when(fsm.is(State.PREPARE), () -> {
            wait.assign(wait.sub(1));
            when(wait.le(1), () -> fsm.goTo(State.SENDING));
        });

        tx.valid.assign(fsm.is(State.SENDING).and(offered.not()));
        tx.bits.assign(cur);
        when(tx.fire(), () -> offered.assign(TRUE()));
        // a done pulse with no packet on the link is ignored (the link model never sends one)
        Bool done = fsm.is(State.SENDING).and(offered).and(txDone);
        release.valid.assign(done.and(isData));
        release.bits.assign(cur.slot);
        when(done, () -> {
            offered.assign(FALSE());
            when(isData.and(cur.hdr.last), () -> fsm.goTo(State.EVENT)).otherwise(() -> fsm.goTo(State.IDLE));
        });

        event.valid.assign(fsm.is(State.EVENT));
        event.bits.send.assign(TRUE());
        event.bits.node.assign(cur.hdr.dstNode);
        event.bits.flow.assign(cur.hdr.flow);
        event.bits.seq.assign(cur.hdr.seq);
        event.bits.nchunks.assign(cur.hdr.nchunks);
        when(event.fire(), () -> fsm.goTo(State.IDLE));
        sending.assign(fsm.is(State.SENDING));
    }
}
