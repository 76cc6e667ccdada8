package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.formats.xud.XudFormat.*;
import java.math.BigInteger;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.xud.XudPorts.QpCreate;
import org.flitkit.rtl.xud.XudPorts.SendWqe;

/**
 * The XUD send engine: per-QP PSN generation ({@code (cur_psn + 1) mod 2^24}), the in-flight table, ACK/NAK
 * matching ({@code MSN == PSN} of an in-flight message completes it with the AETH's status) and timeout
 * completions. Paper section 2.1 (PSN) and 2.3 (the three ways a send completes). One request, one ACK and
 * one timeout are handled per cycle; completions leave in priority ACK, timeout, local error.
 *
 * <p>The in-flight table is direct-mapped: PSN p of QP q lives in slot {@code q * slotsPerQp + p mod
 * slotsPerQp}, so an ACK finds its entry with one read and sending stalls while the slot still holds
 * p - slotsPerQp. Timeouts need no per-entry counter: every timeout has the same length, so entries expire in
 * send order and one FIFO of (slot, PSN, send time) checked at its head replaces a timer per entry; a head
 * whose slot was already completed by its ACK (or reused) is dropped silently.
 */
public final class XudSendEngine extends Module {
    private static final int TIME_BITS = 32;

    public final Valid<QpCreate> create = input(XudPorts.qpCreate());
    public final Decoupled<SendWqe> wqe = input(Decoupled.of(SendWqe::new));
    public final Decoupled<UInt> pktOut = output(XudPorts.packetStream());
    public final Decoupled<UInt> ackIn = input(XudPorts.packetStream());
    /** Send CQEs without their owner bit (the {@link CqWriter} adds it). */
    public final Decoupled<UInt> cqe = output(XudPorts.cqeStream());
    /** This adapter's LID (the SLID of every packet). */
    public final UInt lid = input(UInt(16));
    /** Packets sent, timeout completions, and ACKs that matched no in-flight PSN (late, duplicated or corrupted). */
    public final UInt sent = output(UInt(32));
    public final UInt timeouts = output(UInt(32));
    public final UInt staleAcks = output(UInt(32));

    public final XudParams params;

    /** Per-QP {@code cur_psn}, set at creation and advanced by every send. */
    private final Vec<UInt> curPsn;
    /** In-flight table: a valid bit per slot (three may change per cycle), PSN and wr_id in a memory. */
    private final UInt inflightValid;
    private final Mem<UInt> inflight;
    /** Cycles since reset, and the (slot, PSN, send time) of every packet in send order: the timeouts. */
    private final UInt now;
    private final Queue<UInt> timers;
    private final Queue<UInt> pktQ;
    private final Queue<UInt> cqQ;

    public XudSendEngine(XudParams p) {
        this.params = p;
        int slots = p.qps() * p.slotsPerQp();
        curPsn = regInit(Vec(p.qps(), () -> UInt(PSN_BITS)), 0);
        UInt qpEnabled = XudPorts.qpEnables(create, p);
        when(create.valid.and(create.bits.qp.lt(p.qps())), () -> curPsn.write(create.bits.qp.bits(p.qpBits() - 1, 0), create.bits.initPsn));
        inflightValid = regInit(UInt(slots), 0);
        inflight = mem(slots, UInt(PSN_BITS + 32));
        now = Counter.enabled(TRUE(), 1L << TIME_BITS).named("now").value;
        timers = instance("timers", new Queue<>(() -> UInt(p.qpBits() + p.slotBits() + PSN_BITS + TIME_BITS), p.timeoutFifoDepth()));
        pktQ = instance("pktQ", new Queue<>(() -> UInt(CONTAINER_BITS), 2));
        cqQ = instance("cqQ", new Queue<>(() -> UInt(CQE_BITS), 2));
        pktOut.connect(pktQ.deq);
        cqe.connect(cqQ.deq);

        Send send = send(qpEnabled);
        Completion ack = acknowledgement();
        Completion timeout = timeout(ack.complete());
        // a local error completes at once, when neither an ACK nor a timeout takes the completion port
        Bool errComplete = wqe.valid.and(send.localErr()).and(ack.complete().not()).and(timeout.complete().not());
        wqe.ready.assign(send.fire().or(errComplete.and(cqQ.enq.ready)));
        UInt errStatus = mux(send.qpOk(), lit(SendStatus.LOCAL_LENGTH_ERROR.code(), 8), lit(SendStatus.LOCAL_QP_ERROR.code(), 8));
        UInt errCqe = sendCqe(wqe.bits.wrId, errStatus, lit(0, 8), wqe.bits.qp, lit(0, PSN_BITS));
        cqQ.enq.valid.assign(ack.complete().or(timeout.complete()).or(errComplete));
        cqQ.enq.bits.assign(mux(ack.complete(), ack.cqe(), mux(timeout.complete(), timeout.cqe(), errCqe)));

        inflightValid.assign(inflightValid.and(slotBit(ack.clears(), ack.slot(), slots).or(slotBit(timeout.clears(), timeout.slot(), slots)).not())
                .or(slotBit(send.fire(), send.slot(), slots)));
        sent.assign(Counter.enabled(send.fire(), 1L << 32).named("sentCount").value);
        timeouts.assign(Counter.enabled(timeout.clears(), 1L << 32).named("timeoutCount").value);
        // an ACK taken that clears nothing matched no in-flight PSN
        staleAcks.assign(Counter.enabled(ackIn.fire().and(ack.clears().not()), 1L << 32).named("staleAckCount").value);
    }

    /** A send request's checks and, when it passes them, its PSN: {@code fire} when it leaves as a packet into {@code slot}. */
    private record Send(Bool fire, UInt slot, Bool qpOk, Bool localErr) {
    }

    /**
     * What an ACK or a timeout completes: {@code complete} offers {@code cqe} to the completion port, {@code clears}
     * frees the in-flight {@code slot}.
     */
    private record Completion(Bool complete, UInt cqe, Bool clears, UInt slot) {
    }

    /** Checks, PSN and packet of the send request at the head of {@code wqe} (paper section 2.1). */
    private Send send(UInt qpEnabled) {
        UInt wqeQp = wqe.bits.qp.bits(params.qpBits() - 1, 0);
        Bool qpOk = wqe.bits.qp.lt(params.qps()).and(qpEnabled.bit(wqeQp));
        Bool localErr = qpOk.and(wqe.bits.len.le(MTU_BYTES)).not();
        UInt nextPsn = curPsn.at(wqeQp).add(1).named("nextPsn");
        UInt sendSlot = cat(wqeQp, nextPsn.bits(params.slotBits() - 1, 0)).named("sendSlot");
        Bool sendFire = wqe.valid.and(localErr.not()).and(inflightValid.bit(sendSlot).not()).and(timers.enq.ready)
                .and(pktQ.enq.ready).named("sendFire");
        pktQ.enq.valid.assign(sendFire);
        pktQ.enq.bits.assign(dataPacket(wqe.bits, nextPsn));
        timers.enq.valid.assign(sendFire);
        timers.enq.bits.assign(cat(sendSlot, nextPsn, now));
        when(sendFire, () -> {
            curPsn.write(wqeQp, nextPsn);
            inflight.write(sendSlot, cat(nextPsn, wqe.bits.wrId));
        });
        return new Send(sendFire, sendSlot, qpOk, localErr);
    }

    /** An acknowledgement completes the in-flight message of the QP it names whose PSN is its MSN (paper section 2.3). */
    private Completion acknowledgement() {
        UInt ack = ackIn.bits;
        UInt msn = LayoutBits.get(ack, MSN);
        UInt ackQpn = LayoutBits.get(ack, DEST_QP);
        Bool ackOk = IcrcHw.of(ack).eq(LayoutBits.get(ack, ICRC)).and(LayoutBits.get(ack, OPCODE).eq(OP_XUD_ACK)).and(ackQpn.lt(params.qps()));
        UInt ackSlot = cat(ackQpn.bits(params.qpBits() - 1, 0), msn.bits(params.slotBits() - 1, 0)).named("ackSlot");
        UInt ackEntry = inflight.read(ackSlot);
        Bool ackHit = ackOk.and(inflightValid.bit(ackSlot)).and(entryPsn(ackEntry).eq(msn)).named("ackHit");
        ackIn.ready.assign(ackHit.not().or(cqQ.enq.ready));
        UInt syn = LayoutBits.get(ack, SYNDROME);
        UInt ackCqe = sendCqe(ackEntry.bits(31, 0), ackStatus(syn), syn, ackQpn.bits(7, 0), msn);
        return new Completion(ackIn.valid.and(ackHit), ackCqe, ackIn.fire().and(ackHit), ackSlot);
    }

    /**
     * The timeout FIFO's head: it expires {@code timeoutCycles} after its send and completes its message if that is
     * still in flight and no ACK takes the completion port ({@code ackComplete}); a completed or reused head is dropped.
     */
    private Completion timeout(Bool ackComplete) {
        UInt head = timers.deq.bits;
        UInt toSlot = head.bits(head.width() - 1, PSN_BITS + TIME_BITS);
        UInt toPsn = head.bits(PSN_BITS + TIME_BITS - 1, TIME_BITS);
        UInt sentAt = head.bits(TIME_BITS - 1, 0);
        Bool expired = timers.deq.valid.and(now.sub(sentAt).ge(params.timeoutCycles())).named("expired");
        UInt toEntry = inflight.read(toSlot);
        Bool live = inflightValid.bit(toSlot).and(entryPsn(toEntry).eq(toPsn));
        Bool toComplete = expired.and(live).and(ackComplete.not()).named("toComplete");
        timers.deq.ready.assign(expired.and(live.not().or(ackComplete.not().and(cqQ.enq.ready))));
        int qpLog = params.qpBits();
        int slotLog = params.slotBits();
        UInt toCqe = sendCqe(toEntry.bits(31, 0), lit(SendStatus.TIMEOUT.code(), 8), lit(0, 8), toSlot.bits(qpLog + slotLog - 1, slotLog).pad(8), toPsn);
        return new Completion(toComplete, toCqe, timers.deq.fire().and(live), toSlot);
    }

    /** The PSN of an in-flight table entry (PSN above the 32-bit wr_id). */
    private static UInt entryPsn(UInt entry) {
        return entry.bits(PSN_BITS + 31, 32);
    }

    /** The send status an AETH syndrome reports: its class in bits 7:5 (0 ACK, 1 RNR NAK, else NAK). */
    private static UInt ackStatus(UInt syndrome) {
        UInt synClass = syndrome.bits(7, 5);
        return mux(synClass.eq(0), lit(SendStatus.SUCCESS.code(), 8),
                mux(synClass.eq(1), lit(SendStatus.RNR_NAK.code(), 8), lit(SendStatus.NAK.code(), 8)));
    }

    /** Bit {@code slot} of a {@code slots}-bit mask when {@code on}, else no bit. */
    private static UInt slotBit(Bool on, UInt slot, int slots) {
        return mux(on, lit(1, slots).shlTrunc(slot), lit(0, slots));
    }

    private UInt dataPacket(SendWqe w, UInt psn) {
        UInt len = w.len.bits(5, 0);
        UInt payloadWords = len.addW(lit(3, 6)).bits(6, 2);
        // bytes past len are zero on the wire (and under the ICRC)
        UInt keep = lit(BigInteger.ONE.shiftLeft(8 * MTU_BYTES).subtract(BigInteger.ONE), 8 * MTU_BYTES)
                .shr(cat(lit(MTU_BYTES, 6).sub(len), lit(0, 3)));
        UInt pkt = lit(0, CONTAINER_BITS);
        pkt = LayoutBits.with(pkt, LNH, LNH_IBA_LOCAL);
        pkt = LayoutBits.with(pkt, DLID, w.dlid);
        pkt = LayoutBits.with(pkt, PKT_LEN, payloadWords.add(lit(DATA_HEADER_WORDS, 5)));
        pkt = LayoutBits.with(pkt, SLID, lid);
        pkt = LayoutBits.with(pkt, OPCODE, OP_XUD_SEND);
        pkt = LayoutBits.with(pkt, PAD_CNT, lit(0, 2).sub(len.bits(1, 0)));
        pkt = LayoutBits.with(pkt, P_KEY, DEFAULT_P_KEY);
        pkt = LayoutBits.with(pkt, DEST_QP, w.dqpn);
        pkt = LayoutBits.with(pkt, ACK_REQ, 1);
        pkt = LayoutBits.with(pkt, PSN, psn);
        pkt = LayoutBits.with(pkt, Q_KEY, w.qkey);
        pkt = LayoutBits.with(pkt, SRC_QP, w.qp);
        pkt = LayoutBits.with(pkt, WIN_ID, w.winId);
        pkt = LayoutBits.with(pkt, WIN_MSN, w.winMsn);
        pkt = LayoutBits.with(pkt, PAYLOAD, LayoutBits.byteReverse(w.data.and(keep)));
        return LayoutBits.with(pkt, ICRC, IcrcHw.of(pkt)).named("packet");
    }

    private static UInt sendCqe(UInt wrId, UInt status, UInt syndrome, UInt qp, UInt psn) {
        UInt w = lit(0, CQE_BITS);
        w = LayoutBits.with(w, SCQE_WR_ID, wrId);
        w = LayoutBits.with(w, SCQE_STATUS, status);
        w = LayoutBits.with(w, SCQE_SYNDROME, syndrome);
        w = LayoutBits.with(w, SCQE_QP, qp);
        return LayoutBits.with(w, SCQE_PSN, psn);
    }
}
