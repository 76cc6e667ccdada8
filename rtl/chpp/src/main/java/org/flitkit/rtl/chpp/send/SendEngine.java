package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.PacketGate;
import org.flitkit.rtl.chpp.PcieArbiter;
import org.flitkit.rtl.chpp.TagRelease;
import org.flitkit.rtl.chpp.receive.CompletionRing;
import org.flitkit.rtl.chpp.receive.RingEntry;
import org.flitkit.rtl.chpp.upload.GetAnswer;
import org.flitkit.rtl.chpp.xbar.DmaCrossbar;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.DescriptorLayouts;
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
import org.flitkit.rtl.pcie.Pcie;

/**
 * The DMA send engine (paper section 4.1, figure 12): doorbell module and function arbiter, descriptor read and
 * extract (which also takes the PUT descriptors the receive engine makes of remote GETs), data read, extract and
 * reorder, packer; PUT and NAP packets to the crossbar, GET packets to its GET path, send completions out.
 * docs/chpp-nic.md, "Send engine".
 */
public final class SendEngine extends Module {
    /** Source segments held between extract and the data stages: a chain has at most 254 (sources + destinations <= 255). */
    public static final int SOURCE_FIFO_DEPTH = Chpp.MAX_SEGMENTS - 1;

    /** Doorbells from the doorbell window. */
    public final Valid<FunctionDoorbell> doorbell;
    /** PUT descriptors answering remote GETs ({@link GetAnswer#out}). */
    public final Decoupled<DescriptorBeat> answer;
    /** PUT and NAP packets toward {@code DmaCrossbar.in}. */
    public final Decoupled<PacketBeat> packets;
    /** GET packets toward {@code DmaCrossbar.getIn}. */
    public final Decoupled<PacketBeat> getPackets;
    /** Send completion entries with their ring (the local QP), toward the send {@link CompletionRing}. */
    public final Decoupled<RingEntry> event;

    /** Descriptor read's PCIe reader ports (see {@link PcieArbiter}). */
    public final Decoupled<DmaRequest> descRq;
    public final Decoupled<DmaCompletion> descCpl;
    public final Decoupled<UInt> descTag;
    public final Valid<TagRelease> descTagRelease;
    public final Valid<UInt> descTagTimedOut;
    /** The data stages' PCIe reader ports. */
    public final Decoupled<DmaRequest> dataRq;
    public final Decoupled<DmaCompletion> dataCpl;
    public final Decoupled<UInt> dataTag;
    public final Valid<TagRelease> dataTagRelease;
    public final Valid<UInt> dataTagTimedOut;

    /** Beats of a GET packet (header + 32-byte descriptor) and of the GET packet queue before {@link #getPackets}. */
    public static final int GET_PACKET_BEATS = 3;
    public static final int GET_QUEUE_BEATS = 2 * GET_PACKET_BEATS;

    public final DoorbellFront front;
    public final DescriptorRead read;
    public final DescriptorExtract extract;
    public final DataStages data;
    public final Packer packer;
    public final Queue<PacketBeat> getQueue;

    public SendEngine(ChppParams p, SendEngineParams sp) {
        int tb = p.tagBits();
        front = instance("front", new DoorbellFront(p));
        read = instance("descriptorRead", new DescriptorRead(p, sp));
        extract = instance("descriptorExtract", new DescriptorExtract(p, sp));
        data = instance("data", new DataStages(p, sp));
        packer = instance("packer", new Packer(sp));

        doorbell = input(Valid.of(FunctionDoorbell::new));
        answer = input(Decoupled.of(DescriptorBeat::new));
        packets = output(Decoupled.of(PacketBeat::new));
        getPackets = output(Decoupled.of(PacketBeat::new));
        event = output(Decoupled.of(RingEntry::new));
        descRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        descCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        descTag = input(Decoupled.of(() -> UInt(tb)));
        descTagRelease = output(Valid.of(TagRelease::new));
        descTagTimedOut = input(Valid.of(UInt(tb)));
        dataRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dataCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        dataTag = input(Decoupled.of(() -> UInt(tb)));
        dataTagRelease = output(Valid.of(TagRelease::new));
        dataTagTimedOut = input(Valid.of(UInt(tb)));

        front.write.connect(doorbell);
        read.doorbell.connect(front.out);
        descRq.connect(read.dmaRq);
        read.dmaCpl.connect(descCpl);
        read.tag.connect(descTag);
        descTagRelease.connect(read.tagRelease);
        read.tagTimedOut.connect(descTagTimedOut);

        // descriptors fetched for local doorbells and descriptors made of remote GETs share the extract stage,
        // each descriptor whole
        RRArbiter<DescriptorBeat> descriptors = instance("descriptors",
                new RRArbiter<>(DescriptorBeat::new, 2, Lock.until(b -> b.last)));
        // A local GET descriptor enters extract only when extract is free and the GET queue can hold its whole packet:
        // extract then never blocks on the network's GET VC, so the PUT descriptors answering remote GETs always get
        // through (else two engines each stuck sending a GET to the other stop answering each other's GETs: the
        // GET-GET cycle that survives a separate GET VC). docs/chpp-network.md.
        getQueue = instance("getQueue", new Queue<>(PacketBeat::new, GET_QUEUE_BEATS, false, true));
        Bool isGet = DescriptorExtract.field(read.out.bits.data, DescriptorLayouts.GET.KIND, 0).eq(DescKind.GET.code());
        Bool getGo = getQueue.count.le(GET_QUEUE_BEATS - GET_PACKET_BEATS).and(extract.in.ready);
        PacketGate.connect(descriptors.in.get(0), read.out, isGet.not().or(getGo), read.out.bits.last, "readMid");
        descriptors.in.get(1).connect(answer);
        extract.in.connect(descriptors.out);

        // extract hands a chain's sources out before its destinations, and the data stages take a source only when
        // their buffer has room, which the packer frees only with the destinations in hand: a FIFO that holds every
        // source of one descriptor lets extract reach the destinations (the paper's source-information FIFO, 4.1)
        // (flow-through: an empty FIFO costs no cycle)
        Queue<SegmentBeat> sources = instance("sourceFifo", new Queue<>(SegmentBeat::new, SOURCE_FIFO_DEPTH, false, true));
        sources.enq.connect(extract.src);
        data.src.connect(sources.deq);
        dataRq.connect(data.dmaRq);
        data.dmaCpl.connect(dataCpl);
        data.tag.connect(dataTag);
        dataTagRelease.connect(data.tagRelease);
        data.tagTimedOut.connect(dataTagTimedOut);

        packer.control.connect(extract.control);
        packer.dst.connect(extract.dst);
        packer.napData.connect(extract.napData);
        packer.data.connect(data.out);
        packets.connect(packer.out);
        getQueue.enq.connect(extract.get);
        getPackets.connect(getQueue.deq);

        RRArbiter<SendCompletionEvent> events = instance("events", new RRArbiter<>(SendCompletionEvent::new, 2));
        events.in.get(0).connect(extract.event);
        events.in.get(1).connect(packer.event);
        SendCompletionEntry entry = instance("entry", new SendCompletionEntry());
        entry.in.connect(events.out);
        event.valid.assign(entry.out.valid);
        event.bits.entry.assign(entry.out.bits);
        // the send ring of the event's local QP; the entry itself names only the QP
        event.bits.ring.assign(cat(events.out.bits.function.bits(2, 0), events.out.bits.qp));
        entry.out.ready.assign(event.ready);
    }
}
