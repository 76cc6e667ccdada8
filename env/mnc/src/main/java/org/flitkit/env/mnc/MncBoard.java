package org.flitkit.env.mnc;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.mnc.MncNode;
import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.rtl.mnc.MncPorts.BusRequest;
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;
import org.flitkit.rtl.mnc.MncPorts.SendRequest;

/**
 * The test harness: {@code nodes} MNC nodes in one design with every port brought out, so the platform
 * (PCI buses, switch, host libraries) sits on them. Node i has number i; the per-rail ports of node i rail r
 * are at index {@code i * rails + r}.
 */
public final class MncBoard extends Module {
    public final Vec<Decoupled<SendRequest>> req;
    public final Vec<Decoupled<Event>> event;
    public final Vec<UInt> status;
    public final Vec<Decoupled<BusRequest>> bus;
    public final Vec<Valid<Bool>> busDone;
    public final Vec<Decoupled<Packet>> tx;
    public final Vec<Bool> txDone;
    public final Vec<Decoupled<Header>> rx;
    public final Vec<UInt> rxSlot;
    public final Vec<Bool> rxDone;
    public final MncParams params;
    private final List<MncNode> nodes = new ArrayList<>();

    public MncBoard(int n, MncParams p) {
        if (n < 1 || n > 1 << MncParams.NODE_BITS) {
            throw new IllegalArgumentException("a cluster has 1.." + (1 << MncParams.NODE_BITS) + " nodes, got " + n);
        }
        this.params = p;
        int ports = n * p.rails();
        req = input(Vec(n, () -> Decoupled.of(SendRequest::new)));
        event = output(Vec(n, () -> Decoupled.of(Event::new)));
        status = output(Vec(n, () -> UInt(4)));
        bus = output(Vec(ports, () -> Decoupled.of(BusRequest::new)));
        busDone = input(Vec(ports, () -> Valid.of(Bool())));
        tx = output(Vec(ports, () -> Decoupled.of(Packet::new)));
        txDone = input(Vec(ports, () -> Bool()));
        rx = input(Vec(ports, () -> Decoupled.of(Header::new)));
        rxSlot = output(Vec(ports, () -> UInt(MncParams.SLOT_BITS)));
        rxDone = input(Vec(ports, () -> Bool()));
        for (int i = 0; i < n; i++) {
            MncNode node = instance("node" + i, new MncNode(p));
            nodes.add(node);
            node.node.assign(lit(i, MncParams.NODE_BITS));
            node.req.connect(req.get(i));
            event.get(i).connect(node.event);
            status.get(i).assign(node.status);
            for (int r = 0; r < p.rails(); r++) {
                int k = i * p.rails() + r;
                bus.get(k).connect(node.bus.get(r));
                node.busDone.get(r).connect(busDone.get(k));
                tx.get(k).connect(node.tx.get(r));
                node.txDone.get(r).assign(txDone.get(k));
                node.rx.get(r).connect(rx.get(k));
                rxSlot.get(k).assign(node.rxSlot.get(r));
                node.rxDone.get(r).assign(rxDone.get(k));
            }
        }
    }

    public int size() {
        return nodes.size();
    }

    public List<MncNode> nodes() {
        return Collections.unmodifiableList(nodes);
    }
}
