package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.mnc.MncPorts.BusRequest;
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;
import org.flitkit.rtl.mnc.MncPorts.SdmaJob;

/**
 * One Myrinet-like NIC of a node (multi-rail paper, section 2.1.2, figure 4): the four concurrent engines
 * SDMA, SEND, RECV and RDMA, the send and receive packet buffers of its SRAM, a job queue fed by the dispatch
 * unit, and one PCI master port shared by SDMA (reads) and RDMA (writes). It reports SDMAING and RECVING,
 * the two states that make its link BUSY (section 2.3.2).
 */
public final class MncNic extends Module {
    /** Chunks waiting for the SDMA engine. */
    public static final int JOB_QUEUE = 4;

    public final Decoupled<SdmaJob> job = input(Decoupled.of(SdmaJob::new));
    public final Decoupled<Header> ctrlIn = input(Decoupled.of(Header::new));
    public final Decoupled<Header> ctrlOut = output(Decoupled.of(Header::new));
    public final Decoupled<BusRequest> bus = output(Decoupled.of(BusRequest::new));
    /** The bus finished this NIC's outstanding read ({@code bits} 0) or write ({@code bits} 1). */
    public final Valid<Bool> busDone = input(Valid.of(Bool()));
    public final Decoupled<Packet> tx = output(Decoupled.of(Packet::new));
    public final Bool txDone = input(Bool());
    public final Decoupled<Header> rx = input(Decoupled.of(Header::new));
    public final UInt rxSlot = output(UInt(SLOT_BITS));
    public final Bool rxDone = input(Bool());
    public final Decoupled<Event> event = output(Decoupled.of(Event::new));
    public final UInt node = input(UInt(NODE_BITS));
    public final UInt rail = input(UInt(RAIL_BITS));
    public final Bool sdmaing = output(Bool());
    public final Bool recving = output(Bool());

    public final SdmaEngine sdma;
    public final MncSendEngine send;
    public final RecvEngine recv;
    public final RdmaEngine rdma;

    public MncNic(MncParams p) {
        sdma = instance("sdma", new SdmaEngine(p));
        send = instance("send", new MncSendEngine(p));
        recv = instance("recv", new RecvEngine(p));
        rdma = instance("rdma", new RdmaEngine(p));
        SlotPool sendBufs = instance("sendBufs", new SlotPool(p.sendSlots()));
        SlotPool recvBufs = instance("recvBufs", new SlotPool(p.recvSlots()));
        Queue<SdmaJob> jobs = instance("jobs", new Queue<>(SdmaJob::new, JOB_QUEUE));
        Queue<Packet> sendQ = instance("sendQ", new Queue<>(Packet::new, p.sendSlots()));
        Queue<Packet> rdmaQ = instance("rdmaQ", new Queue<>(Packet::new, p.recvSlots()));

        jobs.enq.connect(job);
        sdma.job.connect(jobs.deq);
        sdma.srcNode.assign(node);
        sdma.srcRail.assign(rail);
        sdma.slot.connect(sendBufs.alloc);
        sendQ.enq.connect(sdma.out);
        send.data.connect(sendQ.deq);
        send.ctrl.connect(ctrlIn);
        send.dataAhead.assign(jobs.deq.valid.or(sdma.sdmaing));
        tx.connect(send.tx);
        send.txDone.assign(txDone);
        sendBufs.release.connect(send.release);

        recv.rx.connect(rx);
        rxSlot.assign(recv.rxSlot);
        recv.rxDone.assign(rxDone);
        recv.slot.connect(recvBufs.alloc);
        rdmaQ.enq.connect(recv.toRdma);
        ctrlOut.connect(recv.ctrl);
        rdma.in.connect(rdmaQ.deq);
        recvBufs.release.connect(rdma.release);

        RRArbiter<BusRequest> master = instance("pciMaster", new RRArbiter<>(BusRequest::new, 2));
        master.in.get(0).connect(sdma.bus);
        master.in.get(1).connect(rdma.bus);
        bus.connect(master.out);
        sdma.busDone.assign(busDone.valid.and(busDone.bits.not()));
        rdma.busDone.assign(busDone.valid.and(busDone.bits));

        RRArbiter<Event> events = instance("events", new RRArbiter<>(Event::new, 2));
        events.in.get(0).connect(send.event);
        events.in.get(1).connect(rdma.event);
        event.connect(events.out);

        sdmaing.assign(sdma.sdmaing);
        recving.assign(recv.recving);
    }
}
