package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.mnc.MncPorts.BusRequest;
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;
import org.flitkit.rtl.mnc.MncPorts.SendRequest;

/**
 * One MNC node's network hardware (multi-rail paper, sections 2.3 and 2.4, with link selection moved into the
 * network hardware as section 3 proposes): {@code rails} {@link MncNic}s, their {@link NicStatus} and the
 * {@link DispatchUnit}. The host posts send requests and reads events (send tokens and received chunks); per
 * rail the node has a PCI master port (to the node's shared bus) and a link port (to the switch).
 */
public final class MncNode extends Module {
    /** Send requests the node buffers ahead of the dispatch unit. */
    public static final int REQUEST_QUEUE = 4;

    public final Decoupled<SendRequest> req = input(Decoupled.of(SendRequest::new));
    public final Decoupled<Event> event = output(Decoupled.of(Event::new));
    public final UInt node = input(UInt(NODE_BITS));
    public final Vec<Decoupled<BusRequest>> bus;
    public final Vec<Valid<Bool>> busDone;
    public final Vec<Decoupled<Packet>> tx;
    public final Vec<Bool> txDone;
    public final Vec<Decoupled<Header>> rx;
    public final Vec<UInt> rxSlot;
    public final Vec<Bool> rxDone;
    /** {@code NICStatus}, bit r = rail r BUSY. */
    public final UInt status = output(UInt(4));

    public final MncParams params;
    public final DispatchUnit dispatch;
    private final List<MncNic> nics = new ArrayList<>();

    public MncNode(MncParams p) {
        this.params = p;
        int n = p.rails();
        bus = output(Vec(n, () -> Decoupled.of(BusRequest::new)));
        busDone = input(Vec(n, () -> Valid.of(Bool())));
        tx = output(Vec(n, () -> Decoupled.of(Packet::new)));
        txDone = input(Vec(n, () -> Bool()));
        rx = input(Vec(n, () -> Decoupled.of(Header::new)));
        rxSlot = output(Vec(n, () -> UInt(SLOT_BITS)));
        rxDone = input(Vec(n, () -> Bool()));

        dispatch = instance("dispatch", new DispatchUnit(p));
        NicStatus nicStatus = instance("nicStatus", new NicStatus(n));
        Queue<SendRequest> reqQ = instance("reqQ", new Queue<>(SendRequest::new, REQUEST_QUEUE));
        reqQ.enq.connect(req);
        dispatch.req.connect(reqQ.deq);
        dispatch.node.assign(node);
        dispatch.status.assign(nicStatus.busy);
        status.assign(nicStatus.busy);

        RRArbiter<Header> ctrlIn = instance("ctrlIn", new RRArbiter<>(Header::new, n));
        RRArbiter<Event> events = instance("events", new RRArbiter<>(Event::new, n));
        Bool ctrlReady = FALSE();
        for (int r = 0; r < n; r++) {
            MncNic nic = instance("nic" + r, new MncNic(p));
            nics.add(nic);
            nic.node.assign(node);
            nic.rail.assign(lit(r, RAIL_BITS));
            nic.job.connect(dispatch.jobs.get(r));
            // a SReq/SAck leaves on the rail it names as its source
            Bool mine = dispatch.ctrlOut.bits.srcRail.eq(r);
            nic.ctrlIn.valid.assign(dispatch.ctrlOut.valid.and(mine));
            nic.ctrlIn.bits.assign(dispatch.ctrlOut.bits);
            ctrlReady = ctrlReady.or(mine.and(nic.ctrlIn.ready));
            ctrlIn.in.get(r).connect(nic.ctrlOut);
            events.in.get(r).connect(nic.event);
            bus.get(r).connect(nic.bus);
            nic.busDone.connect(busDone.get(r));
            tx.get(r).connect(nic.tx);
            nic.txDone.assign(txDone.get(r));
            nic.rx.connect(rx.get(r));
            rxSlot.get(r).assign(nic.rxSlot);
            nic.rxDone.assign(rxDone.get(r));
            nicStatus.sdmaing.get(r).assign(nic.sdmaing);
            nicStatus.recving.get(r).assign(nic.recving);
        }
        dispatch.ctrlOut.ready.assign(ctrlReady);
        dispatch.ctrlIn.connect(ctrlIn.out);
        event.connect(events.out);
    }

    public List<MncNic> nics() {
        return Collections.unmodifiableList(nics);
    }
}
