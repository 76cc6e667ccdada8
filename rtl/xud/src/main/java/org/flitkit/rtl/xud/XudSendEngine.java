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

    public XudSendEngine(XudParams p) {
        this.params = p;
        int qpLog = p.qpBits();
        int slotLog = p.slotBits();
        int slots = p.qps() * p.slotsPerQp();

        // ---- QP state: cur_psn and enable, set at creation
        Vec<UInt> curPsn = regInit(Vec(p.qps(), () -> UInt(PSN_BITS)), 0).named("cur_psn");
        UInt enabled = regInit(UInt(p.qps()), 0).named("qp_enabled");
        when(create.valid.and(create.bits.qp.lt(p.qps())), () -> {
            curPsn.write(create.bits.qp.bits(qpLog - 1, 0), create.bits.initPsn);
            enabled.assign(enabled.or(lit(1, p.qps()).shlTrunc(create.bits.qp.bits(qpLog - 1, 0))));
        });

        // ---- in-flight table: valid bits in a register (three may change per cycle), PSN and wr_id in a memory
        UInt valid = regInit(UInt(slots), 0).named("inflight_valid");
        Mem<UInt> table = mem(slots, UInt(PSN_BITS + 32)).named("inflight");
        UInt now = regInit(UInt(TIME_BITS), 0).named("now");
        now.assign(now.add(1));
        Queue<UInt> timers = instance("timers", new Queue<>(() -> UInt(qpLog + slotLog + PSN_BITS + TIME_BITS), p.timeoutFifoDepth()));
        Queue<UInt> pktQ = instance("pkt_q", new Queue<>(() -> UInt(CONTAINER_BITS), 2));
        Queue<UInt> cqQ = instance("cq_q", new Queue<>(() -> UInt(CQE_BITS), 2));
        pktOut.connect(pktQ.deq);
        cqe.connect(cqQ.deq);

        // ---- a send request: checks, PSN, packet
        UInt wqeQp = wqe.bits.qp.bits(qpLog - 1, 0);
        Bool qpOk = wqe.bits.qp.lt(p.qps()).and(enabled.bit(wqeQp));
        Bool lenOk = wqe.bits.len.le(MTU_BYTES);
        Bool localErr = qpOk.and(lenOk).not();
        UInt nextPsn = curPsn.at(wqeQp).add(1).named("next_psn");
        UInt sendSlot = cat(wqeQp, nextPsn.bits(slotLog - 1, 0)).named("send_slot");
        Bool slotBusy = valid.bit(sendSlot);
        Bool sendFire = wqe.valid.and(localErr.not()).and(slotBusy.not()).and(timers.enq.ready).and(pktQ.enq.ready).named("send_fire");
        pktQ.enq.valid.assign(sendFire);
        pktQ.enq.bits.assign(dataPacket(wqe.bits, nextPsn));
        timers.enq.valid.assign(sendFire);
        timers.enq.bits.assign(cat(sendSlot, nextPsn, now));
        when(sendFire, () -> {
            curPsn.write(wqeQp, nextPsn);
            table.write(sendSlot, cat(nextPsn, wqe.bits.wrId));
        });

        // ---- an acknowledgement: MSN == PSN of an in-flight message of the QP it names
        UInt ack = ackIn.bits;
        UInt msn = LayoutBits.get(ack, MSN);
        UInt ackQpn = LayoutBits.get(ack, DEST_QP);
        Bool ackOk = IcrcHw.of(ack).eq(LayoutBits.get(ack, ICRC)).and(LayoutBits.get(ack, OPCODE).eq(OP_XUD_ACK)).and(ackQpn.lt(p.qps()));
        UInt ackSlot = cat(ackQpn.bits(qpLog - 1, 0), msn.bits(slotLog - 1, 0)).named("ack_slot");
        UInt ackEntry = table.read(ackSlot);
        Bool ackHit = ackOk.and(valid.bit(ackSlot)).and(ackEntry.bits(PSN_BITS + 31, 32).eq(msn)).named("ack_hit");
        Bool ackComplete = ackIn.valid.and(ackHit);
        ackIn.ready.assign(ackHit.not().or(cqQ.enq.ready));
        UInt syn = LayoutBits.get(ack, SYNDROME);
        UInt synClass = syn.bits(7, 5);
        UInt ackStatus = mux(synClass.eq(0), lit(SendStatus.SUCCESS.code(), 8),
                mux(synClass.eq(1), lit(SendStatus.RNR_NAK.code(), 8), lit(SendStatus.NAK.code(), 8)));

        // ---- the timeout FIFO's head
        UInt head = timers.deq.bits;
        UInt toSlot = head.bits(head.width() - 1, PSN_BITS + TIME_BITS);
        UInt toPsn = head.bits(PSN_BITS + TIME_BITS - 1, TIME_BITS);
        UInt sentAt = head.bits(TIME_BITS - 1, 0);
        Bool expired = timers.deq.valid.and(now.sub(sentAt).ge(p.timeoutCycles())).named("expired");
        UInt toEntry = table.read(toSlot);
        Bool live = valid.bit(toSlot).and(toEntry.bits(PSN_BITS + 31, 32).eq(toPsn));
        Bool toComplete = expired.and(live).and(ackComplete.not()).named("timeout_fire");
        timers.deq.ready.assign(expired.and(live.not().or(ackComplete.not().and(cqQ.enq.ready))));

        // ---- a local error completes at once, when neither an ACK nor a timeout takes the completion port
        Bool errComplete = wqe.valid.and(localErr).and(ackComplete.not()).and(toComplete.not());
        wqe.ready.assign(sendFire.or(errComplete.and(cqQ.enq.ready)));

        UInt ackCqe = sendCqe(ackEntry.bits(31, 0), ackStatus, syn, ackQpn.bits(7, 0), msn);
        UInt toCqe = sendCqe(toEntry.bits(31, 0), lit(SendStatus.TIMEOUT.code(), 8), lit(0, 8), toSlot.bits(qpLog + slotLog - 1, slotLog).pad(8), toPsn);
        UInt errStatus = mux(qpOk, lit(SendStatus.LOCAL_LENGTH_ERROR.code(), 8), lit(SendStatus.LOCAL_QP_ERROR.code(), 8));
        UInt errCqe = sendCqe(wqe.bits.wrId, errStatus, lit(0, 8), wqe.bits.qp, lit(0, PSN_BITS));
        cqQ.enq.valid.assign(ackComplete.or(toComplete).or(errComplete));
        cqQ.enq.bits.assign(mux(ackComplete, ackCqe, mux(toComplete, toCqe, errCqe)));

        Bool ackClears = ackIn.fire().and(ackHit);
        Bool toClears = timers.deq.fire().and(live);
        UInt set = mux(sendFire, lit(1, slots).shlTrunc(sendSlot), lit(0, slots));
        UInt clearA = mux(ackClears, lit(1, slots).shlTrunc(ackSlot), lit(0, slots));
        UInt clearT = mux(toClears, lit(1, slots).shlTrunc(toSlot), lit(0, slots));
        valid.assign(valid.and(clearA.or(clearT).not()).or(set));

        sent.assign(counter(sendFire));
        timeouts.assign(counter(toClears));
        staleAcks.assign(counter(ackIn.fire().and(ackHit.not())));
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

    /** A 32-bit event counter (wraps). */
    static UInt counter(Bool event) {
        UInt c = regInit(UInt(32), 0);
        when(event, () -> c.assign(c.add(1)));
        return c;
    }
}
