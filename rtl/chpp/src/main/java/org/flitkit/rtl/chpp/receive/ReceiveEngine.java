package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.PacketGate;
import org.flitkit.rtl.chpp.PcieArbiter;
import org.flitkit.rtl.chpp.TagRelease;
import org.flitkit.rtl.chpp.send.DescriptorBeat;
import org.flitkit.rtl.chpp.upload.BufferManagement;
import org.flitkit.rtl.chpp.upload.BufferParams;
import org.flitkit.rtl.chpp.upload.GetAnswer;
import org.flitkit.rtl.chpp.upload.NapUpload;
import org.flitkit.rtl.chpp.upload.PutUpload;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.chpp.CompletionLayouts;
import org.flitkit.formats.core.Field;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The DMA receive engine (paper section 4.2, figure 13): receive dispatch with the QPMagic check, PUT upload, NAP
 * upload into buffers from buffer management, GET packets turned into PUT descriptors for the send engine, and the
 * receive completions of all of them merged toward the receive ring. docs/chpp-nic.md, "Receive engine".
 */
public final class ReceiveEngine extends Module {
    /** Packets from the crossbar output of this engine (PUT and NAP; GETs too where they share the network's VC). */
    public final Decoupled<PacketBeat> packets;
    /**
     * GET packets on their own stream (the network's GET VC, paper figure 10): a packet here is taken only when the
     * GET path has room for a whole GET, so a stalled GET path never holds up the PUTs on {@link #packets}.
     */
    public final Decoupled<PacketBeat> gets;
    /** QPMagic key table writes. */
    public final Valid<QpKeyWrite> keyWrite;
    /** Host BAR writes (buffer management's list registers). */
    public final Decoupled<MmioWrite> mmio;
    /** PUT descriptors answering GETs, toward the send engine. */
    public final Decoupled<DescriptorBeat> answer;
    /** Receive completion entries with their ring (the DST_ID's local QP), toward the receive {@link CompletionRing}. */
    public final Decoupled<RingEntry> event;
    /** PUT and NAP upload writes (PCIe writers, see {@link PcieArbiter}). */
    public final Decoupled<DmaRequest> putRq;
    public final Decoupled<DmaRequest> napRq;
    /** Buffer management's PCIe reader ports. */
    public final Decoupled<DmaRequest> bufRq;
    public final Decoupled<DmaCompletion> bufCpl;
    public final Decoupled<UInt> bufTag;
    public final Valid<TagRelease> bufTagRelease;
    public final Valid<UInt> bufTagTimedOut;

    /** Beats of a well-formed GET packet: the header and the 32-byte descriptor. */
    public static final int GET_PACKET_BEATS = 3;
    /** The GET path's packet queue in front of {@link GetAnswer}: two whole GETs. */
    public static final int GET_QUEUE_BEATS = 2 * GET_PACKET_BEATS;

    /**
     * Cycles the dispatch held a GET the GET path could not take (saturating): every PUT or NAP behind it waited.
     * Stays 0 while GETs arrive only on {@link #gets} (the grant), not when they share {@link #packets}.
     */
    public final UInt getStalls;

    public final RRArbiter<PacketBeat> merge;
    public final Queue<PacketBeat> getQueue;
    public final ReceiveDispatch dispatch;
    public final PutUpload put;
    public final NapUpload nap;
    public final BufferManagement buffers;
    public final GetAnswer get;
    public final EventMerge events;

    /** {@code maxPayload}: PCIe Max_Payload_Size of the upload writes. */
    public ReceiveEngine(ChppParams p, BufferParams bp, int maxPayload) {
        int tb = p.tagBits();
        merge = instance("merge", new RRArbiter<>(PacketBeat::new, 2, Lock.until(b -> b.last)));
        getQueue = instance("getQueue", new Queue<>(PacketBeat::new, GET_QUEUE_BEATS, false, true));
        dispatch = instance("dispatch", new ReceiveDispatch());
        put = instance("putUpload", new PutUpload(maxPayload));
        nap = instance("napUpload", new NapUpload(maxPayload));
        buffers = instance("buffers", new BufferManagement(p, bp));
        get = instance("getAnswer", new GetAnswer());
        events = instance("events", new EventMerge(3));

        packets = input(Decoupled.of(PacketBeat::new));
        gets = input(Decoupled.of(PacketBeat::new));
        keyWrite = input(Valid.of(QpKeyWrite::new));
        mmio = input(Decoupled.of(MmioWrite::new));
        answer = output(Decoupled.of(DescriptorBeat::new));
        event = output(Decoupled.of(RingEntry::new));
        putRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        napRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        bufRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        bufCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        bufTag = input(Decoupled.of(() -> UInt(tb)));
        bufTagRelease = output(Valid.of(TagRelease::new));
        bufTagTimedOut = input(Valid.of(UInt(tb)));

        // rx and the GET stream share the dispatch, packet by packet. A packet from the GET stream is granted only
        // when the GET queue can hold a whole GET: dispatch then never stalls on it (nothing else fills the queue
        // while it passes), and PUTs on rx keep flowing while GETs wait in the network's GET VC.
        merge.in.get(0).connect(packets);
        Bool getRoom = getQueue.count.le(GET_QUEUE_BEATS - GET_PACKET_BEATS);
        PacketGate.connect(merge.in.get(1), gets, getRoom, gets.bits.last, "getMid");
        dispatch.in.connect(merge.out);
        getStalls = output(UInt(Counters.BITS));
        getStalls.assign(Counters.count(dispatch.getOut.valid.andNot(dispatch.getOut.ready), "getStallCount"));
        dispatch.keyWrite.connect(keyWrite);
        put.in.connect(dispatch.putOut);
        nap.in.connect(dispatch.napOut);
        getQueue.enq.connect(dispatch.getOut);
        get.in.connect(getQueue.deq);
        answer.connect(get.out);

        buffers.mmio.connect(mmio);
        nap.buffer.connect(buffers.out);
        nap.bufferPending.assign(buffers.refillPending);
        bufRq.connect(buffers.dmaRq);
        buffers.dmaCpl.connect(bufCpl);
        buffers.tag.connect(bufTag);
        bufTagRelease.connect(buffers.tagRelease);
        buffers.tagTimedOut.connect(bufTagTimedOut);
        putRq.connect(put.dmaRq);
        napRq.connect(nap.dmaRq);

        events.in.get(0).connect(dispatch.event);
        events.in.get(1).connect(put.event);
        events.in.get(2).connect(nap.event);
        event.valid.assign(events.out.valid);
        event.bits.entry.assign(events.out.bits);
        // the receive ring of the packet's destination QP: DST_ID's function and QP bits
        Field dst = CompletionLayouts.RECEIVE.DST_ID;
        event.bits.ring.assign(events.out.bits.bits(dst.lsb() + QpKeyWrite.QP_INDEX_BITS - 1, dst.lsb()));
        events.out.ready.assign(event.ready);
    }
}
