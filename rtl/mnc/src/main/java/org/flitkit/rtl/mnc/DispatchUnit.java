package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import java.util.HashMap;
import java.util.Map;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Counter;
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

    private final MncParams params;
    /** The request being dispatched and its plan: links at both ends (in chunk order), chunk count and length. */
    private final SendRequest cur;
    private final Vec<UInt> sendLinks;
    private final Vec<UInt> recvLinks;
    private final UInt chunks;
    private final UInt chunkLen;
    /** Round-robin pointers of the send and receive link choices. */
    private final UInt sendPtr;
    private final UInt recvPtr;
    /** The chunk being issued and its offset in the message. */
    private final Counter idx;
    private final UInt off;
    /** Software dispatch: cycles left in {@link State#HOST}. */
    private final Counter hostWait;

    public DispatchUnit(MncParams p) {
        this.params = p;
        int n = p.rails();
        jobs = output(Vec(n, () -> Decoupled.of(SdmaJob::new)));
        fsm = new Fsm<>(State.class);
        cur = regInit(new SendRequest(), 0);
        sendLinks = regInit(Vec(n, () -> UInt(RAIL_BITS)), 0);
        recvLinks = regInit(Vec(n, () -> UInt(RAIL_BITS)), 0);
        sendPtr = regInit(UInt(RAIL_BITS), 0);
        recvPtr = regInit(UInt(RAIL_BITS), 0);
        chunks = regInit(UInt(CHUNK_BITS), 0);
        idx = new Counter(1 << RAIL_BITS).named("idx");
        off = regInit(UInt(LEN_BITS), 0);
        chunkLen = regInit(UInt(LEN_BITS), 0);
        hostWait = Counter.upDown(1L << CYCLE_BITS).named("hostWait");

        // ---- send links: the policy's mask, NICStatus, the send pointer
        LinkChooser sendChoice = instance("sendChoice", new LinkChooser(n));
        sendChoice.mask.assign(p.policy() == Policy.STATIC ? staticMask(req.bits.flow, n) : lit(p.sendMask(), 4));
        sendChoice.busy.assign(status);
        sendChoice.ptr.assign(sendPtr);
        // ---- receive links: the destination's states from its SAck (dynamic), or plain rotation (one-direction)
        LinkChooser recvChoice = instance("recvChoice", new LinkChooser(n));
        recvChoice.mask.assign(lit(p.recvMask(), 4));
        recvChoice.busy.assign(mux(fsm.is(State.WAIT_SACK), ctrlIn.bits.status, lit(0, 4)));
        recvChoice.ptr.assign(recvPtr);

        Bool isLong = p.stripes() ? req.bits.len.ge(p.stripeThreshold()) : FALSE();
        take(isLong, sendChoice, recvChoice);
        Control control = control(recvChoice);
        issue();

        striped.assign(Counter.enabled(req.fire().and(isLong), 1L << 32).named("stripedCount").value);
        sreqs.assign(Counter.enabled(control.sreqSent(), 1L << 32).named("sreqCount").value);
        sacks.assign(Counter.enabled(control.sackSent(), 1L << 32).named("sackCount").value);
        staleSacks.assign(Counter.enabled(control.staleSack(), 1L << 32).named("staleSackCount").value);
    }

    /** IDLE takes a request: its send links, and for a short message its one receive link (section 2.3.2). */
    private void take(Bool isLong, LinkChooser sendChoice, LinkChooser recvChoice) {
        int n = params.rails();
        req.ready.assign(fsm.is(State.IDLE));
        when(req.fire(), () -> {
            cur.assign(req.bits);
            off.assign(lit(0, LEN_BITS));
            idx.clear();
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
                if (params.policy() == Policy.ONE_DIRECTION && n > 1) {
                    recvLinks.get(0).assign(recvChoice.links.get(0));
                    recvPtr.assign(next(recvChoice.links.get(0), n));
                } else {
                    // dynamic short messages and static flows: the same rail at both ends
                    recvLinks.get(0).assign(sendChoice.links.get(0));
                }
                fsm.goTo(State.ISSUE);
            });
        });
    }

    /** The control traffic's events for the counters: an SReq sent, an SAck sent, an SAck nobody awaited. */
    private record Control(Bool sreqSent, Bool sackSent, Bool staleSack) {
    }

    /**
     * SReq out, SAck in, and the answers to other nodes' SReqs. Those wait in a queue with room for one from every
     * node (each has at most one outstanding), so the RECV engine that brought one never waits for a SEND engine:
     * a RECV held by a SReq while its node's SEND waits on the other node's RECV would close a cycle between two nodes.
     */
    private Control control(LinkChooser recvChoice) {
        int n = params.rails();
        Queue<Header> replies = instance("replies", new Queue<>(Header::new, 1 << NODE_BITS));
        Bool inSreq = ctrlIn.valid.and(ctrlIn.bits.kind.eq(MncPorts.KIND_SREQ));
        Bool inSack = ctrlIn.valid.and(ctrlIn.bits.kind.eq(MncPorts.KIND_SACK));
        replies.enq.valid.assign(inSreq);
        replies.enq.bits.assign(ctrlIn.bits);
        Header asked = replies.deq.bits;
        Bool answering = replies.deq.valid;
        Header sack = control(MncPorts.KIND_SACK);
        sack.srcRail.assign(asked.dstRail);
        sack.dstNode.assign(asked.srcNode);
        sack.dstRail.assign(asked.srcRail);
        sack.flow.assign(asked.flow);
        sack.seq.assign(asked.seq);
        sack.nchunks.assign(lit(0, CHUNK_BITS));
        sack.status.assign(status);
        Header sreq = control(MncPorts.KIND_SREQ);
        sreq.srcRail.assign(sendLinks.get(0));
        sreq.dstNode.assign(cur.dstNode);
        sreq.dstRail.assign(sendLinks.get(0));
        sreq.flow.assign(cur.flow);
        sreq.seq.assign(cur.seq);
        sreq.nchunks.assign(chunks);
        sreq.status.assign(lit(0, 4));
        // answers first: another node's message waits on them
        ctrlOut.valid.assign(answering.or(fsm.is(State.SREQ)));
        ctrlOut.bits.assignFromBits(mux(answering, sack.asUInt(), sreq.asUInt()));
        replies.deq.ready.assign(ctrlOut.ready);
        Bool sackTaken = inSack.and(fsm.is(State.WAIT_SACK));
        // a SAck when none is awaited is dropped and counted (the platform's checks want none)
        ctrlIn.ready.assign(mux(ctrlIn.bits.kind.eq(MncPorts.KIND_SREQ), replies.enq.ready, TRUE()));
        Bool sreqSent = fsm.is(State.SREQ).and(answering.not()).and(ctrlOut.ready);
        when(sreqSent, () -> fsm.goTo(State.WAIT_SACK));
        when(sackTaken, () -> {
            for (int k = 0; k < n; k++) {
                recvLinks.get(k).assign(recvChoice.links.get(k));
            }
            recvPtr.assign(next(recvChoice.links.get(0), n));
            hostWait.load(params.softwareCycles());
            fsm.goTo(params.softwareDispatch() ? State.HOST : State.ISSUE);
        });
        when(fsm.is(State.HOST), () -> {
            hostWait.dec();
            when(hostWait.value.le(1), () -> fsm.goTo(State.ISSUE));
        });
        return new Control(sreqSent, replies.deq.fire(), inSack.and(fsm.is(State.WAIT_SACK).not()));
    }

    /** A control header of {@code kind} from this node: no payload, the last packet of its chunk. */
    private Header control(int kind) {
        Header h = wire(new Header());
        h.kind.assign(lit(kind, 2));
        h.srcNode.assign(node);
        h.last.assign(TRUE());
        h.addr.assign(lit(0, ADDR_BITS));
        h.len.assign(lit(0, PLEN_BITS));
        return h;
    }

    /** ISSUE: one chunk per cycle into the SDMA queue of its rail (section 2.4), back to IDLE after the last. */
    private void issue() {
        UInt rail = sendLinks.at(idx.value);
        Bool lastChunk = idx.value.pad(CHUNK_BITS).add(1).eq(chunks);
        UInt len = mux(lastChunk, cur.len.sub(off), chunkLen);
        Bool anyFire = FALSE();
        for (int j = 0; j < jobs.size(); j++) {
            Decoupled<SdmaJob> q = jobs.get(j);
            q.valid.assign(fsm.is(State.ISSUE).and(rail.eq(j)));
            q.bits.dstNode.assign(cur.dstNode);
            q.bits.dstRail.assign(recvLinks.at(idx.value));
            q.bits.flow.assign(cur.flow);
            q.bits.seq.assign(cur.seq);
            q.bits.nchunks.assign(chunks);
            q.bits.srcAddr.assign(cur.srcAddr.add(off.pad(ADDR_BITS)));
            q.bits.dstAddr.assign(cur.dstAddr.add(off.pad(ADDR_BITS)));
            q.bits.len.assign(len);
            anyFire = anyFire.or(q.fire());
        }
        Bool jobFire = anyFire.named("jobFire");
        when(jobFire, () -> {
            off.assign(off.add(chunkLen));
            idx.inc();
            when(lastChunk, () -> fsm.goTo(State.IDLE));
        });
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
}
