package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;

/**
 * One direction of the network between two DMA engines (paper section 3.4.3, figures 9 and 10): engine A's
 * {@code tx}/{@code txGet} packets cross a wire of {@code latency} cycles, one beat per cycle, into per-VC buffers
 * of {@code depth} beats at the receiving end, with credit-based flow control (credits come back over the same
 * latency). {@code getOwnVc}: GETs on their own VC (figure 10, the paper's fix) or sharing the PUT/NAP VC in
 * arrival order (figure 9, the deadlock). docs/chpp-network.md.
 */
public final class NetworkLink extends Module {
    /** Largest accepted buffer depth and wire latency (a sanity bound on the parameters, not a paper figure). */
    public static final int MAX_DEPTH = 4096;
    public static final int MAX_LATENCY = 1024;
    /** VC numbers on the wire: PUT/NAP (and shared GETs) on 0, GETs on 1 with {@code getOwnVc}. */
    public static final int VC_DATA = 0;
    public static final int VC_GET = 1;

    public final int depth;
    public final int latency;
    public final boolean getOwnVc;
    public final int vcs;

    /** PUT and NAP packets from the sending engine ({@link DmaEngine#tx}). */
    public final Decoupled<PacketBeat> in;
    /** GET packets from the sending engine ({@link DmaEngine#txGet}). */
    public final Decoupled<PacketBeat> inGet;
    /** The data VC's packets to the receiving engine ({@link DmaEngine#rx}); GETs too when they share it. */
    public final Decoupled<PacketBeat> out;
    /** The GET VC's packets to the receiving engine ({@link DmaEngine#rxGet}); never valid without {@code getOwnVc}. */
    public final Decoupled<PacketBeat> outGet;

    /** Beats that have entered the wire (saturating): frozen counts on both links = nothing moves. */
    public final UInt wireBeats;
    /** Per VC: beats that entered the wire, the sender's credits, beats in the receiving buffer. */
    public final Vec<UInt> vcBeats;
    public final Vec<UInt> credits;
    public final Vec<UInt> buffered;

    /** {@code depth} beats per VC buffer (1..4096), {@code latency} cycles each way (1..1024). */
    public NetworkLink(int depth, int latency, boolean getOwnVc) {
        if (depth < 1 || depth > MAX_DEPTH) {
            throw new IllegalArgumentException("NetworkLink depth " + depth + " outside 1.." + MAX_DEPTH + " beats per VC buffer");
        }
        if (latency < 1 || latency > MAX_LATENCY) {
            throw new IllegalArgumentException("NetworkLink latency " + latency + " outside 1.." + MAX_LATENCY
                    + " cycles (a wire is at least one register stage each way)");
        }
        this.depth = depth;
        this.latency = latency;
        this.getOwnVc = getOwnVc;
        this.vcs = getOwnVc ? 2 : 1;
        int cw = Bitwise.log2Up(depth + 1);

        in = input(Decoupled.of(PacketBeat::new));
        inGet = input(Decoupled.of(PacketBeat::new));
        out = output(Decoupled.of(PacketBeat::new));
        outGet = output(Decoupled.of(PacketBeat::new));
        wireBeats = output(UInt(Counters.BITS));
        vcBeats = output(Vec(vcs, () -> UInt(Counters.BITS)));
        credits = output(Vec(vcs, () -> UInt(cw)));
        buffered = output(Vec(vcs, () -> UInt(cw)));

        // ---- the sender's VC sources: GETs alone on VC 1, or merged into VC 0 packet by packet as they come
        List<Decoupled<PacketBeat>> src = new ArrayList<>();
        if (getOwnVc) {
            src.add(in);
            src.add(inGet);
        } else {
            RRArbiter<PacketBeat> merge = instance("shareVc", new RRArbiter<>(PacketBeat::new, 2, Lock.until(b -> b.last)));
            merge.in.get(0).connect(in);
            merge.in.get(1).connect(inGet);
            src.add(merge.out);
        }

        // ---- credits: one per free beat of the VC's buffer at the far end
        List<UInt> credit = new ArrayList<>();
        List<Bool> eligible = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            UInt c = regInit(UInt(cw), depth).named("credit" + v);
            credit.add(c);
            eligible.add(src.get(v).valid.and(c.ne(0)));
        }

        // ---- the wire's arbiter: stay on the VC whose packet is under way while it can move; otherwise round robin.
        // A VC stalled mid-packet for want of credits lets the other VC use the wire: locking the wire itself would
        // make a blocked GET block PUTs again, the dependence the VCs exist to remove.
        List<Bool> pick = new ArrayList<>();
        if (vcs == 1) {
            pick.add(eligible.get(0));
        } else {
            Bool locked = regInit(Bool(), 0).named("locked");
            UInt lockVc = regInit(UInt(1), 0).named("lockVc");
            UInt lastVc = regInit(UInt(1), 1).named("lastVc");
            Bool e0 = eligible.get(0);
            Bool e1 = eligible.get(1);
            Bool stay = locked.and(mux(lockVc.eq(0), e0, e1));
            // round robin: VC 0 when only it can go, or both can and VC 1 went last
            Bool rr0 = e0.and(e1.not().or(lastVc.eq(1)));
            Bool p0 = mux(stay, lockVc.eq(0), rr0);
            Bool p1 = mux(stay, lockVc.eq(1), e1.and(rr0.not()));
            pick.add(p0);
            pick.add(p1);
            Bool any = p0.or(p1);
            Bool lastBeat = mux(p1, src.get(1).bits.last, src.get(0).bits.last);
            when(any, () -> {
                lastVc.assign(mux(p1, lit(1, 1), lit(0, 1)));
                lockVc.assign(mux(p1, lit(1, 1), lit(0, 1)));
                locked.assign(lastBeat.not());
            });
        }
        for (int v = 0; v < vcs; v++) {
            src.get(v).ready.assign(pick.get(v));
        }
        Bool send = pick.size() == 1 ? pick.get(0) : pick.get(0).or(pick.get(1));
        UInt sendVc = pick.size() == 1 ? lit(0, 1) : mux(pick.get(1), lit(1, 1), lit(0, 1));
        UInt sendData = pick.size() == 1 ? src.get(0).bits.data : mux(pick.get(1), src.get(1).bits.data, src.get(0).bits.data);
        Bool sendLast = pick.size() == 1 ? src.get(0).bits.last : mux(pick.get(1), src.get(1).bits.last, src.get(0).bits.last);

        // ---- the wire: latency register stages of (valid, VC, beat)
        Bool wv = send;
        UInt wvc = sendVc;
        UInt wd = sendData;
        Bool wl = sendLast;
        for (int s = 0; s < latency; s++) {
            Bool nv = regInit(Bool(), 0).named("wireValid" + s);
            UInt nvc = regInit(UInt(1), 0).named("wireVc" + s);
            UInt nd = regInit(UInt(PacketBeat.DATA_BITS), 0).named("wireData" + s);
            Bool nl = regInit(Bool(), 0).named("wireLast" + s);
            nv.assign(wv);
            nvc.assign(wvc);
            nd.assign(wd);
            nl.assign(wl);
            wv = nv;
            wvc = nvc;
            wd = nd;
            wl = nl;
        }

        // ---- the receiving end: one buffer per VC; a credit goes back for every beat that leaves it
        List<Bool> freed = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            Queue<PacketBeat> q = instance("vc" + v, new Queue<>(PacketBeat::new, depth));
            q.enq.valid.assign(wv.and(wvc.eq(v)));
            q.enq.bits.data.assign(wd);
            q.enq.bits.last.assign(wl);
            Decoupled<PacketBeat> o = v == VC_DATA ? out : outGet;
            o.connect(q.deq);
            freed.add(q.deq.fire());
            buffered.get(v).assign(q.count);
        }
        if (!getOwnVc) {
            outGet.valid.assign(FALSE());
            outGet.bits.data.assign(lit(0, PacketBeat.DATA_BITS));
            outGet.bits.last.assign(FALSE());
        }

        // ---- credits back over the same latency
        for (int v = 0; v < vcs; v++) {
            Bool cv = freed.get(v);
            for (int s = 0; s < latency; s++) {
                Bool n = regInit(Bool(), 0).named("creditWire" + v + "_" + s);
                n.assign(cv);
                cv = n;
            }
            UInt c = credit.get(v);
            Bool spend = pick.get(v);
            when(spend.andNot(cv), () -> c.assign(c.sub(1))).elsewhen(cv.andNot(spend), () -> c.assign(c.add(1)));
            credits.get(v).assign(c);
            vcBeats.get(v).assign(Counters.count(spend, "vcBeatCount" + v));
        }
        wireBeats.assign(Counters.count(send, "wireBeatCount"));
    }
}
