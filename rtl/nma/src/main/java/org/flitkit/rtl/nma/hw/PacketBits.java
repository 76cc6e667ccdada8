package org.flitkit.rtl.nma.hw;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.Field;
import org.flitkit.formats.th2.Layout;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;

/**
 * Hardware access to the management formats (docs/th2-formats.md): slicing, replacing and building
 * fields of packet words with the same {@link Layout} tables the software model uses, so RTL and host
 * software cannot disagree on a bit position.
 */
public final class PacketBits {
    /** NMPData inside the whole 792-bit packet. */
    public static final Field NMP_DATA = PacketLayout.PACKET.field("body2.NMPData");

    private PacketBits() {
    }

    /** A valid/ready stream of whole management packets (one beat = 4 flits = 792 bits). */
    public static Decoupled<UInt> packetStream() {
        return Decoupled.of(UInt(Th2.PACKET_BITS));
    }

    /** Field of the whole packet by its layout name, e.g. {@code "head.DestID"}. */
    public static Field field(String name) {
        return PacketLayout.PACKET.field(name);
    }

    public static UInt get(Bits word, Field f) {
        return word.bits(f.lsb() + f.width() - 1, f.lsb());
    }

    public static UInt get(Bits packet, String name) {
        return get(packet, field(name));
    }

    /** A payload field (from {@link org.flitkit.formats.th2.PayloadLayouts}) inside a whole packet. */
    public static UInt payload(Bits packet, Field payloadField) {
        return packet.bits(NMP_DATA.lsb() + payloadField.lsb() + payloadField.width() - 1, NMP_DATA.lsb() + payloadField.lsb());
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

    public static UInt with(Bits word, String name, Bits value) {
        return with(word, field(name), value);
    }

    /**
     * A word of {@code layout} from named field values; fields not given (and reserved bits) are zero.
     * Unknown names are an error, so a typo cannot silently drop a field.
     */
    public static UInt build(Layout layout, Map<String, ? extends Bits> values) {
        for (String k : values.keySet()) {
            if (!layout.has(k)) {
                throw new HdlException("layout " + layout.name() + " has no field '" + k + "'");
            }
        }
        List<Bits> parts = new ArrayList<>();
        List<Field> rows = new ArrayList<>(layout.rows());
        rows.sort((a, b) -> Integer.compare(b.lsb(), a.lsb()));
        for (Field f : rows) {
            Bits v = values.get(f.name());
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
