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
        Packet cur = regInit(new Packet(), 0).named("cur");
        Bool issued = regInit(Bool(), 0).named("issued");
        in.ready.assign(fsm.is(State.IDLE));
        when(in.fire(), () -> {
            cur.assign(in.bits);
            fsm.goTo(State.RDMAING);
        });
        bus.valid.assign(fsm.is(State.RDMAING).and(issued.not()));
        bus.bits.write.assign(TRUE());
        bus.bits.slot.assign(cur.slot);
        bus.bits.addr.assign(cur.hdr.addr);
        bus.bits.len.assign(cur.hdr.len);
        when(bus.fire(), () -> issued.assign(TRUE()));
        check(busDone.not().or(fsm.is(State.RDMAING).and(issued)), "RDMA: bus done without a write");
        Bool done = fsm.is(State.RDMAING).and(issued).and(busDone);
        release.valid.assign(done);
        release.bits.assign(cur.slot);
        when(done, () -> {
            issued.assign(FALSE());
            when(cur.hdr.last, () -> fsm.goTo(State.EVENT)).otherwise(() -> fsm.goTo(State.IDLE));
        });
        event.valid.assign(fsm.is(State.EVENT));
        event.bits.send.assign(FALSE());
        event.bits.node.assign(cur.hdr.srcNode);
        event.bits.flow.assign(cur.hdr.flow);
        event.bits.seq.assign(cur.hdr.seq);
        event.bits.nchunks.assign(cur.hdr.nchunks);
        when(event.fire(), () -> fsm.goTo(State.IDLE));
        rdmaing.assign(fsm.is(State.IDLE).not());
    }
}
