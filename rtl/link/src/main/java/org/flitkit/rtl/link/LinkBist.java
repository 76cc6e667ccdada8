package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.formats.th2.Th2;

/**
 * The link BIST of one port (management function 6): a PRBS-31 generator that asks the {@link LinkLayer} for
 * one frame slot in every {@code interval} (data flits use the others) and a checker that locks on the peer's
 * BIST stream from any CRC-good BIST frame, so it works when only the far end was started. Counts payload bit
 * errors and the index of the first errored frame. Spec: 20-th2-management.md, function 6; docs/th2-link.md, "BIST".
 */
public final class LinkBist extends Module {
    /** the control registers */
    public final BistControl ctl = input(new BistControl());
    /** the result registers */
    public final BistResult result = output(new BistResult());

    /** the link is up: BIST frames can be sent (slots are counted only then) */
    public final Bool linkUp = input(Bool());
    /** this slot should carry a BIST frame */
    public final Bool want = output(Bool());
    /** the BIST frame's payload and whether it is the run's first frame (the Seq field's BIST_FIRST flag) */
    public final UInt txPayload = output(UInt(Th2.FLIT_BITS));
    public final Bool txFirst = output(Bool());
    /** the link layer sent the BIST frame offered this cycle */
    public final Bool sent = input(Bool());

    /** a frame whose type decodes (one bit error corrected) as BIST arrived this cycle */
    public final Bool rxBist = input(Bool());
    /** its CRC is good (a CRC-good frame carries no bit error, so it may (re)seed the checker) */
    public final Bool rxCrcGood = input(Bool());
    public final Bool rxFirst = input(Bool());
    public final UInt rxPayload = input(UInt(Th2.FLIT_BITS));

    public LinkBist(long seed) {
        if (seed <= 0 || seed > 0x7FFF_FFFFL) {
            throw new IllegalArgumentException("BIST seed must be a non-zero 31-bit value, got " + seed);
        }
        // ---- generator
        Bool running = regInit(Bool(), 0).named("running");
        Bool done = regInit(Bool(), 0).named("done");
        UInt genState = regInit(UInt(Prbs31.WIDTH), seed).named("genState");
        UInt sentCount = regInit(UInt(32), 0).named("sentCount");
        UInt duration = regInit(UInt(32), 0).named("duration");
        UInt interval = regInit(UInt(8), 1).named("interval");
        // slots to skip before the next BIST frame (intensity)
        UInt gap = regInit(UInt(8), 0).named("gap");

        Bool offer = running.and(linkUp).and(gap.eq(0)).named("offer");
        want.assign(offer);
        txPayload.assign(Prbs31.payloadOf(genState));
        txFirst.assign(sentCount.eq(0));
        Bool fired = offer.and(sent).named("fired");
        UInt sentNext = sentCount.add(1);
        when(running.and(linkUp), () -> {
            when(fired, () -> {
                gap.assign(mux(interval.le(1), lit(0, 8), interval.sub(1)));
                genState.assign(Prbs31.stateAfter(Prbs31.payloadOf(genState)));
                sentCount.assign(sentNext);
                when(duration.ne(0).and(sentNext.eq(duration)), () -> {
                    running.assign(FALSE());
                    done.assign(TRUE());
                });
            }).elsewhen(gap.ne(0), () -> gap.assign(gap.sub(1)));
        });
        when(ctl.stop.and(running), () -> {
            running.assign(FALSE());
            done.assign(TRUE());
        });
        when(ctl.start, () -> {
            running.assign(TRUE());
            done.assign(FALSE());
            genState.assign(lit(seed, Prbs31.WIDTH));
            sentCount.assign(0);
            duration.assign(ctl.duration);
            interval.assign(ctl.interval);
            gap.assign(0);
        });

        // ---- checker
        Bool synced = regInit(Bool(), 0).named("synced");
        UInt chkState = regInit(UInt(Prbs31.WIDTH), 0).named("chkState");
        UInt tested = regInit(UInt(32), 0).named("tested");
        UInt errored = regInit(UInt(32), 0).named("errored");
        UInt bitErrors = regInit(UInt(32), 0).named("bitErrors");
        Bool firstValid = regInit(Bool(), 0).named("firstValid");
        UInt firstFrame = regInit(UInt(32), 0).named("firstFrame");
        UInt resyncs = regInit(UInt(16), 0).named("resyncs");

        UInt expected = Prbs31.payloadOf(chkState).named("expected");
        UInt diff = rxPayload.xor(expected).named("diff");
        Bool mismatch = diff.orR();
        UInt diffBits = Bitwise.PopCount(diff).named("diffBits");
        // a CRC-good frame carries no bit error: lock on it when it starts a run, when not locked yet, or when
        // it disagrees with the prediction (the checker lost its place)
        Bool lock = rxBist.and(rxCrcGood).and(rxFirst.or(synced.not()).or(mismatch)).named("lock");
        Bool compare = rxBist.and(synced).and(lock.not()).named("compare");
        when(lock, () -> {
            synced.assign(TRUE());
            chkState.assign(Prbs31.stateAfter(rxPayload));
            when(rxFirst.or(synced.not()), () -> {
                tested.assign(1);
                errored.assign(0);
                bitErrors.assign(0);
                firstValid.assign(FALSE());
                firstFrame.assign(0);
            }).otherwise(() -> {
                tested.assign(tested.add(1));
                resyncs.assign(resyncs.add(1));
            });
        });
        when(compare, () -> {
            chkState.assign(Prbs31.stateAfter(expected));
            tested.assign(tested.add(1));
            when(mismatch, () -> {
                errored.assign(errored.add(1));
                bitErrors.assign(bitErrors.add(diffBits.pad(32)));
                when(firstValid.not(), () -> {
                    firstValid.assign(TRUE());
                    firstFrame.assign(tested);
                });
            });
        });
        // the local start clears the checker's counts too (the peer may be started at the same time)
        when(ctl.start, () -> {
            tested.assign(0);
            errored.assign(0);
            bitErrors.assign(0);
            firstValid.assign(FALSE());
            firstFrame.assign(0);
            resyncs.assign(0);
        });

        result.running.assign(running);
        result.done.assign(done);
        result.framesSent.assign(sentCount);
        result.synced.assign(synced);
        result.framesTested.assign(tested);
        result.erroredFrames.assign(errored);
        result.bitErrors.assign(bitErrors);
        result.firstErrorValid.assign(firstValid);
        result.firstErrorFrame.assign(firstFrame);
        result.resyncs.assign(resyncs);
    }
}
