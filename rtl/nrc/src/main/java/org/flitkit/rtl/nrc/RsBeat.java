package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One beat on a relay-station link: 20 bits of packet data and nothing else (a flit is 10 beats, a packet
 * 40). The routing information rides inside the head flit: on the RS plane its RtType and VC fields
 * (flit bits 114:110) always read "source routed, VC3", so they carry the port instead (the port the
 * packet leaves by outbound, came in by inbound) and are restored where the packet leaves the plane; and
 * every flit is sent from its bit 100 on, so that the tag is in the packet's first beat and a relay station
 * decides on it without buffering. Spec: 20-th2-management.md, "Where management packets go inside the
 * chips" (20-bit data path); format in docs/th2-nrc.md, "Relay-station link format".
 */
public final class RsBeat extends Bundle {
    /** Width of an NRC port number (0..23). */
    public static final int PORT_BITS = 5;
    /** The port tag in the head flit: RtType (2 bits) and VC (3 bits) above it, flit bits 114:110. */
    public static final Field TAG = new Field("PortTag", FlitLayouts.HEAD.RT_TYPE.lsb(), PORT_BITS);
    /** The flit bit a link sends first (beat 0 holds flit bits 119:100, the tag at beat bits 14:10). */
    public static final int FIRST_BIT = 100;
    /** The value RtType:VC have on the plane (source routing, VC3), the only one that is replaced by a tag. */
    public static final int PLANE_TAG = Th2.MANAGEMENT_VC << FlitLayouts.HEAD.RT_TYPE.width() | Th2.RT_SOURCE;

    /** The tag's bits inside the packet's first beat. */
    public static final Field TAG_IN_BEAT = new Field("PortTag", TAG.lsb() - FIRST_BIT, TAG.width());

    static {
        if (FlitLayouts.HEAD.VC.lsb() != TAG.lsb() + FlitLayouts.HEAD.RT_TYPE.width()
                || TAG.lsb() + TAG.width() != FlitLayouts.HEAD.VC.lsb() + FlitLayouts.HEAD.VC.width()
                || TAG_IN_BEAT.lsb() < 0 || TAG_IN_BEAT.msb() >= Th2.RS_BEAT_BITS
                || (1 << TAG.width()) < RsGeometry.TH2.ports()) {
            throw new IllegalStateException("the RS port tag must be RtType:VC, inside the first beat, and hold 0..23");
        }
    }

    public final UInt data = UInt(Th2.RS_BEAT_BITS);

    /** A flit in link order: bits 99:0 move above bits 197:100, so the link sends flit bit 100 first. */
    public static UInt toLink(UInt flit) {
        return cat(flit.bits(FIRST_BIT - 1, 0), flit.bits(Th2.FLIT_BITS - 1, FIRST_BIT));
    }

    /** The inverse of {@link #toLink}. */
    public static UInt fromLink(UInt link) {
        int high = Th2.FLIT_BITS - FIRST_BIT;
        return cat(link.bits(high - 1, 0), link.bits(Th2.FLIT_BITS - 1, high));
    }

    /** A flit with the port tag in place of RtType and VC if it is a head flit (others unchanged). */
    public static UInt tagged(UInt flit, UInt port) {
        return mux(isHead(flit), LayoutBits.with(flit, TAG, port), flit);
    }

    /** A flit leaving the plane: a head flit gets back its RtType (source routed) and VC (3). */
    public static UInt restored(UInt flit) {
        return mux(isHead(flit), LayoutBits.with(flit, TAG, lit(PLANE_TAG, TAG.width())), flit);
    }

    private static Bool isHead(UInt flit) {
        return LayoutBits.get(flit, FlitLayouts.HEAD.KIND).eq(Th2.KIND_HEAD);
    }
}
