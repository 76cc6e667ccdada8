package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * The NIC's send side (paper: NIC flow (1), and flow (3) from the management response send FIFO on):
 * VpQueues, DescArbiter, DescFetch, DescDispatch, MpSendUnit and SendArbiter wired in that order, from BAR
 * writes and descriptor reads to flits on the link. It also answers the receive side's MPQ/EQ look-ups
 * (the host configures all rings in one place). docs/th2-nic.md, "Blocks".
 */
public final class SendPath extends Module {
    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    /** Descriptor reads. */
    public final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    public final Decoupled<UInt> linkOut = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** NIC-NMA's answers and fault reports (into the management response send FIFO). */
    public final Decoupled<UInt> rsp = input(PacketWords.packetStream());
    /** DESC_ERROR, FETCH_ERROR, FENCE_TIMEOUT and SEND_DONE events. */
    public final Decoupled<EventReq> events = output(Decoupled.of(EventReq::new));
    /** An answer to a request of this VP reached an MPQ or was dropped there (fence accounting). */
    public final Valid<UInt> answered = input(Valid.of(UInt(6)));
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    public final UInt fenceTimeout = input(UInt(16));
    public final UInt cplTimeout = input(UInt(32));
    /** The receive side's look-ups of the host's MPQ and EQ rings. */
    public final QueueLookup mpq = output(new QueueLookup());
    public final QueueLookup eq = output(new QueueLookup());
    /** One-cycle pulses for the NIC's counters and fault inputs. */
    public final Bool descriptorSent = output(Bool());
    public final Bool descError = output(Bool());
    public final Bool fetchError = output(Bool());
    public final Bool fenceExpired = output(Bool());
    public final Bool doorbellError = output(Bool());
    public final Bool hdqOverflow = output(Bool());
    public final Bool badWrite = output(Bool());
    public final Bool staleCpl = output(Bool());
    public final Bool reqSent = output(Bool());
    public final Bool rspSent = output(Bool());
    /** Per-VP state for the register map: parked by a fence, answers outstanding, descriptor queue indexes, host heads. */
    public final UInt parked;
    public final Vec<UInt> outstanding;
    public final Vec<UInt> tail;
    public final Vec<UInt> head;
    public final Vec<UInt> mpqHead;
    public final Vec<UInt> eqHead;

    public final VpQueues queues;
    public final DescArbiter arbiter;
    public final DescFetch fetch;
    public final DescDispatch dispatch;
    public final MpSendUnit sendUnit;
    public final SendArbiter sendArbiter;

    /**
     * @param vps  virtual ports
     * @param tags descriptor reads in flight at once
     */
    public SendPath(int vps, int tags) {
        parked = output(UInt(vps));
        outstanding = output(Vec(vps, () -> UInt(DescDispatch.OUTSTANDING_BITS)));
        tail = output(Vec(vps, () -> UInt(NicHost.INDEX_BITS)));
        head = output(Vec(vps, () -> UInt(NicHost.INDEX_BITS)));
        mpqHead = output(Vec(vps, () -> UInt(NicHost.INDEX_BITS)));
        eqHead = output(Vec(vps, () -> UInt(NicHost.INDEX_BITS)));
        queues = instance(new VpQueues(vps));
        arbiter = instance(new DescArbiter(vps));
        fetch = instance(new DescFetch(tags));
        dispatch = instance(new DescDispatch(vps));
        sendUnit = instance(new MpSendUnit());
        sendArbiter = instance(new SendArbiter(2));

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
        sendUnit.in.connect(dispatch.toSend);
        sendUnit.chipId.assign(chipId);
        sendArbiter.req.connect(sendUnit.out);
        sendArbiter.rsp.connect(rsp);
        linkOut.connect(sendArbiter.linkOut);
        RRArbiter<EventReq> ev = instance(new RRArbiter<>(EventReq::new, 2));
        ev.in.get(0).connect(dispatch.events);
        ev.in.get(1).connect(sendUnit.events);
        events.connect(ev.out);
        mpq.connect(queues.mpq);
        eq.connect(queues.eq);

        descriptorSent.assign(dispatch.toSend.fire());
        descError.assign(dispatch.descError);
        fetchError.assign(dispatch.fetchError);
        fenceExpired.assign(dispatch.fenceExpired);
        doorbellError.assign(queues.doorbellError);
        hdqOverflow.assign(queues.hdqOverflow);
        badWrite.assign(queues.badWrite);
        staleCpl.assign(fetch.staleCpl);
        reqSent.assign(sendArbiter.reqSent);
        rspSent.assign(sendArbiter.rspSent);
        parked.assign(dispatch.parked);
        outstanding.assign(dispatch.outstanding);
        tail.assign(queues.tail);
        head.assign(queues.head);
        mpqHead.assign(queues.mpqHead);
        eqHead.assign(queues.eqHead);
    }
}
