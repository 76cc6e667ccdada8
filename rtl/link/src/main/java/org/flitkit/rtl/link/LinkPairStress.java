package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.Th2;

/**
 * {@link LinkPairBoard} for random stimulus (differential tests, {@code ./hdl sim --random-inputs}): each rare event
 * is an 8-bit key input that must be zero (1 cycle in 256): one bit error per direction at a random position,
 * a one-cycle cut, a BIST start or stop, a new chip ID; flits and credits come straight from the inputs. So
 * random inputs bring the link up and exercise replay, BIST and identity instead of cutting it every cycle.
 * docs/th2-link.md, "Verilog".
 */
public final class LinkPairStress extends Module {
    public final Decoupled<UInt> aTxFlit = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    public final Decoupled<UInt> bTxFlit = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    public final Valid<UInt> aTxCredit = input(Valid.of(UInt(3)));
    public final Valid<UInt> bTxCredit = input(Valid.of(UInt(3)));
    public final UInt errKeyAB = input(UInt(8));
    public final UInt errKeyBA = input(UInt(8));
    public final UInt errPosAB = input(UInt(9));
    public final UInt errPosBA = input(UInt(9));
    public final UInt cutKey = input(UInt(8));
    /** 0 / 1: lanes {@code laneMask} (lane 7 excepted, so the link can always train) die A -> B / B -> A, for good */
    public final UInt laneKey = input(UInt(8));
    public final UInt laneMask = input(UInt(8));
    public final UInt bistKey = input(UInt(8));
    public final UInt idKey = input(UInt(8));
    public final UInt newId = input(UInt(Th2.CHIP_ID_BITS));

    public final Valid<UInt> aRxFlit = output(Valid.of(UInt(Th2.FLIT_BITS)));
    public final Valid<UInt> bRxFlit = output(Valid.of(UInt(Th2.FLIT_BITS)));
    public final Valid<CreditReturn> aRxCredit = output(Valid.of(CreditReturn::new));
    public final Valid<CreditReturn> bRxCredit = output(Valid.of(CreditReturn::new));
    public final LinkStatus aStatus = output(new LinkStatus());
    public final LinkStatus bStatus = output(new LinkStatus());
    public final BistResult aBist = output(new BistResult());
    public final BistResult bBist = output(new BistResult());
    public final Bool aLinkDown = output(Bool());
    public final Bool bLinkDown = output(Bool());

    public LinkPairStress() {
        LinkParams p = LinkParams.defaults().withReplayDepth(16).withReplayTimeout(48).withSilenceTimeout(16).withIdentPeriod(64);
        LinkPairBoard pair = instance("pair", new LinkPairBoard(p, 3, 4));
        pair.a.txFlit.connect(aTxFlit);
        pair.b.txFlit.connect(bTxFlit);
        pair.a.txCredit.connect(aTxCredit);
        pair.b.txCredit.connect(bTxCredit);
        aRxFlit.connect(pair.a.rxFlit);
        bRxFlit.connect(pair.b.rxFlit);
        aRxCredit.connect(pair.a.rxCredit);
        bRxCredit.connect(pair.b.rxCredit);
        aStatus.connect(pair.a.status);
        bStatus.connect(pair.b.status);
        aBist.connect(pair.a.bistResult);
        bBist.connect(pair.b.bistResult);
        aLinkDown.assign(pair.a.linkDown);
        bLinkDown.assign(pair.b.linkDown);

        pair.errorAB.assign(mux(errKeyAB.eq(0), lit(1, LinkLayer.W).shlTrunc(errPosAB), lit(0, LinkLayer.W)));
        pair.errorBA.assign(mux(errKeyBA.eq(0), lit(1, LinkLayer.W).shlTrunc(errPosBA), lit(0, LinkLayer.W)));
        pair.cutAB.assign(cutKey.eq(0));
        pair.cutBA.assign(cutKey.eq(1));
        UInt deadAB = regInit(UInt(8), 0).named("deadAB");
        UInt deadBA = regInit(UInt(8), 0).named("deadBA");
        when(laneKey.eq(0), () -> deadAB.assign(deadAB.or(laneMask.and(0x7F))));
        when(laneKey.eq(1), () -> deadBA.assign(deadBA.or(laneMask.and(0x7F))));
        pair.lanesDownAB.assign(deadAB);
        pair.lanesDownBA.assign(deadBA);

        UInt chipIdA = regInit(UInt(Th2.CHIP_ID_BITS), 0x0A01).named("chipIdA");
        when(idKey.eq(0), () -> chipIdA.assign(newId));
        pair.a.chipType.assign(1);
        pair.a.chipId.assign(chipIdA);
        pair.a.port.assign(3);
        pair.b.chipType.assign(0);
        pair.b.chipId.assign(0x0B02);
        pair.b.port.assign(17);
        // A starts runs of 64 frames, one slot in 2; B runs until stopped
        pair.a.bist.start.assign(bistKey.eq(0));
        pair.a.bist.stop.assign(FALSE());
        pair.a.bist.duration.assign(64);
        pair.a.bist.interval.assign(2);
        pair.b.bist.start.assign(bistKey.eq(1));
        pair.b.bist.stop.assign(bistKey.eq(2));
        pair.b.bist.duration.assign(0);
        pair.b.bist.interval.assign(5);
    }
}
