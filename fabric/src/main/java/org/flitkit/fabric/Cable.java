package org.flitkit.fabric;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.hdl.lib.Queue;

/**
 * A cable between two chips' ports as a board-level cycle model, shaped by its {@link CableOptions}: a credit
 * cable (one direction, flits with credit flow control into a far-end buffer per VC, bit errors, optional seeded loss
 * and reordering)
 * or a lane cable (both directions, a frame every cycle, bit errors, dead lanes, cut). docs/cable.md.
 */
public final class Cable extends Module {
    public final CableOptions options;

    // ---- credit cables (null on lane cables)
    /** Flits from the sender; {@code ready} while the sender holds a credit. */
    public final Decoupled<UInt> in;
    /** Flits at the far end, {@code latency} cycles after they were taken. */
    public final Decoupled<UInt> out;
    /** Bits to flip in the flit entering this cycle (bit errors poked by a testbench; 0 = none). */
    public final UInt flip;
    /** No flit in flight or waiting at the far end, and every credit back at the sender. */
    public final Bool idle;
    /** Flits dropped by the seeded loss, saturating at all-ones (present only with {@code loss > 0}). */
    public final UInt lost;
    /** Flits held back by the seeded reordering, saturating (present only with {@code reorder > 0}). */
    public final UInt reordered;
    /** Per VC: flits from the sender and to the receiver ({@code in}, {@code out} are VC 0's). */
    public final List<Decoupled<UInt>> vcIn;
    public final List<Decoupled<UInt>> vcOut;
    /** Per VC: the sender's credits, flits in the far-end buffer, flits that entered the wire (saturating). */
    public final Vec<UInt> credits;
    public final Vec<UInt> buffered;
    public final Vec<UInt> vcFlits;
    /** Flits that entered the wire (saturating): frozen counts on both directions = nothing moves. */
    public final UInt flits;

    // ---- lane cables (null on credit cables)
    /** A -> B: A's wire out in, B's wire in out. */
    public final UInt aTx;
    public final UInt bRx;
    /** B -> A. */
    public final UInt bTx;
    public final UInt aRx;
    /** While high, the direction delivers zeros on every lane. */
    public final Bool cutAB;
    public final Bool cutBA;
    /** Bits to flip in the frame entering this cycle, per direction. */
    public final UInt errorAB;
    public final UInt errorBA;
    /** Dead lanes per direction, one bit per lane: bit i kills lane i, the frame's i-th group of bits from bit 0. */
    public final UInt lanesDownAB;
    public final UInt lanesDownBA;

    public Cable(CableOptions options) {
        this.options = options;
        int width = options.width();
        if (options.credited()) {
            int vcs = options.vcs();
            if (vcs == 1) {
                in = input(Decoupled.of(UInt(width)));
                out = output(Decoupled.of(UInt(width)));
                vcIn = List.of(in);
                vcOut = List.of(out);
            } else {
                Vec<Decoupled<UInt>> i = input(Vec(vcs, () -> Decoupled.of(UInt(width)))).named("vcIn");
                Vec<Decoupled<UInt>> o = output(Vec(vcs, () -> Decoupled.of(UInt(width)))).named("vcOut");
                vcIn = List.copyOf(i.asList());
                vcOut = List.copyOf(o.asList());
                in = vcIn.get(0);
                out = vcOut.get(0);
            }
            flip = input(UInt(width));
            idle = output(Bool());
            lost = options.loss() > 0 ? output(UInt(EventCounter.BITS)) : null;
            reordered = options.reorder() > 0 ? output(UInt(EventCounter.BITS)) : null;
            int cw = Bitwise.log2Up(options.depth() + 1);
            credits = output(Vec(vcs, () -> UInt(cw)));
            buffered = output(Vec(vcs, () -> UInt(cw)));
            vcFlits = output(Vec(vcs, () -> UInt(EventCounter.BITS)));
            flits = output(UInt(EventCounter.BITS));
            aTx = bRx = bTx = aRx = errorAB = errorBA = lanesDownAB = lanesDownBA = null;
            cutAB = cutBA = null;
            credited();
        } else {
            in = out = null;
            vcIn = vcOut = null;
            credits = buffered = vcFlits = null;
            flits = null;
            flip = null;
            idle = null;
            lost = null;
            reordered = null;
            cutAB = input(Bool());
            cutBA = input(Bool());
            lanesDownAB = input(UInt(options.lanes()));
            lanesDownBA = input(UInt(options.lanes()));
            aTx = input(UInt(width));
            bRx = output(UInt(width));
            bTx = input(UInt(width));
            aRx = output(UInt(width));
            errorAB = input(UInt(width));
            errorBA = input(UInt(width));
            bRx.assign(laneDirection("ab", aTx, errorAB, cutAB, lanesDownAB, options.latency()));
            aRx.assign(laneDirection("ba", bTx, errorBA, cutBA, lanesDownBA, options.latencyBA()));
        }
    }

    /**
     * A credit cable: the wire's arbiter picks a VC that holds a credit, latency - 1 register stages of (valid,
     * VC, flit), then the VC's far-end buffer (one more cycle); credits come back creditLatency cycles after
     * the far end frees a place.
     */
    private void credited() {
        int width = options.width();
        int depth = options.depth();
        int vcs = options.vcs();
        int cw = Bitwise.log2Up(depth + 1);
        int vw = Bitwise.log2Up(vcs);

        List<Bool> eligible = new ArrayList<>();
        List<UInt> credit = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            UInt c = regInit(UInt(cw), depth).named(vcs == 1 ? "credit" : "credit" + v);
            credit.add(c);
            eligible.add(vcIn.get(v).valid.and(c.ne(0)));
        }
        List<Bool> pick = vcs == 1 ? eligible : arbiter(eligible);
        if (vcs == 1) {
            // one VC: ready on a credit alone, whether or not a flit is offered
            in.ready.assign(credit.get(0).ne(0));
        } else {
            for (int v = 0; v < vcs; v++) {
                vcIn.get(v).ready.assign(pick.get(v));
            }
        }
        Bool send = any(pick);
        UInt sendVc = lit(0, Math.max(vw, 1));
        UInt sendData = vcIn.get(0).bits;
        for (int v = 1; v < vcs; v++) {
            sendVc = mux(pick.get(v), lit(v, vw), sendVc);
            sendData = mux(pick.get(v), vcIn.get(v).bits, sendData);
        }

        Bool arrive = send;
        UInt vc = sendVc;
        UInt data = sendData.xor(flip);
        for (int i = 1; i < options.latency(); i++) {
            Bool a = regInit(Bool(), 0).named("v" + i);
            UInt d = reg(UInt(width)).named("d" + i);
            a.assign(arrive);
            UInt dd = data;
            when(arrive, () -> d.assign(dd));
            if (vcs > 1) {
                UInt c = reg(UInt(vw)).named("vc" + i);
                UInt cc = vc;
                when(arrive, () -> c.assign(cc));
                vc = c;
            }
            arrive = a;
            data = d;
        }

        Bool drop = FALSE();
        // every arrival draws the LFSR's current state (1..65535): at or below loss, the flit is dropped; above
        // 65535 - reorder, it is held back (the two ranges never overlap)
        UInt draw = options.loss() > 0 || options.reorder() > 0 ? Lfsr.fibonacci(16, arrive, options.seed()) : null;
        if (options.loss() > 0) {
            drop = arrive.and(draw.le(lit(options.loss(), 16)));
            lost.assign(EventCounter.count(drop, "lostCount"));
        }
        Bool home = TRUE();
        for (int v = 0; v < vcs; v++) {
            Queue<UInt> far = vcs == 1 ? instance(new Queue<>(() -> UInt(width), depth))
                    : instance("vc" + v, new Queue<>(() -> UInt(width), depth));
            Bool here = vcs == 1 ? arrive : arrive.and(vc.eq(v));
            Bool dropHere = vcs == 1 ? drop : drop.and(vc.eq(v));
            if (options.reorder() > 0) {
                reorder(far, here.andNot(dropHere), data, draw);
            } else {
                far.enq.valid.assign(here.andNot(dropHere));
                far.enq.bits.assign(data);
            }
            check(far.enq.valid.not().or(far.enq.ready), "cable buffer overflow: a flit arrived with no room");
            vcOut.get(v).connect(far.deq);
            buffered.get(v).assign(far.count);

            // a flit taken by the receiver and a dropped one (the same cycle, two of them) each send a credit
            // back, creditLatency cycles later
            String sfx = vcs == 1 ? "" : "_" + v;
            Bool freed = delayed(far.deq.fire(), "creditWire" + sfx);
            Bool dropFreed = options.loss() > 0 ? delayed(dropHere, "dropCreditWire" + sfx) : FALSE();
            UInt c = credit.get(v);
            UInt back = mux(freed, lit(1, cw), lit(0, cw)).add(mux(dropFreed, lit(1, cw), lit(0, cw)));
            Bool spend = vcs == 1 ? in.fire() : pick.get(v);
            c.assign(c.add(back).sub(mux(spend, lit(1, cw), lit(0, cw))));
            credits.get(v).assign(c);
            vcFlits.get(v).assign(EventCounter.count(spend, "vcFlitCount" + v));
            home = home.and(c.eq(depth));
        }
        flits.assign(EventCounter.count(vcs == 1 ? in.fire() : send, "flitCount"));
        idle.assign(home);
    }

    /**
     * Seeded reordering in front of the far buffer: a drawn arrival goes into a one-flit hold register instead of
     * the buffer, and enters the buffer on the first cycle without an arrival to put there, so every flit arriving
     * meanwhile overtakes it. It keeps its credit while held, so the buffer always has its place.
     */
    private void reorder(Queue<UInt> far, Bool arrival, UInt data, UInt draw) {
        Bool heldValid = regInit(Bool(), 0).named("heldValid");
        UInt held = reg(UInt(options.width())).named("held");
        Bool keep = arrival.andNot(heldValid).and(draw.gt(lit(65_535 - options.reorder(), 16)));
        Bool put = arrival.andNot(keep);
        Bool release = heldValid.andNot(put);
        far.enq.valid.assign(put.or(release));
        far.enq.bits.assign(mux(put, data, held));
        when(keep, () -> {
            heldValid.assign(TRUE());
            held.assign(data);
        }).elsewhen(release, () -> heldValid.assign(FALSE()));
        reordered.assign(EventCounter.count(keep, "reorderedCount"));
    }

    /**
     * The wire's arbiter over several VCs: round robin among the VCs that hold a flit and a credit, starting
     * after the VC that went last; with packets, it stays on the VC whose packet is under way while that VC can
     * move. A VC stalled mid-packet for want of credits lets the others use the wire: locking the wire itself
     * would make one blocked VC block the others again, the dependence VCs exist to remove.
     */
    private List<Bool> arbiter(List<Bool> eligible) {
        int vcs = eligible.size();
        int vw = Bitwise.log2Up(vcs);
        UInt lastVc = regInit(UInt(vw), vcs - 1).named("lastVc");
        List<Bool> rr = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            // v wins when it is eligible and, for the VC that went last, no VC between that one and v is
            Bool win = FALSE();
            for (int last = 0; last < vcs; last++) {
                Bool first = eligible.get(v);
                for (int u = (last + 1) % vcs; u != v; u = (u + 1) % vcs) {
                    first = first.andNot(eligible.get(u));
                }
                win = win.or(lastVc.eq(last).and(first));
            }
            rr.add(win);
        }
        List<Bool> pick = rr;
        UInt chosen = lit(0, vw);
        if (options.packets()) {
            Bool locked = regInit(Bool(), 0).named("locked");
            UInt lockVc = regInit(UInt(vw), 0).named("lockVc");
            Bool lockedCanMove = FALSE();
            for (int v = 0; v < vcs; v++) {
                lockedCanMove = lockedCanMove.or(lockVc.eq(v).and(eligible.get(v)));
            }
            Bool stay = locked.and(lockedCanMove);
            pick = new ArrayList<>();
            for (int v = 0; v < vcs; v++) {
                pick.add(mux(stay, lockVc.eq(v), rr.get(v)));
            }
            Bool lastFlit = FALSE();
            for (int v = 0; v < vcs; v++) {
                chosen = mux(pick.get(v), lit(v, vw), chosen);
                lastFlit = mux(pick.get(v), vcIn.get(v).bits.bit(options.width() - 1), lastFlit);
            }
            UInt sel = chosen;
            Bool lf = lastFlit;
            when(any(pick), () -> {
                lastVc.assign(sel);
                lockVc.assign(sel);
                locked.assign(lf.not());
            });
        } else {
            for (int v = 0; v < vcs; v++) {
                chosen = mux(pick.get(v), lit(v, vw), chosen);
            }
            UInt sel = chosen;
            when(any(pick), () -> lastVc.assign(sel));
        }
        return pick;
    }

    private static Bool any(List<Bool> xs) {
        Bool a = xs.get(0);
        for (int i = 1; i < xs.size(); i++) {
            a = a.or(xs.get(i));
        }
        return a;
    }

    /** {@code x} after the credit latency's register stages. */
    private Bool delayed(Bool x, String name) {
        for (int s = 0; s < options.creditLatency(); s++) {
            x = regNext(x, 0).named(name + s);
        }
        return x;
    }

    /** One direction of a lane cable: errors XORed, dead lanes and cut zeroed on entry, then latency stages. */
    private UInt laneDirection(String name, UInt tx, UInt error, Bool cut, UInt lanesDown, int latency) {
        int width = options.width();
        int lanes = options.lanes();
        int lw = width / lanes;
        UInt[] alive = new UInt[lanes];
        for (int i = 0; i < lanes; i++) {
            alive[lanes - 1 - i] = mux(lanesDown.bit(i), lit(0, lw), lit((1L << lw) - 1, lw));
        }
        UInt x = mux(cut, lit(0, width), tx.xor(error).and(cat(alive)));
        for (int i = 0; i < latency; i++) {
            x = regNext(x, 0).named(name + "_d" + i);
        }
        return x;
    }
}
