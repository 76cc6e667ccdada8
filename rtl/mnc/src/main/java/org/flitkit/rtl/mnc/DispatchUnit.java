package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import java.util.HashMap;
import java.util.Map;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.SdmaJob;
import org.flitkit.rtl.mnc.MncPorts.SendRequest;

/**
 * The link dispatch unit of a node, the paper's software dispatch done in hardware (multi-rail paper,
 * section 2.3.2 and its outlook in section 3): per send request it picks the send link(s) from
 * {@code NICStatus} (FREE first, else round robin), for a long message asks the destination for its link
 * states (SReq) and picks the receive links from the SAck with the same rule, cuts the message into equal
 * chunks (8-byte aligned, the last one takes the rest) laid out alike at both ends (section 2.4), and queues
 * one SDMA job per chunk on different rails. It answers other nodes' SReqs with this node's states at once,
 * even while waiting for its own SAck, from a queue with room for every other node's. Short messages, and the static and one-direction policies, use one
 * link without SReq.
 */
public final class DispatchUnit extends Module {
    /**
     * IDLE (takes a request), SREQ (sending the status query), WAIT_SACK, HOST (software dispatch only: the host
     * library's time from SAck to posting), ISSUE (one chunk per cycle to the rails' SDMA queues).
     */
    public enum State { IDLE, SREQ, WAIT_SACK, HOST, ISSUE }

    public final Decoupled<SendRequest> req = input(Decoupled.of(SendRequest::new));
    /** This node's {@code NICStatus}: bit r set = rail r BUSY. */
    public final UInt status = input(UInt(4));
    public final Decoupled<Header> ctrlIn = input(Decoupled.of(Header::new));
    public final Decoupled<Header> ctrlOut = output(Decoupled.of(Header::new));
    public final Vec<Decoupled<SdmaJob>> jobs;
    public final UInt node = input(UInt(NODE_BITS));
    /** Messages striped over several rails, SReqs sent, SAcks answered. */
    public final UInt striped = output(UInt(32));
    public final UInt sreqs = output(UInt(32));
    public final UInt sacks = output(UInt(32));
    /** SAcks that came when none was awaited (dropped). */
    public final UInt staleSacks = output(UInt(32));
    public final Fsm<State> fsm;

    public DispatchUnit(MncParams p) {
        int n = p.rails();
        jobs = output(Vec(n, () -> Decoupled.of(SdmaJob::new)));
        fsm = new Fsm<>(State.class);
        SendRequest cur = regInit(new SendRequest(), 0).named("cur");
        Vec<UInt> sendLinks = regInit(Vec(n, () -> UInt(RAIL_BITS)), 0).named("send_links");
        Vec<UInt> recvLinks = regInit(Vec(n, () -> UInt(RAIL_BITS)), 0).named("recv_links");
        UInt sendPtr = regInit(UInt(RAIL_BITS), 0).named("send_ptr");
        UInt recvPtr = regInit(UInt(RAIL_BITS), 0).named("recv_ptr");
        UInt chunks = regInit(UInt(CHUNK_BITS), 0).named("chunks");
        UInt idx = regInit(UInt(RAIL_BITS), 0).named("idx");
        UInt off = regInit(UInt(LEN_BITS), 0).named("off");
        UInt chunkLen = regInit(UInt(LEN_BITS), 0).named("chunk_len");
        UInt hostWait = regInit(UInt(CYCLE_BITS), 0).named("host_wait");

        // ---- send links: the policy's mask, NICStatus, the send pointer
        LinkChooser sendChoice = instance("send_choice", new LinkChooser(n));
        sendChoice.mask.assign(p.policy() == Policy.STATIC ? staticMask(req.bits.flow, n) : lit(p.sendMask(), 4));
        sendChoice.busy.assign(status);
        sendChoice.ptr.assign(sendPtr);
        // ---- receive links: the destination's states from its SAck (dynamic), or plain rotation (one-direction)
        LinkChooser recvChoice = instance("recv_choice", new LinkChooser(n));
        recvChoice.mask.assign(lit(p.recvMask(), 4));
        recvChoice.busy.assign(mux(fsm.is(State.WAIT_SACK), ctrlIn.bits.status, lit(0, 4)));
        recvChoice.ptr.assign(recvPtr);

        Bool isLong = p.stripes() ? req.bits.len.ge(p.stripeThreshold()) : FALSE();
        req.ready.assign(fsm.is(State.IDLE));
        when(req.fire(), () -> {
            cur.assign(req.bits);
            off.assign(lit(0, LEN_BITS));
            idx.assign(lit(0, RAIL_BITS));
            for (int k = 0; k < n; k++) {
                sendLinks.get(k).assign(sendChoice.links.get(k));
            }
            sendPtr.assign(next(sendChoice.links.get(0), n));
            when(isLong, () -> {
                chunks.assign(lit(n, CHUNK_BITS));
                chunkLen.assign(equalChunk(req.bits.len, n));
                fsm.goTo(State.SREQ);
            }).otherwise(() -> {
                chunks.assign(lit(1, CHUNK_BITS));
                chunkLen.assign(req.bits.len);
                if (p.policy() == Policy.ONE_DIRECTION && n > 1) {
                    recvLinks.get(0).assign(recvChoice.links.get(0));
                    recvPtr.assign(next(recvChoice.links.get(0), n));
                } else {
                    // dynamic short messages and static flows: the same rail at both ends
                    recvLinks.get(0).assign(sendChoice.links.get(0));
                }
                fsm.goTo(State.ISSUE);
            });
        });

        // ---- SReq out, SAck in. Other nodes' SReqs wait in a queue with room for one from every node (each has at most
        // one outstanding), so the RECV engine that brought one never waits for a SEND engine: a RECV held by a SReq
        // while its node's SEND waits on the other node's RECV would close a cycle between two nodes.
        Queue<Header> replies = instance("replies", new Queue<>(Header::new, 1 << NODE_BITS));
        Bool inSreq = ctrlIn.valid.and(ctrlIn.bits.kind.eq(MncPorts.KIND_SREQ));
        Bool inSack = ctrlIn.valid.and(ctrlIn.bits.kind.eq(MncPorts.KIND_SACK));
        replies.enq.valid.assign(inSreq);
        replies.enq.bits.assign(ctrlIn.bits);
        Header asked = replies.deq.bits;
        Bool answering = replies.deq.valid;
        Header sack = wire(new Header());
        sack.kind.assign(lit(MncPorts.KIND_SACK, 2));
        sack.srcNode.assign(node);
        sack.srcRail.assign(asked.dstRail);
        sack.dstNode.assign(asked.srcNode);
        sack.dstRail.assign(asked.srcRail);
        sack.flow.assign(asked.flow);
        sack.seq.assign(asked.seq);
        sack.nchunks.assign(lit(0, CHUNK_BITS));
        sack.last.assign(TRUE());
        sack.addr.assign(lit(0, ADDR_BITS));
        sack.len.assign(lit(0, PLEN_BITS));
        sack.status.assign(status);
        Header sreq = wire(new Header());
        sreq.kind.assign(lit(MncPorts.KIND_SREQ, 2));
        sreq.srcNode.assign(node);
        sreq.srcRail.assign(sendLinks.get(0));
        sreq.dstNode.assign(cur.dstNode);
        sreq.dstRail.assign(sendLinks.get(0));
        sreq.flow.assign(cur.flow);
        sreq.seq.assign(cur.seq);
        sreq.nchunks.assign(chunks);
        sreq.last.assign(TRUE());
        sreq.addr.assign(lit(0, ADDR_BITS));
        sreq.len.assign(lit(0, PLEN_BITS));
        sreq.status.assign(lit(0, 4));
        // answers first: another node's message waits on them
        ctrlOut.valid.assign(answering.or(fsm.is(State.SREQ)));
        ctrlOut.bits.assignFromBits(mux(answering, sack.asUInt(), sreq.asUInt()));
        replies.deq.ready.assign(ctrlOut.ready);
        Bool sackTaken = inSack.and(fsm.is(State.WAIT_SACK));
        // a SAck when none is awaited is dropped and counted (the platform's checks want none)
        ctrlIn.ready.assign(mux(ctrlIn.bits.kind.eq(MncPorts.KIND_SREQ), replies.enq.ready, TRUE()));
        when(fsm.is(State.SREQ).and(answering.not()).and(ctrlOut.ready), () -> fsm.goTo(State.WAIT_SACK));
        when(sackTaken, () -> {
            for (int k = 0; k < n; k++) {
                recvLinks.get(k).assign(recvChoice.links.get(k));
            }
            recvPtr.assign(next(recvChoice.links.get(0), n));
            hostWait.assign(lit(p.softwareCycles(), CYCLE_BITS));
            fsm.goTo(p.softwareDispatch() ? State.HOST : State.ISSUE);
        });
        when(fsm.is(State.HOST), () -> {
            hostWait.assign(hostWait.sub(1));
            when(hostWait.le(1), () -> fsm.goTo(State.ISSUE));
        });

        // ---- one chunk per cycle into the SDMA queue of its rail
        UInt rail = sendLinks.at(idx);
        Bool lastChunk = idx.pad(CHUNK_BITS).add(1).eq(chunks);
        UInt len = mux(lastChunk, cur.len.sub(off), chunkLen);
        Bool anyFire = FALSE();
        for (int j = 0; j < n; j++) {
            Decoupled<SdmaJob> q = jobs.get(j);
            q.valid.assign(fsm.is(State.ISSUE).and(rail.eq(j)));
            q.bits.dstNode.assign(cur.dstNode);
            q.bits.dstRail.assign(recvLinks.at(idx));
            q.bits.flow.assign(cur.flow);
            q.bits.seq.assign(cur.seq);
            q.bits.nchunks.assign(chunks);
            q.bits.srcAddr.assign(cur.srcAddr.add(off.pad(ADDR_BITS)));
            q.bits.dstAddr.assign(cur.dstAddr.add(off.pad(ADDR_BITS)));
            q.bits.len.assign(len);
            anyFire = anyFire.or(q.fire());
        }
        Bool fired = anyFire.named("job_fire");
        when(fired, () -> {
            off.assign(off.add(chunkLen));
            idx.assign(idx.add(1));
            when(lastChunk, () -> fsm.goTo(State.IDLE));
        });

        striped.assign(counter(req.fire().and(isLong)));
        sreqs.assign(counter(fsm.is(State.SREQ).and(answering.not()).and(ctrlOut.ready)));
        sacks.assign(counter(replies.deq.fire()));
        staleSacks.assign(counter(inSack.and(fsm.is(State.WAIT_SACK).not())));
    }

    /** The rail after {@code r}, wrapping at {@code n}. */
    private static UInt next(UInt r, int n) {
        return mux(r.eq(n - 1), lit(0, RAIL_BITS), r.add(1));
    }

    /** The static policy's one link of a flow, {@code flow mod n}, as a mask. */
    private static UInt staticMask(UInt flow, int n) {
        Map<Integer, UInt> table = new HashMap<>();
        for (int f = 0; f < 1 << FLOW_BITS; f++) {
            table.put(f, lit(1L << (f % n), 4));
        }
        return MuxLookup(flow, lit(1, 4), table);
    }

    /** {@code ceil(len / n)} rounded up to 8 bytes: every chunk but the last starts 8-byte aligned relative to the message. */
    private static UInt equalChunk(UInt len, int n) {
        UInt words = len.addW(lit(8L * n - 1, LEN_BITS)).div(lit(8L * n, LEN_BITS + 1));
        return words.bits(LEN_BITS - 4, 0).cat(lit(0, 3));
    }

    private static UInt counter(Bool event) {
        UInt c = regInit(UInt(32), 0);
        when(event, () -> c.assign(c.add(1)));
        return c;
    }
}
