package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import java.util.Map;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The event queue: each {@link EventReq} becomes one 16-byte {@code NicHost.EVENT} at the VP's EQ producer index
 * (phase and timestamp added here), then the interrupt it asks for (Lint: completion, Rint: MPQ not empty); a
 * full EQ, or none, drops the event and counts it. Spec: 20-th2-management.md, descriptor fields Lint and Rint,
 * NIC flow (4); docs/th2-nic.md, "Host-visible queues".
 */
public final class EventWriter extends Module {
    /** IDLE (takes an event), DECIDE (room in the VP's EQ?), WRITE (the entry's DMA write). */
    public enum State { IDLE, DECIDE, WRITE }

    public final Decoupled<EventReq> in = input(Decoupled.of(EventReq::new));
    /** The EQ of the held event's VP (this block drives {@code vp}). */
    public final QueueLookup eq = input(new QueueLookup());
    /** The NIC's free-running cycle counter, the events' timestamp. */
    public final UInt cycle = input(UInt(64));
    public final Decoupled<DmaRequest> dma = output(Decoupled.of(DmaRequest::new));
    /** Per-VP EQ producer index and count of events dropped at a full (or missing) EQ, for the register map. */
    public final Vec<UInt> producer;
    public final Vec<UInt> drops;
    /** An interrupt message, once its event is written: vp in bits 5:0, cause ({@code NicHost.IRQ_*}) in bits 7:6. */
    public final Valid<UInt> irq = output(Valid.of(UInt(8)));
    /** One-cycle pulse: an event was dropped (EQ full or not set up). */
    public final Bool dropped = output(Bool());
    public final Fsm<State> fsm;

    /** The event being written, the cycle it was handed over, and its slot in the EQ. */
    private final EventReq req;
    private final UInt stamp;
    private final RingSlot slot;

    public EventWriter() {
        this(Th2.VP_COUNT);
    }

    public EventWriter(int vpCount) {
        producer = output(Vec(RingCounters.checkVps(vpCount), () -> UInt(NicHost.INDEX_BITS)));
        drops = output(Vec(vpCount, () -> UInt(32)));
        RingCounters ring = new RingCounters(vpCount, producer, drops);
        fsm = new Fsm<>(State.class);
        req = regInit(new EventReq(), 0);
        stamp = regInit(UInt(64), 0);
        slot = regInit(new RingSlot(), 0);

        eq.vp.assign(req.vp);
        in.ready.assign(fsm.is(State.IDLE));
        when(in.fire(), () -> {
            req.assign(in.bits);
            // the time the event was built: when its source handed it over
            stamp.assign(cycle);
            fsm.goTo(State.DECIDE);
        });

        UInt prod = ring.producer.at(req.vp);
        Bool noRoom = eq.full(prod);
        fsm.on(State.DECIDE, () -> {
            when(noRoom, () -> {
                ring.drop(req.vp);
                fsm.goTo(State.IDLE);
            }).otherwise(() -> fsm.goTo(State.WRITE));
            slot.take(eq, prod, 4);
        });

        dma.valid.assign(fsm.is(State.WRITE));
        dma.bits.write.assign(TRUE());
        dma.bits.tag.assign(0);
        dma.bits.addr.assign(slot.addr);
        dma.bits.len.assign(NicHost.EQ_ENTRY_BYTES);
        dma.bits.data.assign(event().pad(Pcie.BEAT_BITS));
        dma.bits.last.assign(TRUE());
        when(dma.fire(), () -> {
            ring.producer.write(req.vp, slot.index.add(1));
            fsm.goTo(State.IDLE);
        });
        dropped.assign(fsm.is(State.DECIDE).and(noRoom));
        irq.valid.assign(dma.fire().and(req.irq.ne(EventReq.IRQ_NONE)));
        irq.bits.assign(cat(req.irq, req.vp));
    }

    /** The held event as a 16-byte {@code NicHost.EVENT} entry, with its phase and timestamp. */
    private UInt event() {
        NicHost.Event e = NicHost.EVENT;
        Map<Field, Bits> fields = Map.of(e.PHASE, slot.phase, e.TYPE, req.type, e.VP, req.vp, e.CODE, req.code, e.TRANSACTION_ID, req.tid,
                e.INDEX, req.index, e.TIMESTAMP, stamp);
        return LayoutBits.build(e.layout(), fields);
    }
}
