package org.flitkit.rtl.nma.hw;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.Field;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.Layout;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;

/**
 * Hardware access to the management formats (docs/th2-formats.md): slicing, replacing and building
 * fields of packet words by the same {@link Field} handles the software model uses
 * ({@code PacketBits.get(pkt, PacketLayout.BODY1.NMP_TYPE)}), so RTL and host software cannot disagree
 * on a bit position and a misspelt field does not compile.
 */
public final class PacketBits {
    private PacketBits() {
    }

    /** A valid/ready stream of whole management packets (one beat = 4 flits = 792 bits). */
    public static Decoupled<UInt> packetStream() {
        return Decoupled.of(UInt(Th2.PACKET_BITS));
    }

    /** The framing every management packet has: flit kinds head, body, body, tail; VC3; Len 4; source routing; MP, S/M 0, Inst 1. */
    public static Bool managementFraming(Bits pkt) {
        Bool ok = TRUE();
        for (FlitLayouts.Flit flit : PacketLayout.FLITS) {
            ok = ok.and(get(pkt, flit.KIND).eq(flit.kind()));
        }
        return ok.and(get(pkt, PacketLayout.HEAD.VC).eq(Th2.MANAGEMENT_VC))
                .and(get(pkt, PacketLayout.HEAD.LEN).eq(Th2.PACKET_FLITS))
                .and(get(pkt, PacketLayout.HEAD.RT_TYPE).eq(Th2.RT_SOURCE))
                .and(get(pkt, PacketLayout.HEAD.TYPE).eq(Th2.TYPE_MP))
                .and(get(pkt, PacketLayout.HEAD.SM).eq(Th2.MANAGEMENT_SM ? 1 : 0))
                .and(get(pkt, PacketLayout.HEAD.INST).eq(Th2.MANAGEMENT_INST ? 1 : 0));
    }

    public static UInt get(Bits word, Field f) {
        return word.bits(f.lsb() + f.width() - 1, f.lsb());
    }

    /** A payload field (from {@link org.flitkit.formats.th2.PayloadLayouts}) inside a whole packet. */
    public static UInt payload(Bits packet, Field payloadField) {
        int lsb = PacketLayout.BODY2.NMP_DATA.lsb() + payloadField.lsb();
        return packet.bits(lsb + payloadField.width() - 1, lsb);
    }

    /** Whether any reserved bit (a bit in no field) of {@code word}, a value of {@code layout}, is set. */
    public static Bool reservedSet(Bits word, Layout layout) {
        if (word.width() != layout.width()) {
            throw new HdlException("layout " + layout.name() + " is " + layout.width() + " bits; word is " + word.width());
        }
        BigInteger mask = BigInteger.ZERO;
        for (Field f : layout.reserved()) {
            mask = mask.or(BigInteger.ONE.shiftLeft(f.width()).subtract(BigInteger.ONE).shiftLeft(f.lsb()));
        }
        return word.asUInt().and(lit(mask, layout.width())).orR();
    }

    /** {@code word} with field {@code f} replaced by {@code value} (narrower values are zero-extended). */
    public static UInt with(Bits word, Field f, Bits value) {
        if (value.width() > f.width()) {
            throw new HdlException("field " + f.name() + " is " + f.width() + " bits; value is " + value.width());
        }
        List<Bits> parts = new ArrayList<>();
        int top = word.width() - 1;
        if (top > f.lsb() + f.width() - 1) {
            parts.add(word.bits(top, f.lsb() + f.width()));
        }
        parts.add(value.width() < f.width() ? value.asUInt().pad(f.width()) : value.asUInt());
        if (f.lsb() > 0) {
            parts.add(word.bits(f.lsb() - 1, 0));
        }
        return cat(parts);
    }

    /**
     * A word of {@code layout} from field values; fields not given (and reserved bits) are zero. A
     * handle of another layout (a flit-local or payload field in a packet) is an error, not a silent misplacement.
     */
    public static UInt build(Layout layout, Map<Field, ? extends Bits> values) {
        for (Field k : values.keySet()) {
            if (!layout.fields().contains(k)) {
                throw new HdlException("layout " + layout.name() + " has no field " + k + "; fields: " + layout.fields());
            }
        }
        List<Bits> parts = new ArrayList<>();
        List<Field> rows = new ArrayList<>(layout.rows());
        rows.sort((a, b) -> Integer.compare(b.lsb(), a.lsb()));
        for (Field f : rows) {
            Bits v = values.get(f);
            if (v == null) {
                parts.add(lit(0, f.width()));
            } else if (v.width() > f.width()) {
                throw new HdlException("field " + f.name() + " of " + layout.name() + " is " + f.width() + " bits; value is " + v.width());
            } else {
                parts.add(v.width() < f.width() ? v.asUInt().pad(f.width()) : v.asUInt());
            }
        }
        return cat(parts);
    }
}
