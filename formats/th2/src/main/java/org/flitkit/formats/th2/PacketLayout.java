package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;
import org.flitkit.formats.core.Layout;

/**
 * The whole 792-bit management packet: the four flits concatenated (flit k = bits
 * [198k+197 : 198k]), field names qualified by flit ({@code head.HopPtr}); framing and CRC.
 * Each flit's fields are reached by handle at their packet positions: {@code PacketLayout.BODY1.NMP_TYPE}.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public final class PacketLayout {

    public static final FlitLayouts.Head HEAD = new FlitLayouts.Head(Format.Place.inside(flitOffset(0)));
    public static final FlitLayouts.Body1 BODY1 = new FlitLayouts.Body1(Format.Place.inside(flitOffset(1)));
    public static final FlitLayouts.Body2 BODY2 = new FlitLayouts.Body2(Format.Place.inside(flitOffset(2)));
    public static final FlitLayouts.Tail TAIL = new FlitLayouts.Tail(Format.Place.inside(flitOffset(3)));

    /** The flits at their packet positions, in transmission order. */
    public static final List<FlitLayouts.Flit> FLITS = List.of(HEAD, BODY1, BODY2, TAIL);

    public static final Layout PACKET = Layout.concat("packet",
            FlitLayouts.FLITS.stream().map(Format::layout).toList());

    /** {@code HEAD.HOP_PTR} and {@code TAIL.CRC} by the role they play for the CRC. */
    public static final Field HOP_PTR = HEAD.HOP_PTR;
    public static final Field CRC = TAIL.CRC;

    /** Fields the CRC does not cover (they are taken as zero when computing it). */
    public static final List<Field> CRC_EXCLUDED = List.of(HOP_PTR, CRC);

    private PacketLayout() {
    }

    /** Bit offset of flit {@code index} in the packet. */
    public static int flitOffset(int index) {
        return index * Th2.FLIT_BITS;
    }

    /** Sets the constant framing fields: each flit's Kind, VC = 3, Len = 4, RtType = source. */
    public static BitVector withFraming(BitVector packet) {
        BitVector p = checkWidth(packet);
        for (FlitLayouts.Flit flit : FLITS) {
            p = p.with(flit.KIND, flit.kind());
        }
        return p.with(HEAD.VC, Th2.MANAGEMENT_VC)
                .with(HEAD.LEN, Th2.PACKET_FLITS)
                .with(HEAD.RT_TYPE, Th2.RT_SOURCE);
    }

    /**
     * CRC-32C of the packet with HopPtr and CRC zeroed, fed bit 0 first (99 little-endian
     * bytes). Routers may advance HopPtr without recomputing it.
     */
    public static int crcOf(BitVector packet) {
        BitVector p = checkWidth(packet);
        for (Field f : CRC_EXCLUDED) {
            p = p.with(f, 0L);
        }
        return Crc32c.compute(p);
    }

    public static BitVector withCrc(BitVector packet) {
        return packet.with(CRC, Integer.toUnsignedLong(crcOf(packet)));
    }

    public static boolean crcMatches(BitVector packet) {
        return (int) checkWidth(packet).get(CRC) == crcOf(packet);
    }

    /** Splits a packet into its 4 flits, flit 0 (head) first. */
    public static List<BitVector> toFlits(BitVector packet) {
        return checkWidth(packet).split(Th2.FLIT_BITS);
    }

    /** Joins 4 flits, head first, into a packet. */
    public static BitVector fromFlits(List<BitVector> flits) {
        if (flits.size() != Th2.PACKET_FLITS) {
            throw new IllegalArgumentException("a management packet is " + Th2.PACKET_FLITS + " flits, got " + flits.size());
        }
        for (BitVector f : flits) {
            if (f.width() != Th2.FLIT_BITS) {
                throw new IllegalArgumentException("a flit is " + Th2.FLIT_BITS + " bits, got " + f.width());
            }
        }
        return BitVector.concat(flits);
    }

    /**
     * A flit cut into 20-bit pieces: 10 of them, bits 19:0 first, the last padded with 2 zero bits. (The NRC's
     * relay-station link sends a flit from its bit 100 on, with a port tag in the head: docs/th2-nrc.md.)
     */
    public static List<BitVector> toRsBeats(BitVector flit) {
        if (flit.width() != Th2.FLIT_BITS) {
            throw new IllegalArgumentException("a flit is " + Th2.FLIT_BITS + " bits, got " + flit.width());
        }
        return flit.split(Th2.RS_BEAT_BITS);
    }

    private static BitVector checkWidth(BitVector packet) {
        if (packet.width() != Th2.PACKET_BITS) {
            throw new IllegalArgumentException("a management packet is " + Th2.PACKET_BITS + " bits, got " + packet.width());
        }
        return packet;
    }
}
