package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;

/**
 * The RECV engine (multi-rail paper, section 2.1.2): accepts an arriving packet's head when a receive buffer
 * is free (else the packet waits in the network, Myrinet's backpressure), is RECVING until its tail is in
 * SRAM (which makes the link BUSY, section 2.3.2), spends the firmware's per-packet cycles, then hands data
 * to the RDMA engine and SReq/SAck to the dispatch unit.
 */
public final class RecvEngine extends Module {
    /** IDLE, RECVING (head taken, tail not yet in SRAM), FINISH (per-packet firmware cycles), DELIVER. */
    public enum State { IDLE, RECVING, FINISH, DELIVER }

    public final Decoupled<Header> rx = input(Decoupled.of(Header::new));
    /** The receive buffer the accepted packet's payload goes to (meaningful when {@code rx} fires). */
    public final UInt rxSlot = output(UInt(SLOT_BITS));
    /** The packet's tail is in SRAM. */
    public final Bool rxDone = input(Bool());
    /** A free receive buffer (from the receive {@link SlotPool}). */
    public final Decoupled<UInt> slot = input(Decoupled.of(UInt(SLOT_BITS)));
    public final Decoupled<Packet> toRdma = output(Decoupled.of(Packet::new));
    public final Decoupled<Header> ctrl = output(Decoupled.of(Header::new));
    public final Bool recving = output(Bool());
    public final Fsm<State> fsm;

    public RecvEngine(MncParams p) {
        fsm = new Fsm<>(State.class);
        Packet cur = regInit(new Packet(), 0).named("cur");
        UInt wait = regInit(UInt(CYCLE_BITS), 0).named("wait");

        Bool idle = fsm.is(State.IDLE);
        Bool isData = rx.bits.kind.eq(MncPorts.KIND_DATA);
        rx.ready.assign(idle.and(isData.not().or(slot.valid)));
        slot.ready.assign(idle.and(rx.valid).and(isData));
        rxSlot.assign(slot.bits);
        when(rx.fire(), () -> {
            cur.hdr.assign(rx.bits);
            cur.slot.assign(mux(isData, slot.bits, lit(0, SLOT_BITS)));
            fsm.goTo(State.RECVING);
        });
        // a tail pulse with no packet being received is ignored (the link model never sends one)
        State afterTail = p.packetCycles() == 0 ? State.DELIVER : State.FINISH;
        when(fsm.is(State.RECVING).and(rxDone), () -> {
            wait.assign(lit(p.packetCycles(), CYCLE_BITS));
            fsm.goTo(afterTail);
        });
        when(fsm.is(State.FINISH), () -> {
            wait.assign(wait.sub(1));
            when(wait.le(1), () -> fsm.goTo(State.DELIVER));
        });
        Bool curData = cur.hdr.kind.eq(MncPorts.KIND_DATA);
        Bool deliver = fsm.is(State.DELIVER);
        toRdma.valid.assign(deliver.and(curData));
        toRdma.bits.assign(cur);
        ctrl.valid.assign(deliver.and(curData.not()));
        ctrl.bits.assign(cur.hdr);
        when(toRdma.fire().or(ctrl.fire()), () -> fsm.goTo(State.IDLE));
        recving.assign(fsm.is(State.RECVING));
    }
}
