package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.receive.CompletionRing;
import org.flitkit.rtl.chpp.receive.CompletionRingParams;
import org.flitkit.rtl.chpp.receive.QpKeyWrite;
import org.flitkit.rtl.chpp.receive.ReceiveEngine;
import org.flitkit.rtl.chpp.send.DoorbellWindow;
import org.flitkit.rtl.chpp.send.SendEngine;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.rtl.chpp.upload.BufferParams;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * One processor's cHPP DMA engine (paper section 4, figure 11): the BAR (doorbell windows, ring, key and buffer
 * registers), the send and receive engines, a send and a receive completion ring per local QP, and one PCIe port
 * shared through the {@link PcieArbiter} with the central tag allocator. Packets leave on {@link #tx} and
 * {@link #txGet} toward the intra-DMA crossbar or a {@link ChppCable} and arrive on {@link #rx} (and GETs on
 * their own VC on {@link #rxGet}). docs/chpp-nic.md.
 */
public final class DmaEngine extends Module {
    /** Local QPs: 8 functions x 4 QPs, one send and one receive ring each. */
    public static final int QPS = QpKeyWrite.LOCAL_QPS;
    /** The paper's Max_Payload_Size (PcieParams.chpp()): the upload writes' largest size. */
    public static final int DEFAULT_MAX_PAYLOAD = 128;
    /** Entries of every completion ring (the paper gives no size). */
    public static final int DEFAULT_RING_ENTRIES = 64;

    public final Decoupled<MmioWrite> mmio;
    public final Decoupled<DmaRequest> dmaRq;
    public final Decoupled<DmaCompletion> dmaCpl;
    public final Decoupled<PacketBeat> tx;
    public final Decoupled<PacketBeat> txGet;
    public final Decoupled<PacketBeat> rx;
    /**
     * GET packets on their own stream (a network GET VC, {@link ChppCable} with {@code getOwnVc}): taken only when
     * the GET path can hold a whole GET, so PUTs on {@link #rx} never wait behind a stalled GET. Tie it idle where
     * GETs arrive on {@link #rx}. docs/chpp-network.md.
     */
    public final Decoupled<PacketBeat> rxGet;

    public final DoorbellWindow window;
    public final SendEngine send;
    public final ReceiveEngine receive;
    public final CompletionRing sendRing;
    public final CompletionRing receiveRing;
    public final PcieArbiter pcie;

    /** The paper's sizes with {@code sp}'s processor, MTU and read size. */
    public DmaEngine(SendEngineParams sp) {
        this(ChppParams.paper(), sp, BufferParams.defaults().withMaxReadRequest(sp.maxReadRequest()), DEFAULT_RING_ENTRIES, DEFAULT_MAX_PAYLOAD);
    }

    /** {@code ringEntries}: entries of every completion ring; {@code maxPayload}: PCIe Max_Payload_Size. */
    public DmaEngine(ChppParams p, SendEngineParams sp, BufferParams bp, int ringEntries, int maxPayload) {
        window = instance("window", new DoorbellWindow(Math.min(p.functions(), Chpp.FUNCTIONS)));
        send = instance("send", new SendEngine(p, sp));
        receive = instance("receive", new ReceiveEngine(p, bp, maxPayload));
        sendRing = instance("sendRing", new CompletionRing(new CompletionRingParams(ringEntries, ChppRegisters.SEND_RING), QPS));
        receiveRing = instance("receiveRing", new CompletionRing(new CompletionRingParams(ringEntries, ChppRegisters.RECEIVE_RING), QPS));
        // readers: descriptor read, data read, buffer management; writers: PUT upload, NAP upload, the two rings
        pcie = instance("pcie", new PcieArbiter(p, 3, 4));

        mmio = input(Decoupled.of(MmioWrite::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        tx = output(Decoupled.of(PacketBeat::new));
        txGet = output(Decoupled.of(PacketBeat::new));
        rx = input(Decoupled.of(PacketBeat::new));
        rxGet = input(Decoupled.of(PacketBeat::new));

        // every register block takes the BAR writes it decodes and ignores the rest
        mmio.ready.assign(TRUE());
        for (Decoupled<MmioWrite> m : java.util.List.of(window.mmio, sendRing.mmio, receiveRing.mmio, receive.mmio)) {
            m.valid.assign(mmio.valid);
            m.bits.assign(mmio.bits);
        }
        send.doorbell.connect(window.doorbell);
        Bool keyWr = mmio.valid.and(mmio.bits.addr.ge(ChppRegisters.QP_KEY))
                .and(mmio.bits.addr.lt(ChppRegisters.QP_KEY + ChppRegisters.QP_KEY_STRIDE * QPS))
                .and(mmio.bits.addr.bits(2, 0).eq(0));
        receive.keyWrite.valid.assign(keyWr);
        receive.keyWrite.bits.qp.assign(mmio.bits.addr.sub(ChppRegisters.QP_KEY).shr(3).trunc(QpKeyWrite.QP_INDEX_BITS));
        receive.keyWrite.bits.key.assign(mmio.bits.data.bits(Chpp.QP_MAGIC_BITS - 1, 0));
        receive.keyWrite.bits.enable.assign(mmio.bits.data.bit(Chpp.QP_MAGIC_BITS));

        tx.connect(send.packets);
        txGet.connect(send.getPackets);
        receive.packets.connect(rx);
        receive.gets.connect(rxGet);
        send.answer.connect(receive.answer);
        sendRing.in.connect(send.event);
        receiveRing.in.connect(receive.event);

        reader(0, send.descRq, send.descCpl, send.descTag, send.descTagRelease, send.descTagTimedOut);
        reader(1, send.dataRq, send.dataCpl, send.dataTag, send.dataTagRelease, send.dataTagTimedOut);
        reader(2, receive.bufRq, receive.bufCpl, receive.bufTag, receive.bufTagRelease, receive.bufTagTimedOut);
        pcie.writeRq.get(0).connect(receive.putRq);
        pcie.writeRq.get(1).connect(receive.napRq);
        pcie.writeRq.get(2).connect(sendRing.dmaRq);
        pcie.writeRq.get(3).connect(receiveRing.dmaRq);
        dmaRq.connect(pcie.dmaRq);
        pcie.dmaCpl.connect(dmaCpl);
    }

    private void reader(int i, Decoupled<DmaRequest> rq, Decoupled<DmaCompletion> cpl, Decoupled<UInt> tag,
            Valid<TagRelease> release, Valid<UInt> timedOut) {
        pcie.readRq.get(i).connect(rq);
        cpl.connect(pcie.readCpl.get(i));
        tag.connect(pcie.tag.get(i));
        pcie.tagRelease.get(i).connect(release);
        timedOut.connect(pcie.tagTimedOut.get(i));
    }
}
