package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Counter;
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
    /** Rounds over the VCs the credit field makes after a change before it repeats itself (docs/th2-link.md, credits). */
    public static final int CREDIT_ROUNDS = 2;

    // ---- switch side
    /** flits to send; ready is low while replaying, while the link is down, when the replay buffer is full, in BIST or IDENT slots, and between frame slots on a narrow link */
    public final Decoupled<UInt> txFlit = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** flits received: CRC-good, in order, once each; no backpressure (the switch's credits guarantee room) */
    public final Valid<UInt> rxFlit = output(Valid.of(UInt(Th2.FLIT_BITS)));
    /** the local input buffer freed one slot of VC {@code bits}: tell the peer */
    public final Valid<UInt> txCredit = input(Valid.of(UInt(LinkFrame.VC_BITS)));
    /** the peer freed {@code count} slots of VC {@code vc} */
    public final Valid<CreditReturn> rxCredit = output(Valid.of(CreditReturn::new));

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
    private final LinkBist bistUnit;
    private final LaneTraining lanes;
    private final TxGearbox txGear;
    private final RxGearbox rxGear;
    private final Bool up = regInit(Bool(), 0).named("up");
    private final UInt width = regInit(UInt(4), 0).named("width");

    // link state (training), shared by both directions
    private Bool goingUp;
    private Bool goingDown;
    private Bool peerUp;
    private UInt fruitlessReplays;
    // receive: ACK state and NAK
    private UInt expected;
    private Bool nakPending;
    private Bool nakSent;
    private Bool accept;
    private Bool rxError;
    private UInt neighbour;
    // transmit: replay state
    private Replay replay;
    // transmit: this slot's frame
    private Bool txSlot;
    private Bool sendNew;
    private Bool sendReplay;
    private Bool sendFlit;
    private Bool sendIdent;

    public LinkLayer() {
        this(LinkParams.defaults());
    }

    public LinkLayer(LinkParams p) {
        this.params = p;
        bistUnit = instance("bistUnit", new LinkBist(p.bistSeed()));
        bistUnit.ctl.connect(bist);
        bistResult.connect(bistUnit.result);
        lanes = instance("lanes", new LaneTraining());
        txGear = instance("txGear", new TxGearbox());
        rxGear = instance("rxGear", new RxGearbox());

        RxFrame rx = receiveFrame();
        trainAndHold(rx);
        receiveFlits(rx);
        Bool creditVcOk = receiveCredits(rx);
        receiveIdentityAndBist(rx);
        replay = new Replay(rx);
        Announce ident = new Announce();
        chooseFrame(ident);
        updateTransmitState(ident);
        reportStatus(rx, creditVcOk);
    }

    /** The fields of one received frame and what its CRC and type say about it (docs/th2-link.md, frame format). */
    private record RxFrame(Bool frameIn, Bool crcOk, Bool good, UInt type, UInt seq, UInt ack, Bool nak, UInt creditVc,
            UInt creditCount, UInt payload, Bool isFlit, Bool isIdent, Bool knownType) {
    }

    /** Receive: the lanes through the gearbox, then the frame's CRC check and fields. */
    private RxFrame receiveFrame() {
        LinkFrame f = LinkFrame.FRAME;
        rxGear.wire.assign(wireIn);
        rxGear.up.assign(up);
        rxGear.width.assign(width);
        rxGear.lanes.assign(lanes.rxLanes);
        UInt in = rxGear.frame;
        Bool crcOk = FrameCrc.of(in.bits(LinkFrame.CRC_COVERED_BITS - 1, 0)).eq(field(in, f.CRC)).named("crcOk");
        rxGear.crcOk.assign(crcOk);
        Bool frameIn = rxGear.strobe.named("frameIn");
        Bool good = frameIn.and(crcOk).named("good");
        UInt rxType = field(in, f.TYPE).named("rxType");
        UInt rxSeq = field(in, f.SEQ);
        UInt rxAck = field(in, f.ACK);
        Bool rxNak = field(in, f.NAK).bit(0);
        UInt rxCvc = field(in, f.CREDIT_VC);
        UInt rxCcount = field(in, f.CREDIT_COUNT);
        UInt rxPayload = field(in, f.PAYLOAD);
        Bool isFlit = good.and(rxType.eq(LinkFrame.Type.FLIT.code())).named("isFlit");
        Bool isIdent = good.and(rxType.eq(LinkFrame.Type.IDENT.code())).named("isIdent");
        Bool knownType = rxType.eq(LinkFrame.Type.IDLE.code()).or(rxType.eq(LinkFrame.Type.FLIT.code()))
                .or(rxType.eq(LinkFrame.Type.IDENT.code())).or(rxType.eq(LinkFrame.Type.BIST.code()));
        return new RxFrame(frameIn, crcOk, good, rxType, rxSeq, rxAck, rxNak, rxCvc, rxCcount, rxPayload, isFlit, isIdent,
                knownType);
    }

    /** Training and link state: up after training, down on silence or on fruitless replays (spec function 2). */
    private void trainAndHold(RxFrame rx) {
        Bool wasUp = regInit(Bool(), 0).named("wasUp");
        int silenceW = 17;
        UInt silence = regInit(UInt(silenceW), 0).named("silence");
        // what keeps a link alive: a good frame while up, a valid training word while down
        Bool alive = mux(up, rx.good(), lanes.wordSeen);
        // it saturates just past both thresholds: an unplugged port stops counting (and its chip can sleep)
        int most = Math.max(params.replayTimeout(), params.silenceTimeout());
        UInt silenceNext = mux(alive, lit(0, silenceW), mux(silence.eq(most), silence, silence.add(1)));
        silence.assign(silenceNext);
        // up and not yet locked onto the peer's frames, the wait is a round trip (replayTimeout exceeds it):
        // a peer that missed the handshake keeps training, and only this end going down lets it finish
        Bool silent = silenceNext.ge(mux(up.and(rxGear.locked.not()), lit(params.replayTimeout(), silenceW),
                lit(params.silenceTimeout(), silenceW))).named("silent");
        fruitlessReplays = regInit(UInt(5), 0).named("fruitlessReplays");
        goingDown = up.and(silent.or(fruitlessReplays.ge(REPLAY_LIMIT))).named("goingDown");
        goingUp = up.not().and(lanes.trained).named("goingUp");
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
        peerUp = rx.good().and(rxGear.locked.not()).named("peerUp");
    }

    /** Receive: in-order flits once each, the cumulative ACK state and the NAK with its re-arm timer. */
    private void receiveFlits(RxFrame rx) {
        int seqW = LinkFrame.SEQ_BITS;
        expected = regInit(UInt(seqW), 0).named("expected");
        nakPending = regInit(Bool(), 0).named("nakPending");
        nakSent = regInit(Bool(), 0).named("nakSent");
        accept = rx.isFlit().and(rx.seq().eq(expected)).named("accept");
        UInt behind = expected.sub(rx.seq());
        Bool duplicate = rx.isFlit().and(behind.ne(0)).and(behind.le(1 << (seqW - 1))).named("duplicate");
        rxError = rx.frameIn().and(rx.crcOk().not().or(rx.isFlit().and(accept.not()).and(duplicate.not()))).named("rxError");
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
        int rearm = Math.max(4, params.replayTimeout() / 4);
        UInt nakTimer = regInit(UInt(16), 0).named("nakTimer");
        when(nakSent.and(accept.not()), () -> {
            nakTimer.assign(nakTimer.add(1));
            when(nakTimer.ge(rearm - 1), () -> {
                nakSent.assign(FALSE());
                nakTimer.assign(0);
            });
        }).otherwise(() -> nakTimer.assign(0));
        Bool rxValid = regNext(accept, 0).named("rxValid");
        UInt rxBits = regEnable(rx.payload(), accept).named("rxBits");
        rxFlit.valid.assign(rxValid);
        rxFlit.bits.assign(rxBits);
    }

    /** Receive: the peer's cumulative per-VC credit counts, turned into returned slots; whether the VC is carried. */
    private Bool receiveCredits(RxFrame rx) {
        List<UInt> lastCredit = new ArrayList<>();
        for (int v = 0; v < params.vcCount(); v++) {
            lastCredit.add(regInit(UInt(LinkFrame.CREDIT_BITS), 0).named("lastCredit" + v));
        }
        Bool creditVcOk = rx.creditVc().lt(params.vcCount());
        UInt lastSel = lastCredit.get(0);
        for (int v = 1; v < params.vcCount(); v++) {
            lastSel = mux(rx.creditVc().eq(v), lastCredit.get(v), lastSel);
        }
        UInt creditDelta = rx.creditCount().sub(lastSel).named("creditDelta");
        Bool creditIn = rx.good().and(creditVcOk).and(creditDelta.ne(0)).named("creditIn");
        for (int v = 0; v < params.vcCount(); v++) {
            UInt reg = lastCredit.get(v);
            when(creditIn.and(rx.creditVc().eq(v)), () -> reg.assign(rx.creditCount()));
        }
        rxCredit.valid.assign(regNext(creditIn, 0));
        rxCredit.bits.vc.assign(regEnable(rx.creditVc(), creditIn));
        rxCredit.bits.count.assign(regEnable(creditDelta, creditIn));
        return creditVcOk;
    }

    /** Receive: the neighbour's identity from IDENT frames (cleared at link-down), and the BIST checker's inputs. */
    private void receiveIdentityAndBist(RxFrame rx) {
        neighbour = regInit(UInt(64), 0).named("neighbour");
        UInt payload = rx.payload();
        when(rx.isIdent(), () -> neighbour.assign(IdentityWord.of(field(payload, LinkFrame.IDENT.CHIP_TYPE),
                field(payload, LinkFrame.IDENT.CHIP_ID), field(payload, LinkFrame.IDENT.PORT))));
        when(goingDown, () -> neighbour.assign(0));
        bistUnit.rxBist.assign(rx.frameIn().and(nearBist(rx.type())));
        bistUnit.rxCrcGood.assign(rx.good());
        bistUnit.rxFirst.assign(rx.seq().bit(0));
        bistUnit.rxPayload.assign(payload);
    }

    /** Transmit: the go-back-N replay state (sequence numbers, replay buffer, ACK window, replay timer). */
    private final class Replay {
        final int addrW = Bitwise.log2Ceil(params.replayDepth());
        final UInt nextSeq = regInit(UInt(LinkFrame.SEQ_BITS), 0).named("nextSeq");
        final UInt acked = regInit(UInt(LinkFrame.SEQ_BITS), 0).named("acked");
        final UInt sendPtr = regInit(UInt(LinkFrame.SEQ_BITS), 0).named("sendPtr");
        final Mem<UInt> replay = mem(params.replayDepth(), UInt(Th2.FLIT_BITS)).named("replay");
        final UInt outstanding;
        final Bool ackOk;
        final UInt ackedNext;
        final Bool progress;
        final UInt replayTimer;
        /** a CRC-good NAK: the peer saw a corrupted frame */
        final Bool nakIn;
        /** after link-up, unacknowledged flits are resent once the peer's frames show it is up and listening */
        final Bool goBack;
        final Bool replayStarts;

        Replay(RxFrame rx) {
            outstanding = nextSeq.sub(acked).named("outstanding");
            ackOk = rx.good().and(rx.ack().sub(acked).le(outstanding)).named("ackOk");
            ackedNext = mux(ackOk, rx.ack(), acked).named("ackedNext");
            progress = ackedNext.ne(acked);
            replayTimer = regInit(UInt(17), 0).named("replayTimer");
            Bool timeout = up.and(outstanding.ne(0)).and(replayTimer.ge(params.replayTimeout())).named("timeout");
            nakIn = rx.good().and(rx.nak()).and(ackOk).named("nakIn");
            goBack = nakIn.or(timeout).or(peerUp).named("goBack");
            replayStarts = goBack.and(ackedNext.ne(nextSeq)).named("replayStarts");
            when(progress.or(up.not()), () -> fruitlessReplays.assign(0))
                    .elsewhen(replayStarts.and(fruitlessReplays.lt(REPLAY_LIMIT)),
                            () -> fruitlessReplays.assign(fruitlessReplays.add(1)));
        }
    }

    /**
     * Transmit: the freed credits to announce and this end's identity. The credit field rotates over the VCs, one
     * per frame slot, for {@link #CREDIT_ROUNDS} rounds after the last freed slot, NAK, link-up or identity-clock
     * tick, then repeats its VC and count unchanged: an idle link's frames stay the same from cycle to cycle.
     */
    private final class Announce {
        final UInt creditPtr = regInit(UInt(LinkFrame.VC_BITS), 0).named("creditPtr");
        final int rotations = CREDIT_ROUNDS * params.vcCount();
        final UInt creditSlots = regInit(UInt(Bitwise.log2Ceil(rotations + 1)), 0).named("creditSlots");
        final Bool creditRotating = creditSlots.lt(rotations).named("creditRotating");
        final UInt freedSel;
        final UInt myIdent = cat(chipId, lit(0, 3), port, lit(0, 6), chipType).named("myIdent");
        final UInt identSent = regInit(UInt(32), 0).named("identSent");
        final Bool identForce = regInit(Bool(), 0).named("identForce");
        /** free-running: IDENT is due at each wrap, whatever else the link does, so an idle link has no timer to restart */
        final UInt identClock = regInit(UInt(Bitwise.log2Ceil(params.identPeriod())), 0).named("identClock");
        final Bool identTick = identClock.eq(params.identPeriod() - 1).named("identTick");
        final Bool identPending = regInit(Bool(), 0).named("identPending");
        final Bool identUrgent;
        final Bool tx;
        final Bool txData;
        final Bool identDue;

        Announce() {
            List<UInt> freed = new ArrayList<>();
            for (int v = 0; v < params.vcCount(); v++) {
                // cumulative count, wrapping like the peer's lastCredit
                Bool freedOne = txCredit.valid.and(txCredit.bits.eq(v));
                freed.add(Counter.enabled(freedOne, 1 << LinkFrame.CREDIT_BITS).named("freed" + v).value);
            }
            int vcW = LinkFrame.VC_BITS;
            txSlot = txGear.slot.named("txSlot");
            // a lost frame may have carried a count: NAKs and the periodic tick start the rounds again; the
            // pointer moves in the very slot of the event, as it would had it never stopped
            Bool restart = txCredit.valid.or(replay.nakIn).or(identTick).or(goingUp).or(peerUp).named("creditRestart");
            when(txSlot.and(creditRotating.or(restart)), () -> {
                creditPtr.assign(mux(creditPtr.eq(params.vcCount() - 1), lit(0, vcW), creditPtr.add(1)));
                creditSlots.assign(creditSlots.add(1));
            });
            when(restart, () -> creditSlots.assign(0));
            UInt sel = freed.get(0);
            for (int v = 1; v < params.vcCount(); v++) {
                sel = mux(creditPtr.eq(v), freed.get(v), sel);
            }
            freedSel = sel;
            identUrgent = up.and(identForce.or(myIdent.ne(identSent))).named("identUrgent");
            tx = up.and(txSlot);
            // flits and BIST frames wait until the peer's frames arrive (it is up); IDENT frames need not
            txData = tx.and(rxGear.locked).named("txData");
            bistUnit.linkUp.assign(txData);
            identClock.assign(identClock.add(1));
            identDue = up.and(identPending).named("identDue");
        }
    }

    /** Transmit: this slot's frame (BIST, IDENT, a replayed or a new flit, or IDLE), its CRC, out through the gearbox. */
    private void chooseFrame(Announce ident) {
        int seqW = LinkFrame.SEQ_BITS;
        Replay r = replay;
        Bool replaying = r.sendPtr.ne(r.nextSeq).named("replaying");
        Bool room = r.outstanding.lt(params.replayDepth());
        Bool bistSlot = ident.txData.and(bistUnit.want).named("bistSlot");
        Bool sendIdentNow = ident.tx.and(bistSlot.not()).and(ident.identUrgent).named("sendIdentNow");
        sendReplay = ident.txData.and(bistSlot.not()).and(ident.identUrgent.not()).and(replaying).named("sendReplay");
        Bool canNew = ident.txData.and(bistSlot.not()).and(ident.identUrgent.not()).and(replaying.not()).and(room)
                .named("canNew");
        txFlit.ready.assign(canNew);
        sendNew = canNew.and(txFlit.valid).named("sendNew");
        Bool idleSlot = ident.tx.and(bistSlot.not()).and(ident.identUrgent.not()).and(replaying.not()).and(sendNew.not());
        sendIdent = sendIdentNow.or(idleSlot.and(ident.identDue)).named("sendIdent");
        sendFlit = sendReplay.or(sendNew).named("sendFlit");
        bistUnit.sent.assign(bistSlot);

        UInt replayData = r.replay.read(r.sendPtr.bits(r.addrW - 1, 0));
        when(sendNew, () -> r.replay.write(r.nextSeq.bits(r.addrW - 1, 0), txFlit.bits));

        UInt txType = wireDefault(UInt(LinkFrame.TYPE_BITS), LinkFrame.Type.IDLE.code()).named("txType");
        UInt txPayload = wireDefault(UInt(Th2.FLIT_BITS), 0).named("txPayload");
        UInt txSeq = wireDefault(UInt(seqW), 0).named("txSeq");
        when(bistSlot, () -> {
            txType.assign(LinkFrame.Type.BIST.code());
            txPayload.assign(bistUnit.txPayload);
            txSeq.assign(mux(bistUnit.txFirst, lit(LinkFrame.BIST_FIRST, seqW), lit(0, seqW)));
        }).elsewhen(sendIdent, () -> {
            txType.assign(LinkFrame.Type.IDENT.code());
            txPayload.assign(ident.myIdent.pad(Th2.FLIT_BITS));
        }).elsewhen(sendFlit, () -> {
            txType.assign(LinkFrame.Type.FLIT.code());
            txPayload.assign(mux(sendReplay, replayData, txFlit.bits));
            txSeq.assign(r.sendPtr);
        });
        UInt txCovered = cat(ident.freedSel, ident.creditPtr, nakPending, expected, txSeq, txType, txPayload)
                .named("txCovered");
        txGear.frame.assign(cat(FrameCrc.of(txCovered), txCovered));
        txGear.up.assign(up);
        txGear.width.assign(width);
        txGear.lanes.assign(lanes.txLanes);
        txGear.words.assign(lanes.words);
        wireOut.assign(txGear.wire);
        when(nakPending.and(txSlot), () -> nakPending.assign(FALSE()));
        // an error seen in this very cycle asks for a NAK in the next frame
        when(rxError.and(nakSent.not()), () -> nakPending.assign(TRUE()));
    }

    /** Transmit: sequence numbers, the send pointer (go-back-N), the replay timer and the pending IDENT. */
    private void updateTransmitState(Announce ident) {
        Replay r = replay;
        r.acked.assign(r.ackedNext);
        when(sendNew, () -> r.nextSeq.assign(r.nextSeq.add(1)));
        UInt ptrAfterSend = mux(sendFlit, r.sendPtr.add(1), r.sendPtr);
        // keep sendPtr within [acked, nextSeq]: an ACK may overtake a replay in progress
        UInt nextSeqNext = mux(sendNew, r.nextSeq.add(1), r.nextSeq);
        Bool overtaken = ptrAfterSend.sub(r.ackedNext).gt(nextSeqNext.sub(r.ackedNext));
        r.sendPtr.assign(mux(r.goBack.or(overtaken), r.ackedNext, ptrAfterSend));
        UInt timer = r.replayTimer;
        when(r.goBack.or(r.progress).or(up.not()).or(r.outstanding.eq(0)), () -> timer.assign(0))
                .otherwise(() -> timer.assign(mux(timer.eq(params.replayTimeout()), timer, timer.add(1))));
        when(sendIdent, () -> {
            ident.identSent.assign(ident.myIdent);
            ident.identForce.assign(FALSE());
            ident.identPending.assign(FALSE());
        });
        when(ident.identTick.and(up), () -> ident.identPending.assign(TRUE()));
        when(goingUp.or(peerUp), () -> ident.identForce.assign(TRUE()));
    }

    /**
     * Status: the link's state and its event counters. CRC-good frames that break the protocol are used only for
     * what is valid in them, and counted: an unknown type, a CreditVC the link does not carry, an ACK outside the
     * sender's window; and a local txCredit for such a VC.
     */
    private void reportStatus(RxFrame rx, Bool creditVcOk) {
        int cw = LinkStatus.COUNTER_BITS;
        Bool protocolError = rx.good().and(rx.knownType().not().or(creditVcOk.not()).or(replay.ackOk.not()))
                .or(txCredit.valid.and(txCredit.bits.ge(params.vcCount()))).named("protocolError");
        status.up.assign(up);
        status.width.assign(mux(up, width, lit(0, 4)));
        status.rxLanes.assign(lanes.rxLanes);
        status.txLanes.assign(lanes.txLanes);
        status.neighbour.assign(neighbour);
        status.handshakes.assign(counter("handshakes", goingUp, cw));
        status.linkDownEvents.assign(counter("linkDownEvents", goingDown, cw));
        status.framesSent.assign(counter("framesSent", sendFlit, cw));
        status.retransmitted.assign(counter("retransmitted", sendReplay, cw));
        status.replays.assign(counter("replays", replay.replayStarts, cw));
        status.crcErrors.assign(counter("crcErrors", rx.frameIn().and(rx.crcOk().not()), cw));
        status.flitsReceived.assign(counter("flitsReceived", accept, cw));
        status.protocolErrors.assign(counter("protocolErrors", protocolError, cw));
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
