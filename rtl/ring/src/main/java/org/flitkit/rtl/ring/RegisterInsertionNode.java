package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Queue;

/**
 * One stop of a register-insertion ring ("Multi-rings and distributed full switches", section "Non-switched
 * multi-rings"): the source transmits whenever it has a packet, and passing traffic that meets it waits in the
 * insertion buffer; only when that buffer is full does passing traffic go first. A packet for this node leaves here.
 */
public final class RegisterInsertionNode extends RingStop {
    public RegisterInsertionNode(RingParams p, int bufferDepth) {
        super(p);
        Bool arriving = in.valid.and(in.dst.eq(id)).named("arriving");
        Bool transit = in.valid.and(arriving.not()).named("transit");
        eject.valid.assign(arriving);
        eject.bits.src.assign(in.src);
        eject.bits.tag.assign(in.tag);

        // the insertion buffer: a pipe queue takes a packet in the cycle its head leaves, even when full
        Queue<Slot> buffer = instance("insertion", new Queue<>(() -> new Slot(p), Queue.depth(bufferDepth).pipe()));
        Bool full = buffer.count.eq(bufferDepth).named("full");
        Bool localGo = inject.valid.and(transit.not().or(full.not())).named("localGo");
        inject.ready.assign(localGo);
        buffer.enq.valid.assign(transit.and(localGo.or(buffer.deq.valid)));
        buffer.enq.bits.valid.assign(TRUE());
        buffer.enq.bits.dst.assign(in.dst);
        buffer.enq.bits.src.assign(in.src);
        buffer.enq.bits.tag.assign(in.tag);
        buffer.deq.ready.assign(localGo.not());

        Bool slotValid = regInit(Bool(), 0).named("slotValid");
        UInt dst = reg(UInt(p.nodeBits())).named("dst");
        UInt src = reg(UInt(p.nodeBits())).named("src");
        UInt tag = reg(UInt(p.tagBits())).named("tag");
        slotValid.assign(transit);
        dst.assign(in.dst);
        src.assign(in.src);
        tag.assign(in.tag);
        when(localGo, () -> {
            slotValid.assign(TRUE());
            dst.assign(inject.bits.dst);
            src.assign(id);
            tag.assign(inject.bits.tag);
        }).elsewhen(buffer.deq.valid, () -> {
            slotValid.assign(TRUE());
            dst.assign(buffer.deq.bits.dst);
            src.assign(buffer.deq.bits.src);
            tag.assign(buffer.deq.bits.tag);
        });
        out.valid.assign(slotValid);
        out.dst.assign(dst);
        out.src.assign(src);
        out.tag.assign(tag);
    }

    @Override
    public String definitionName() {
        return "RegisterInsertionNode";
    }
}
