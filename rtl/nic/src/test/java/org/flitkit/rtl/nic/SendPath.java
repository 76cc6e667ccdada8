package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.PacketBits;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * Test harness of NIC flow (1) as the NIC wires it: VpQueues, DescArbiter, DescFetch, DescDispatch,
 * MpSendUnit and SendArbiter, with the host interface, the link, the merged events and the fence's
 * {@code answered} input as pins (the receive side is driven by the test).
 */
public final class SendPath extends Module {
    public static final int CHIP_ID = 0x0001;

    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    public final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    public final Decoupled<UInt> linkOut = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    public final Decoupled<EventReq> events = output(Decoupled.of(EventReq::new));
    public final Valid<UInt> answered = input(Valid.of(UInt(6)));
    public final Decoupled<UInt> rsp = input(PacketBits.packetStream());
    public final UInt fenceTimeout = input(UInt(16));
    public final UInt cplTimeout = input(UInt(32));
    public final Bool doorbellError = output(Bool());
    public final Bool hdqOverflow = output(Bool());
    public final Bool badWrite = output(Bool());
    public final Bool staleCpl = output(Bool());
    public final UInt parked;

    public final VpQueues queues;
    public final DescDispatch dispatch;

    public SendPath(int vps, int tags) {
        queues = instance(new VpQueues(vps));
        DescArbiter arbiter = instance(new DescArbiter(vps));
        DescFetch fetch = instance(new DescFetch(tags));
        dispatch = instance(new DescDispatch(vps));
        MpSendUnit send = instance(new MpSendUnit());
        SendArbiter sendArb = instance(new SendArbiter(2));
        parked = output(UInt(vps));

        queues.mmio.connect(mmio);
        arbiter.pending.assign(queues.pending);
        arbiter.parked.assign(dispatch.parked);
        arbiter.done.connect(dispatch.done);
        fetch.req.connect(arbiter.grant);
        fetch.sdq.connect(queues.sdq);
        queues.hdqAddr.assign(fetch.hdqAddr);
        fetch.hdqData.assign(queues.hdqData);
        fetch.cpl.connect(dmaCpl);
        fetch.cplTimeout.assign(cplTimeout);
        dmaRq.connect(fetch.dma);
        dispatch.in.connect(fetch.out);
        queues.consume.connect(dispatch.consume);
        dispatch.fenceTimeout.assign(fenceTimeout);
        dispatch.answered.connect(answered);
        send.in.connect(dispatch.toSend);
        send.chipId.assign(lit(CHIP_ID, Th2.CHIP_ID_BITS));
        sendArb.req.connect(send.out);
        sendArb.rsp.connect(rsp);
        linkOut.connect(sendArb.linkOut);
        RRArbiter<EventReq> ev = instance(new RRArbiter<>(EventReq::new, 2));
        ev.in.get(0).connect(dispatch.events);
        ev.in.get(1).connect(send.events);
        events.connect(ev.out);
        // the MPQ/EQ look-ups are not used by the send path
        queues.mpq.vp.assign(lit(0, 6));
        queues.eq.vp.assign(lit(0, 6));
        doorbellError.assign(queues.doorbellError);
        hdqOverflow.assign(queues.hdqOverflow);
        badWrite.assign(queues.badWrite);
        staleCpl.assign(fetch.staleCpl);
        parked.assign(dispatch.parked);
    }
}
