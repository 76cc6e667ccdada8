package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.IdentityWord;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;

/**
 * The TH-2 link layer (LLP) of one port, between a switch port and the cable: one {@link LinkFrame} per cycle
 * each way on 8 lanes (per 8/w cycles on w); CRC-32C per frame, sequence numbers, cumulative ACK and NAK,
 * go-back-N replay from a replay buffer with a timeout, cumulative per-VC credits, per-lane training with width
 * negotiation and silence detection, identity exchange, link counters and the link BIST. Spec:
 * 20-th2-management.md, functions 2 and 6 and "Hardware primitives"; docs/th2-link.md.
 */
public final class LinkLayer extends Module {
    /**
     * Cycles a frame slot spends in the two link layers' registers on a round trip (frame register, ACK state,
     * the peer's frame register, ACK state): full throughput needs replayDepth >= 2 x cable latency + PIPELINE.
     */
    public static final int PIPELINE = 4;
    public static final int W = LinkFrame.BITS;
    /**
     * Replays in a row without ACK progress that take the link down to retrain (PCIe's REPLAY_NUM rollover):
     * a lane stuck at zero spoils only the frames with ones on it, so the link would otherwise stay up and
     * livelock. At the 1e-3 BER of the tests a frame fails with p = 0.23, 16 in a row with p = 1.6e-10.
     */
    public static final int REPLAY_LIMIT = 16;

    // ---- switch side
    /** flits to send; ready is low while replaying, while the link is down, when the replay buffer is full, in BIST or IDENT slots, and between frame slots on a narrow link */
    public final Decoupled<UInt> txFlit = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** flits received: CRC-good, in order, once each; no backpressure (the switch's credits guarantee room) */
    public final Valid<UInt> rxFlit = output(Valid.of(UInt(Th2.FLIT_BITS)));
    /** the local input buffer freed one slot of VC {@code bits}: tell the peer */
    public final Valid<UInt> txCredit = input(Valid.of(UInt(LinkFrame.VC_BITS)));
    /** the peer freed {@code count} slots of VC {@code vc} */
    public final Valid<CreditReturn> rxCredit = output(Valid.<CreditReturn>of((java.util.function.Supplier<CreditReturn>) CreditReturn::new));

    // ---- wire side
    /** what the 8 lanes carry this cycle: a frame, its part on a narrow link, or training words */
    public final UInt wireOut = output(UInt(W));
    /** what the 8 lanes bring this cycle (garbage or zeros from a cut cable or a dead lane) */
    public final UInt wireIn = input(UInt(W));

    // ---- identity of this end
    public final UInt chipType = input(UInt(2));
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    public final UInt port = input(UInt(5));

    // ---- management
    public final LinkStatus status = output(new LinkStatus());
    /** fault (level): the link is down after having been up */
    public final Bool linkDown = output(Bool());
    public final BistControl bist = input(new BistControl());
    public final BistResult bistResult = output(new BistResult());

    private final LinkParams params;

    public LinkLayer() {
        this(LinkParams.defaults());
    }

    public LinkLayer(LinkParams p) {
        this.params = p;
        LinkFrame f = LinkFrame.FRAME;
        int seqW = LinkFrame.SEQ_BITS;
        int addrW = Bitwise.log2Ceil(p.replayDepth());
        int cw = LinkStatus.COUNTER_BITS;

        LinkBist bistUnit = instance("bistUnit", new LinkBist(p.bistSeed()));
        bistUnit.ctl.connect(bist);
        bistResult.connect(bistUnit.result);
        LaneTraining lanes = instance("lanes", new LaneTraining());
        TxGearbox txGear = instance("txGear", new TxGearbox());
        RxGearbox rxGear = instance("rxGear", new RxGearbox());
        Bool up = regInit(Bool(), 0).named("up");
        UInt width = regInit(UInt(4), 0).named("width");

        // =========================================================== receive: lanes, then check the frame
        rxGear.wire.assign(wireIn);
        rxGear.up.assign(up);
        rxGear.width.assign(width);
        rxGear.lanes.assign(lanes.rxLanes);
        UInt in = rxGear.frame;
        Bool crcOk = FrameCrc.of(in.bits(LinkFrame.CRC_COVERED_BITS - 1, 0)).eq(field(in, f.CRC)).named("rxCrcOk");
        rxGear.crcOk.assign(crcOk);
        Bool frameIn = rxGear.strobe.named("rxFrame");
        Bool good = frameIn.and(crcOk).named("rxGood");
        UInt rxType = field(in, f.TYPE).named("rxType");
        UInt rxSeq = field(in, f.SEQ);
        UInt rxAck = field(in, f.ACK);
        Bool rxNak = field(in, f.NAK).bit(0);
        UInt rxCvc = field(in, f.CREDIT_VC);
        UInt rxCcount = field(in, f.CREDIT_COUNT);
        UInt rxPayload = field(in, f.PAYLOAD);
        Bool isFlit = good.and(rxType.eq(LinkFrame.Type.FLIT.code())).named("rxIsFlit");
        Bool isIdent = good.and(rxType.eq(LinkFrame.Type.IDENT.code())).named("rxIsIdent");
        Bool knownType = rxType.eq(LinkFrame.Type.IDLE.code()).or(rxType.eq(LinkFrame.Type.FLIT.code()))
                .or(rxType.eq(LinkFrame.Type.IDENT.code())).or(rxType.eq(LinkFrame.Type.BIST.code()));

        // =========================================================== training and link state
        Bool wasUp = regInit(Bool(), 0).named("wasUp");
        int silenceW = 17;
        UInt silence = regInit(UInt(silenceW), 0).named("silence");
        // what keeps a link alive: a good frame while up, a valid training word while down
        Bool alive = mux(up, good, lanes.wordSeen);
        UInt silenceNext = mux(alive, lit(0, silenceW), mux(silence.eq(0xFFFF), silence, silence.add(1)));
        silence.assign(silenceNext);
        // up and not yet locked onto the peer's frames, the wait is a round trip (replayTimeout exceeds it):
        // a peer that missed the handshake keeps training, and only this end going down lets it finish
        Bool silent = silenceNext.ge(mux(up.and(rxGear.locked.not()), lit(p.replayTimeout(), silenceW),
                lit(p.silenceTimeout(), silenceW))).named("silent");
        UInt fruitless = regInit(UInt(5), 0).named("fruitlessReplays");
        Bool goingDown = up.and(silent.or(fruitless.ge(REPLAY_LIMIT))).named("goingDown");
        Bool goingUp = up.not().and(lanes.trained).named("goingUp");
        when(goingUp, () -> {
            up.assign(TRUE());
            width.assign(lanes.width);
        });
        when(goingDown, () -> {
            up.assign(FALSE());
            wasUp.assign(TRUE());
        });
        linkDown.assign(wasUp.and(up.not()));
        lanes.wireIn.assign(wireIn);
        lanes.training.assign(up.not());
        // start over after a link-down, and when training hears nothing for silenceTimeout cycles
        lanes.restart.assign(goingDown.or(up.not().and(silent)));
        // the first good frame after link-up: the peer is up and listening
        Bool peerUp = good.and(rxGear.locked.not()).named("peerUp");

        // =========================================================== receive: flits, ACK state, NAK
        UInt expected = regInit(UInt(seqW), 0).named("expected");
        Bool nakPending = regInit(Bool(), 0).named("nakPending");
        Bool nakSent = regInit(Bool(), 0).named("nakSent");
        Bool accept = isFlit.and(rxSeq.eq(expected)).named("accept");
        UInt behind = expected.sub(rxSeq);
        Bool duplicate = isFlit.and(behind.ne(0)).and(behind.le(1 << (seqW - 1))).named("duplicate");
        Bool rxError = frameIn.and(crcOk.not().or(isFlit.and(accept.not()).and(duplicate.not()))).named("rxError");
        when(accept, () -> {
            expected.assign(expected.add(1));
            nakSent.assign(FALSE());
        });
        when(rxError.and(nakSent.not()), () -> {
            nakPending.assign(TRUE());
            nakSent.assign(TRUE());
        });
        when(goingUp, () -> nakSent.assign(FALSE()));
        // a NAK whose replay got corrupted again would otherwise wait for the sender's replay timeout: re-arm
        // the NAK after a quarter of it (more than a round trip when the timeout is set as documented)
        int rearm = Math.max(4, p.replayTimeout() / 4);
        UInt nakTimer = regInit(UInt(16), 0).named("nakTimer");
        when(nakSent.and(accept.not()), () -> {
            nakTimer.assign(nakTimer.add(1));
            when(nakTimer.ge(rearm - 1), () -> {
                nakSent.assign(FALSE());
                nakTimer.assign(0);
            });
        }).otherwise(() -> nakTimer.assign(0));
        Bool rxValid = regNext(accept, 0).named("rxValidReg");
        UInt rxBits = regEnable(rxPayload, accept).named("rxBitsReg");
        rxFlit.valid.assign(rxValid);
        rxFlit.bits.assign(rxBits);

        // =========================================================== receive: credits
        List<UInt> lastCredit = new ArrayList<>();
        for (int v = 0; v < p.vcCount(); v++) {
            lastCredit.add(regInit(UInt(LinkFrame.CREDIT_BITS), 0).named("lastCredit" + v));
        }
        Bool creditVcOk = rxCvc.lt(p.vcCount());
        UInt lastSel = lastCredit.get(0);
        for (int v = 1; v < p.vcCount(); v++) {
            lastSel = mux(rxCvc.eq(v), lastCredit.get(v), lastSel);
        }
        UInt delta = rxCcount.sub(lastSel).named("creditDelta");
        Bool creditIn = good.and(creditVcOk).and(delta.ne(0)).named("creditIn");
        for (int v = 0; v < p.vcCount(); v++) {
            UInt reg = lastCredit.get(v);
            when(creditIn.and(rxCvc.eq(v)), () -> reg.assign(rxCcount));
        }
        rxCredit.valid.assign(regNext(creditIn, 0));
        rxCredit.bits.vc.assign(regEnable(rxCvc, creditIn));
        rxCredit.bits.count.assign(regEnable(delta, creditIn));

        // =========================================================== receive: neighbour identity, BIST
        UInt neighbour = regInit(UInt(64), 0).named("neighbourReg");
        when(isIdent, () -> neighbour.assign(IdentityWord.of(field(rxPayload, LinkFrame.IDENT.CHIP_TYPE),
                field(rxPayload, LinkFrame.IDENT.CHIP_ID), field(rxPayload, LinkFrame.IDENT.PORT))));
        when(goingDown, () -> neighbour.assign(0));
        bistUnit.rxBist.assign(frameIn.and(nearBist(rxType)));
        bistUnit.rxCrcGood.assign(good);
        bistUnit.rxFirst.assign(rxSeq.bit(0));
        bistUnit.rxPayload.assign(rxPayload);

        // =========================================================== transmit: replay state
        UInt nextSeq = regInit(UInt(seqW), 0).named("nextSeq");
        UInt acked = regInit(UInt(seqW), 0).named("acked");
        UInt sendPtr = regInit(UInt(seqW), 0).named("sendPtr");
        Mem<UInt> replay = mem(p.replayDepth(), UInt(Th2.FLIT_BITS)).named("replay");
        UInt outstanding = nextSeq.sub(acked).named("outstanding");
        Bool ackOk = good.and(rxAck.sub(acked).le(outstanding)).named("ackOk");
        UInt ackedNext = mux(ackOk, rxAck, acked).named("ackedNext");
        Bool progress = ackedNext.ne(acked);
        UInt timer = regInit(UInt(17), 0).named("replayTimer");
        Bool timeout = up.and(outstanding.ne(0)).and(timer.ge(p.replayTimeout())).named("timeout");
        Bool nakIn = good.and(rxNak).and(ackOk).named("nakIn");
        // after link-up, unacknowledged flits are resent once the peer's frames show it is up and listening
        Bool goBack = nakIn.or(timeout).or(peerUp).named("goBack");
        Bool replayStarts = goBack.and(ackedNext.ne(nextSeq)).named("replayStarts");
        when(progress.or(up.not()), () -> fruitless.assign(0))
                .elsewhen(replayStarts.and(fruitless.lt(REPLAY_LIMIT)), () -> fruitless.assign(fruitless.add(1)));

        // =========================================================== transmit: credits, identity
        List<UInt> freed = new ArrayList<>();
        for (int v = 0; v < p.vcCount(); v++) {
            UInt c = regInit(UInt(LinkFrame.CREDIT_BITS), 0).named("freed" + v);
            when(txCredit.valid.and(txCredit.bits.eq(v)), () -> c.assign(c.add(1)));
            freed.add(c);
        }
        int vcW = LinkFrame.VC_BITS;
        UInt creditPtr = regInit(UInt(vcW), 0).named("creditPtr");
        Bool slot = txGear.slot.named("txSlot");
        when(slot, () -> creditPtr.assign(mux(creditPtr.eq(p.vcCount() - 1), lit(0, vcW), creditPtr.add(1))));
        UInt freedSel = freed.get(0);
        for (int v = 1; v < p.vcCount(); v++) {
            freedSel = mux(creditPtr.eq(v), freed.get(v), freedSel);
        }
        UInt myIdent = cat(chipId, lit(0, 3), port, lit(0, 6), chipType).named("myIdent");
        UInt identSent = regInit(UInt(32), 0).named("identSent");
        Bool identForce = regInit(Bool(), 0).named("identForce");
        int identW = 25;
        UInt identTimer = regInit(UInt(identW), 0).named("identTimer");
        Bool identUrgent = up.and(identForce.or(myIdent.ne(identSent))).named("identUrgent");
        Bool tx = up.and(slot);
        // flits and BIST frames wait until the peer's frames arrive (it is up); IDENT frames need not
        Bool txData = tx.and(rxGear.locked).named("txData");
        bistUnit.linkUp.assign(txData);
        Bool identDue = up.and(identTimer.ge(p.identPeriod())).named("identDue");

        // =========================================================== transmit: choose this slot's frame
        Bool replaying = sendPtr.ne(nextSeq).named("replaying");
        Bool room = outstanding.lt(p.replayDepth());
        Bool bistSlot = txData.and(bistUnit.want).named("bistSlot");
        Bool sendIdentNow = tx.and(bistSlot.not()).and(identUrgent).named("sendIdentUrgent");
        Bool sendReplay = txData.and(bistSlot.not()).and(identUrgent.not()).and(replaying).named("sendReplay");
        Bool canNew = txData.and(bistSlot.not()).and(identUrgent.not()).and(replaying.not()).and(room).named("canNew");
        txFlit.ready.assign(canNew);
        Bool sendNew = canNew.and(txFlit.valid).named("sendNew");
        Bool idleSlot = tx.and(bistSlot.not()).and(identUrgent.not()).and(replaying.not()).and(sendNew.not());
        Bool sendIdent = sendIdentNow.or(idleSlot.and(identDue)).named("sendIdent");
        Bool sendFlit = sendReplay.or(sendNew).named("sendFlit");
        bistUnit.sent.assign(bistSlot);

        UInt replayData = replay.read(sendPtr.bits(addrW - 1, 0));
        when(sendNew, () -> replay.write(nextSeq.bits(addrW - 1, 0), txFlit.bits));

        UInt type = wireDefault(UInt(LinkFrame.TYPE_BITS), LinkFrame.Type.IDLE.code()).named("txType");
        UInt payload = wireDefault(UInt(Th2.FLIT_BITS), 0).named("txPayload");
        UInt seq = wireDefault(UInt(seqW), 0).named("txSeq");
        when(bistSlot, () -> {
            type.assign(LinkFrame.Type.BIST.code());
            payload.assign(bistUnit.txPayload);
            seq.assign(mux(bistUnit.txFirst, lit(LinkFrame.BIST_FIRST, seqW), lit(0, seqW)));
        }).elsewhen(sendIdent, () -> {
            type.assign(LinkFrame.Type.IDENT.code());
            payload.assign(myIdent.pad(Th2.FLIT_BITS));
        }).elsewhen(sendFlit, () -> {
            type.assign(LinkFrame.Type.FLIT.code());
            payload.assign(mux(sendReplay, replayData, txFlit.bits));
            seq.assign(sendPtr);
        });
        UInt covered = cat(freedSel, creditPtr, nakPending, expected, seq, type, payload).named("txCovered");
        txGear.frame.assign(cat(FrameCrc.of(covered), covered));
        txGear.up.assign(up);
        txGear.width.assign(width);
        txGear.lanes.assign(lanes.txLanes);
        txGear.words.assign(lanes.words);
        wireOut.assign(txGear.wire);
        when(nakPending.and(slot), () -> nakPending.assign(FALSE()));
        // an error seen in this very cycle asks for a NAK in the next frame
        when(rxError.and(nakSent.not()), () -> nakPending.assign(TRUE()));

        // =========================================================== transmit: state updates
        acked.assign(ackedNext);
        when(sendNew, () -> nextSeq.assign(nextSeq.add(1)));
        UInt ptrAfterSend = mux(sendFlit, sendPtr.add(1), sendPtr);
        // keep sendPtr within [acked, nextSeq]: an ACK may overtake a replay in progress
        UInt nextSeqNext = mux(sendNew, nextSeq.add(1), nextSeq);
        Bool overtaken = ptrAfterSend.sub(ackedNext).gt(nextSeqNext.sub(ackedNext));
        sendPtr.assign(mux(goBack.or(overtaken), ackedNext, ptrAfterSend));
        when(goBack.or(progress).or(up.not()).or(outstanding.eq(0)), () -> timer.assign(0))
                .otherwise(() -> timer.assign(mux(timer.eq(p.replayTimeout()), timer, timer.add(1))));
        when(sendIdent, () -> {
            identSent.assign(myIdent);
            identForce.assign(FALSE());
            identTimer.assign(0);
        }).otherwise(() -> identTimer.assign(mux(identTimer.ge(p.identPeriod()), identTimer, identTimer.add(1))));
        when(goingUp.or(peerUp), () -> identForce.assign(TRUE()));

        // =========================================================== status
        UInt handshakes = counter("handshakes", goingUp, cw);
        UInt downs = counter("linkDownEvents", goingDown, cw);
        UInt framesSent = counter("framesSent", sendFlit, cw);
        UInt retransmitted = counter("retransmitted", sendReplay, cw);
        UInt replays = counter("replays", replayStarts, cw);
        UInt crcErrors = counter("crcErrors", frameIn.and(crcOk.not()), cw);
        // CRC-good frames that break the protocol are used only for what is valid in them, and counted: an
        // unknown type, a CreditVC the link does not carry, an ACK outside the sender's window; and a local
        // txCredit for such a VC
        Bool protocolError = good.and(knownType.not().or(creditVcOk.not()).or(ackOk.not()))
                .or(txCredit.valid.and(txCredit.bits.ge(p.vcCount()))).named("protocolError");
        UInt protocolErrors = counter("protocolErrors", protocolError, cw);
        UInt flitsReceived = counter("flitsReceived", accept, cw);
        status.up.assign(up);
        status.width.assign(mux(up, width, lit(0, 4)));
        status.rxLanes.assign(lanes.rxLanes);
        status.txLanes.assign(lanes.txLanes);
        status.neighbour.assign(neighbour);
        status.handshakes.assign(handshakes);
        status.linkDownEvents.assign(downs);
        status.framesSent.assign(framesSent);
        status.retransmitted.assign(retransmitted);
        status.replays.assign(replays);
        status.crcErrors.assign(crcErrors);
        status.flitsReceived.assign(flitsReceived);
        status.protocolErrors.assign(protocolErrors);
    }

    public LinkParams params() {
        return params;
    }

    /** Bits of {@code f} within {@code value}. */
    static UInt field(UInt value, org.flitkit.formats.core.Field f) {
        return value.bits(f.msb(), f.lsb());
    }

    /** The type code is BIST or one bit away from it (the BIST checker counts errored BIST frames too). */
    static Bool nearBist(UInt type) {
        UInt d = type.xor(lit(LinkFrame.Type.BIST.code(), LinkFrame.TYPE_BITS));
        return Bitwise.PopCount(d).le(1);
    }

    private static UInt counter(String name, Bool inc, int width) {
        UInt c = regInit(UInt(width), 0).named(name);
        when(inc, () -> c.assign(c.add(1)));
        return c;
    }
}
