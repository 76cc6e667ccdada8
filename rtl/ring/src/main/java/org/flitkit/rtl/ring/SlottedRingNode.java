package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/**
 * One stop of a slotted ring ("Multi-rings and distributed full switches", section "Non-switched multi-rings"): the
 * slot register passes the slot on each cycle; a packet for this node leaves here (destination removal) and frees
 * its slot; the source may fill only an empty slot, including the one it just freed. No buffering on the way.
 */
public final class SlottedRingNode extends RingStop {
    public SlottedRingNode(RingParams p) {
        super(p);
        Bool arriving = in.valid.and(in.dst.eq(id)).named("arriving");
        eject.valid.assign(arriving);
        eject.bits.src.assign(in.src);
        eject.bits.tag.assign(in.tag);
        inject.ready.assign(in.valid.not().or(arriving));

        Bool full = regInit(Bool(), 0).named("full");
        UInt dst = reg(UInt(p.nodeBits())).named("dst");
        UInt src = reg(UInt(p.nodeBits())).named("src");
        UInt tag = reg(UInt(p.tagBits())).named("tag");
        full.assign(in.valid.and(arriving.not()));
        dst.assign(in.dst);
        src.assign(in.src);
        tag.assign(in.tag);
        when(inject.fire(), () -> {
            full.assign(TRUE());
            dst.assign(inject.bits.dst);
            src.assign(id);
            tag.assign(inject.bits.tag);
        });
        out.valid.assign(full);
        out.dst.assign(dst);
        out.src.assign(src);
        out.tag.assign(tag);
    }

    @Override
    public String definitionName() {
        return "SlottedRingNode";
    }
}
