package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.formats.th2.LinkFrame;

/**
 * Per-lane link training while the link is down: sends a self-checking training word on every lane, counts the
 * peer's valid words per lane over a window to choose the lanes it receives well, learns from the peer's words
 * which of its own lanes the peer receives, and derives the width both ends agree on (8, 4, 2 or 1 lanes).
 * Spec: 20-th2-management.md, function 2 (link width); docs/th2-link.md, "Lanes".
 */
public final class LaneTraining extends Module {
    static final int LANES = LinkFrame.LANES;
    static final int LW = LinkFrame.LANE_BITS;

    /** what the lanes carry this cycle */
    public final UInt wireIn = input(UInt(LinkFrame.BITS));
    /** the link is down: train (the state below holds while it is up) */
    public final Bool training = input(Bool());
    /** forget everything and start over (the link went down, or training heard nothing for too long) */
    public final Bool restart = input(Bool());

    /** the training words to send on all lanes this cycle */
    public final UInt words = output(UInt(LinkFrame.BITS));
    /** a valid training word arrived on some lane this cycle */
    public final Bool wordSeen = output(Bool());
    /** both ends have chosen their lanes and this end has confirmed for TRAIN_CONFIRM cycles: go up */
    public final Bool trained = output(Bool());
    /** lanes this end receives well (valid once chosen) */
    public final UInt rxLanes = output(UInt(LANES));
    /** lanes the peer receives well, i.e. this end's usable transmit lanes (valid once the peer's word arrived) */
    public final UInt txLanes = output(UInt(LANES));
    /** the agreed width: 8, 4, 2 or 1 lanes (0 while unknown or when no lane works both ways) */
    public final UInt width = output(UInt(4));

    public LaneTraining() {
        int windowW = Bitwise.log2Ceil(LinkFrame.TRAIN_WINDOW + 1);
        Bool listening = regInit(Bool(), 0).named("listening");
        Bool heard = regInit(Bool(), 0).named("heard");
        Bool peerHeard = regInit(Bool(), 0).named("peerHeard");
        UInt window = regInit(UInt(windowW), 0).named("window");
        UInt confirm = regInit(UInt(Bitwise.log2Ceil(LinkFrame.TRAIN_CONFIRM + 1)), 0).named("confirm");
        UInt rxMask = regInit(UInt(LANES), 0).named("rxMask");
        UInt txMask = regInit(UInt(LANES), 0).named("txMask");

        Bool[] valid = new Bool[LANES];
        UInt peerMask = lit(0, LANES);
        Bool peerWord = FALSE();
        LinkFrame.TrainWord t = LinkFrame.TRAIN;
        for (int i = LANES - 1; i >= 0; i--) {
            UInt w = wireIn.bits(LW * i + LW - 1, LW * i);
            valid[i] = LinkLayer.field(w, t.MAGIC).eq(LinkFrame.TRAIN_MAGIC).and(LinkLayer.field(w, t.LANE).eq(i))
                    .and(FrameCrc.trainCheck(w.bits(FrameCrc.TRAIN_COVERED_BITS - 1, 0)).eq(LinkLayer.field(w, t.CHECK)))
                    .named("laneValid" + i);
            Bool says = valid[i].and(LinkLayer.field(w, t.HEARD).bit(0));
            // the lowest lane carrying Heard wins; every valid word carries the same mask
            peerMask = mux(says, LinkLayer.field(w, t.LANES_OK), peerMask);
            peerWord = peerWord.or(says);
        }
        Bool anyValid = valid[0];
        for (int i = 1; i < LANES; i++) {
            anyValid = anyValid.or(valid[i]);
        }
        Bool anyLaneValid = anyValid.named("anyLaneValid");
        Bool peerSays = peerWord.named("peerSays");
        UInt peerLanes = peerMask.named("peerLanes");
        wordSeen.assign(anyLaneValid);

        // ---- choose the lanes this end receives: count valid words per lane over the window
        Bool windowEnds = listening.and(heard.not()).and(window.eq(LinkFrame.TRAIN_WINDOW - 1)).named("windowEnds");
        UInt chosenAcc = lit(0, LANES);
        for (int i = 0; i < LANES; i++) {
            UInt c = regInit(UInt(windowW), 0).named("validCount" + i);
            UInt cNext = c.add(mux(valid[i], lit(1, windowW), lit(0, windowW)));
            Bool lane = cNext.ge(LinkFrame.TRAIN_THRESHOLD);
            chosenAcc = chosenAcc.or(mux(lane, lit(1L << i, LANES), lit(0, LANES)));
            when(training.and(listening).and(heard.not()), () -> c.assign(mux(windowEnds, lit(0, windowW), cNext)));
            when(restart, () -> c.assign(0));
        }
        UInt chosen = chosenAcc.named("chosen");
        when(training, () -> {
            when(listening.not().and(anyLaneValid), () -> listening.assign(TRUE()));
            when(listening.and(heard.not()), () -> window.assign(window.add(1)));
            when(windowEnds, () -> {
                rxMask.assign(chosen);
                // no lane good enough: listen again
                heard.assign(chosen.ne(0));
                listening.assign(chosen.ne(0));
                window.assign(0);
            });
            when(peerSays.and(peerHeard.not()), () -> {
                peerHeard.assign(TRUE());
                txMask.assign(peerLanes);
            });
            when(heard.and(peerHeard).and(confirm.lt(LinkFrame.TRAIN_CONFIRM)), () -> confirm.assign(confirm.add(1)));
        });
        when(restart, () -> {
            listening.assign(FALSE());
            heard.assign(FALSE());
            peerHeard.assign(FALSE());
            window.assign(0);
            confirm.assign(0);
        });

        UInt rxLaneCount = Bitwise.PopCount(rxMask).named("rxLaneCount");
        UInt txLaneCount = Bitwise.PopCount(txMask).named("txLaneCount");
        UInt both = mux(rxLaneCount.lt(txLaneCount), rxLaneCount, txLaneCount);
        UInt w = mux(both.ge(8), lit(8, 4), mux(both.ge(4), lit(4, 4), mux(both.ge(2), lit(2, 4), both.pad(4))));
        UInt agreed = mux(heard.and(peerHeard), w, lit(0, 4)).named("agreed");
        width.assign(agreed);
        trained.assign(heard.and(peerHeard).and(confirm.eq(LinkFrame.TRAIN_CONFIRM)).and(agreed.ne(0)));
        rxLanes.assign(rxMask);
        txLanes.assign(txMask);

        UInt[] out = new UInt[LANES];
        for (int i = 0; i < LANES; i++) {
            UInt low = cat(rxMask, heard, lit(i, 3), lit(LinkFrame.TRAIN_MAGIC, 13));
            out[LANES - 1 - i] = cat(FrameCrc.trainCheck(low), low);
        }
        words.assign(cat(out));
    }
}
