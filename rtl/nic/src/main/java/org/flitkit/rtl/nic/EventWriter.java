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
    private static final int IDLE = 0;
    private static final int DECIDE = 1;
    private static final int WRITE = 2;

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

    public EventWriter() {
        this(Th2.VP_COUNT);
    }

    public EventWriter(int vpCount) {
        producer = output(Vec(RingCounters.checkVps(vpCount), () -> UInt(NicHost.INDEX_BITS)));
        drops = output(Vec(vpCount, () -> UInt(32)));
        RingCounters ring = new RingCounters(vpCount, producer, drops);
        Vec<UInt> prodRegs = ring.producer;

        UInt state = regInit(UInt(2), IDLE);
        EventReq req = regInit(new EventReq(), 0);
        UInt stamp = regInit(UInt(64), 0);
        UInt addr = regInit(UInt(Pcie.ADDR_BITS), 0);
        UInt index = regInit(UInt(NicHost.INDEX_BITS), 0);
        Bool phase = regInit(Bool(), 0);

        eq.vp.assign(req.vp);
        in.ready.assign(state.eq(IDLE));
        when(in.fire(), () -> {
            req.assign(in.bits);
            // the time the event was built: when its source handed it over
            stamp.assign(cycle);
            state.assign(DECIDE);
        });

        UInt prod = prodRegs.at(req.vp);
        Bool noRoom = eq.full(prod);
        when(state.eq(DECIDE), () -> {
            when(noRoom, () -> {
                ring.drop(req.vp);
                state.assign(IDLE);
            }).otherwise(() -> state.assign(WRITE));
            index.assign(prod);
            addr.assign(eq.slotAddress(prod, 4));
            phase.assign(eq.phase(prod));
        });

        NicHost.Event e = NicHost.EVENT;
        Map<Field, Bits> fields = Map.of(e.PHASE, phase, e.TYPE, req.type, e.VP, req.vp, e.CODE, req.code, e.TRANSACTION_ID, req.tid,
                e.INDEX, req.index, e.TIMESTAMP, stamp);
        UInt event = LayoutBits.build(e.layout(), fields);
        Bool writing = state.eq(WRITE);
        dma.valid.assign(writing);
        dma.bits.write.assign(TRUE());
        dma.bits.tag.assign(0);
        dma.bits.addr.assign(addr);
        dma.bits.len.assign(NicHost.EQ_ENTRY_BYTES);
        dma.bits.data.assign(event.pad(Pcie.BEAT_BITS));
        dma.bits.last.assign(TRUE());
        when(dma.fire(), () -> {
            prodRegs.write(req.vp, index.add(1));
            state.assign(IDLE);
        });
        dropped.assign(state.eq(DECIDE).and(noRoom));
        irq.valid.assign(dma.fire().and(req.irq.ne(EventReq.IRQ_NONE)));
        irq.bits.assign(cat(req.irq, req.vp));
    }
}
