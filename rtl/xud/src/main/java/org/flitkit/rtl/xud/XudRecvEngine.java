package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.formats.xud.XudFormat.*;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Arbiter;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.xud.XudPorts.DmaWrite;
import org.flitkit.rtl.xud.XudPorts.QpCreate;
import org.flitkit.rtl.xud.XudPorts.RecvWqe;

/**
 * The XUD receive engine and its acknowledgement mechanism (paper section 2.2): checks the ICRC, the opcode
 * and the length (and that the QP exists); on failure answers a NAK with its code; on success takes the
 * QP's next receive request, writes the data to its buffer and a CQE holding a copy of the 16-byte XUDETH.
 * Every packet gets an answer whose AETH MSN is the received PSN; there is no loss, duplicate or order
 * detection here (that is the software's job, section 3). No receive request posted: an RNR NAK.
 *
 * <p>Host writes leave on one stream, each message's data before its CQE, so a host that sees the CQE
 * sees the data.
 */
public final class XudRecvEngine extends Module {
    public final Valid<QpCreate> create = input(XudPorts.qpCreate());
    public final Decoupled<UInt> pktIn = input(XudPorts.packetStream());
    public final Decoupled<RecvWqe> postRecv = input(Decoupled.of(RecvWqe::new));
    public final Decoupled<UInt> ackOut = output(XudPorts.packetStream());
    public final Decoupled<DmaWrite> dma = output(Decoupled.of(DmaWrite::new));
    public final UInt lid = input(UInt(16));
    /** Messages delivered to a receive request, NAKs sent (bad ICRC, opcode, length or QP), RNR NAKs sent. */
    public final UInt delivered = output(UInt(32));
    public final UInt naks = output(UInt(32));
    public final UInt rnrNaks = output(UInt(32));

    public final XudParams params;

    /** Receive queues: one ring per QP in a shared memory, head and tail with a wrap bit. */
    private final Mem<UInt> rq;
    private final Vec<UInt> rqHead;
    private final Vec<UInt> rqTail;
    private final int rqLog;

    public XudRecvEngine(XudParams p) {
        this.params = p;
        rqLog = Bitwise.log2Ceil(p.rqDepth());
        UInt qpEnabled = XudPorts.qpEnables(create, p);
        rq = mem(p.qps() * p.rqDepth(), UInt(64 + 32));
        rqHead = regInit(Vec(p.qps(), () -> UInt(rqLog + 1)), 0);
        rqTail = regInit(Vec(p.qps(), () -> UInt(rqLog + 1)), 0);
        postReceives();

        UInt pkt = pktIn.bits;
        UInt qpn = LayoutBits.get(pkt, DEST_QP);
        UInt qp = qpn.bits(p.qpBits() - 1, 0);
        UInt head = rqHead.at(qp);
        Bool rqEmpty = head.eq(rqTail.at(qp));
        Verdict v = check(qpn.lt(p.qps()).and(qpEnabled.bit(qp)), rqEmpty);
        Bool deliver = v.deliver();
        UInt syndrome = v.syndrome();
        UInt byteLen = v.byteLen();

        Queue<UInt> ackQ = instance("ackQ", new Queue<>(() -> UInt(CONTAINER_BITS), 2));
        Queue<DmaWrite> dataQ = instance("dataQ", new Queue<>(DmaWrite::new, 2));
        Queue<UInt> cqQ = instance("cqQ", new Queue<>(() -> UInt(CQE_BITS), 2));
        ackOut.connect(ackQ.deq);
        pktIn.ready.assign(ackQ.enq.ready.and(deliver.not().or(dataQ.enq.ready.and(cqQ.enq.ready))));
        Bool accept = pktIn.fire().and(deliver).named("accept");
        ackQ.enq.valid.assign(pktIn.fire());
        ackQ.enq.bits.assign(ack(pkt, syndrome));

        UInt rqe = rq.read(rqIndex(qp, head, rqLog));
        dataQ.enq.valid.assign(accept.and(byteLen.ne(0)));
        dataQ.enq.bits.addr.assign(rqe.bits(95, 32));
        dataQ.enq.bits.data.assign(LayoutBits.byteReverse(LayoutBits.get(pkt, PAYLOAD)));
        dataQ.enq.bits.len.assign(byteLen);
        cqQ.enq.valid.assign(accept);
        cqQ.enq.bits.assign(recvCqe(pkt, rqe.bits(31, 0), byteLen));
        when(accept, () -> rqHead.write(qp, head.add(1)));

        // data before its CQE: the data queue has priority and was filled no later
        CqWriter cq = instance("cq", new CqWriter(p.recvCqBase(), p.cqDepth()));
        cq.in.connect(cqQ.deq);
        Arbiter<DmaWrite> order = instance("order", new Arbiter<>(DmaWrite::new, 2));
        order.in.get(0).connect(dataQ.deq);
        order.in.get(1).connect(cq.out);
        dma.connect(order.out);

        delivered.assign(Counter.enabled(accept, 1L << 32).named("deliveredCount").value);
        naks.assign(Counter.enabled(pktIn.fire().and(syndrome.bits(7, 5).eq(SYN_NAK >> 5)), 1L << 32).named("nakCount").value);
        rnrNaks.assign(Counter.enabled(pktIn.fire().and(syndrome.eq(SYN_RNR)), 1L << 32).named("rnrNakCount").value);
    }

    /** What the checks make of the packet at the head of {@code pktIn}: deliver it or not, its answer's syndrome, its length. */
    private record Verdict(Bool deliver, UInt syndrome, UInt byteLen) {
    }

    /**
     * The packet's checks, a bad ICRC first (then nothing else in the packet can be trusted), then opcode, length and
     * QP ({@code qpOk}); a good packet for an empty receive queue ({@code rqEmpty}) gets an RNR NAK (section 2.2).
     */
    private Verdict check(Bool qpOk, Bool rqEmpty) {
        UInt pkt = pktIn.bits;
        UInt pktLen = LayoutBits.get(pkt, PKT_LEN);
        UInt padCnt = LayoutBits.get(pkt, PAD_CNT);
        Bool crcOk = IcrcHw.of(pkt).eq(LayoutBits.get(pkt, ICRC)).named("crcOk");
        Bool opOk = LayoutBits.get(pkt, OPCODE).eq(OP_XUD_SEND);
        Bool lenOk = pktLen.ge(DATA_HEADER_WORDS).and(pktLen.le(DATA_HEADER_WORDS + MTU_BYTES / 4))
                .and(pktLen.eq(DATA_HEADER_WORDS).and(padCnt.ne(0)).not()).named("lenOk");
        Bool deliver = crcOk.and(opOk).and(lenOk).and(qpOk).and(rqEmpty.not()).named("deliver");
        UInt syndrome = mux(crcOk.not(), lit(SYN_NAK | NAK_REMOTE_OP_ERROR, 8),
                mux(opOk.and(lenOk).and(qpOk).not(), lit(SYN_NAK | NAK_INVALID_REQUEST, 8),
                        mux(rqEmpty, lit(SYN_RNR, 8), lit(SYN_ACK, 8)))).named("syndrome");
        UInt byteLen = pktLen.sub(DATA_HEADER_WORDS).bits(3, 0).cat(lit(0, 2)).pad(6).sub(padCnt.pad(6)).named("byteLen");
        return new Verdict(deliver, syndrome, byteLen);
    }

    /** A receive request goes to the tail of its QP's ring; one for a QP out of range is taken and ignored. */
    private void postReceives() {
        Bool postInRange = postRecv.bits.qp.lt(params.qps());
        UInt postQp = postRecv.bits.qp.bits(params.qpBits() - 1, 0);
        UInt postTail = rqTail.at(postQp);
        Bool rqFull = postTail.sub(rqHead.at(postQp)).eq(params.rqDepth());
        postRecv.ready.assign(postInRange.not().or(rqFull.not()));
        when(postRecv.fire().and(postInRange), () -> {
            rq.write(rqIndex(postQp, postTail, rqLog), cat(postRecv.bits.addr, postRecv.bits.wrId));
            rqTail.write(postQp, postTail.add(1));
        });
    }

    /** The receive CQE of a delivered packet: a copy of its XUDETH, the request's wr_id, length, SLID, QP and PSN. */
    private static UInt recvCqe(UInt pkt, UInt wrId, UInt byteLen) {
        UInt w = lit(0, CQE_BITS);
        w = LayoutBits.with(w, RCQE_XUDETH, LayoutBits.byteReverse(LayoutBits.get(pkt, XUDETH)));
        w = LayoutBits.with(w, RCQE_WR_ID, wrId);
        w = LayoutBits.with(w, RCQE_BYTE_LEN, byteLen);
        w = LayoutBits.with(w, RCQE_SLID, LayoutBits.get(pkt, SLID));
        w = LayoutBits.with(w, RCQE_QP, LayoutBits.get(pkt, DEST_QP).bits(7, 0));
        return LayoutBits.with(w, RCQE_PSN, LayoutBits.get(pkt, PSN));
    }

    private static UInt rqIndex(UInt qp, UInt ptr, int rqLog) {
        return rqLog == 0 ? qp : cat(qp, ptr.bits(rqLog - 1, 0));
    }

    private UInt ack(UInt pkt, UInt syndrome) {
        UInt psn = LayoutBits.get(pkt, PSN);
        UInt a = lit(0, CONTAINER_BITS);
        a = LayoutBits.with(a, LNH, LNH_IBA_LOCAL);
        a = LayoutBits.with(a, DLID, LayoutBits.get(pkt, SLID));
        a = LayoutBits.with(a, PKT_LEN, ACK_WORDS);
        a = LayoutBits.with(a, SLID, lid);
        a = LayoutBits.with(a, OPCODE, OP_XUD_ACK);
        a = LayoutBits.with(a, P_KEY, DEFAULT_P_KEY);
        a = LayoutBits.with(a, DEST_QP, LayoutBits.get(pkt, SRC_QP));
        a = LayoutBits.with(a, PSN, psn);
        a = LayoutBits.with(a, SYNDROME, syndrome);
        a = LayoutBits.with(a, MSN, psn);
        return LayoutBits.with(a, ICRC, IcrcHw.of(a)).named("ack");
    }
}
