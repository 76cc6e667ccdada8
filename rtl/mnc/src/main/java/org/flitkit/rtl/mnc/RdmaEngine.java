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
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.Packet;

/**
 * The RDMA engine (multi-rail paper, section 2.1.2): writes a received packet from NIC SRAM to its host
 * address over the PCI bus, frees the buffer, and after the last packet of a chunk posts a receive event for
 * the host library, which puts the chunks of a message together (section 2.4).
 */
public final class RdmaEngine extends Module {
    /** IDLE, RDMAING (bus write requested or in progress), EVENT. */
    public enum State { IDLE, RDMAING, EVENT }

    public final Decoupled<Packet> in = input(Decoupled.of(Packet::new));
    public final Decoupled<BusRequest> bus = output(Decoupled.of(BusRequest::new));
    public final Bool busDone = input(Bool());
    public final Valid<UInt> release = output(Valid.of(UInt(SLOT_BITS)));
    public final Decoupled<Event> event = output(Decoupled.of(Event::new));
    public final Bool rdmaing = output(Bool());
    public final Fsm<State> fsm;

    public RdmaEngine(MncParams p) {
        fsm = new Fsm<>(State.class);
        // only what the write and the event need (the routing fields end here)
        UInt slot = regInit(UInt(SLOT_BITS), 0).named("slot");
        UInt addr = regInit(UInt(ADDR_BITS), 0).named("addr");
        UInt len = regInit(UInt(PLEN_BITS), 0).named("len");
        Bool last = regInit(Bool(), 0).named("last");
        Event ev = regInit(new Event(), 0).named("ev");
        Bool issued = regInit(Bool(), 0).named("issued");
        in.ready.assign(fsm.is(State.IDLE));
        when(in.fire(), () -> {
            slot.assign(in.bits.slot);
            addr.assign(in.bits.hdr.addr);
            len.assign(in.bits.hdr.len);
            last.assign(in.bits.hdr.last);
            ev.send.assign(FALSE());
            ev.node.assign(in.bits.hdr.srcNode);
            ev.flow.assign(in.bits.hdr.flow);
            ev.seq.assign(in.bits.hdr.seq);
            ev.nchunks.assign(in.bits.hdr.nchunks);
            fsm.goTo(State.RDMAING);
        });
        bus.valid.assign(fsm.is(State.RDMAING).and(issued.not()));
        bus.bits.write.assign(TRUE());
        bus.bits.slot.assign(slot);
        bus.bits.addr.assign(addr);
        bus.bits.len.assign(len);
        when(bus.fire(), () -> issued.assign(TRUE()));
        // a done pulse with no write outstanding is ignored (the bus model never sends one)
        Bool done = fsm.is(State.RDMAING).and(issued).and(busDone);
        release.valid.assign(done);
        release.bits.assign(slot);
        when(done, () -> {
            issued.assign(FALSE());
            when(last, () -> fsm.goTo(State.EVENT)).otherwise(() -> fsm.goTo(State.IDLE));
        });
        event.valid.assign(fsm.is(State.EVENT));
        event.bits.assign(ev);
        when(event.fire(), () -> fsm.goTo(State.IDLE));
        rdmaing.assign(fsm.is(State.IDLE).not());
    }
}
