package org.flitkit.rtl.nma;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Layout;

/**
 * One 64-bit register of an NMA register file: name, address, access kind, reset value, meaning and, for a
 * register that packs several values, its fields (a 64-bit {@link Layout}, null for one plain value).
 * Lists of RegDefs build a {@link RegisterFile} and print the register map (docs/th2-nma.md).
 * Spec: 20-th2-management.md, "Management packets and descriptors" (64-bit registers, 12/15-bit addresses).
 */
public record RegDef(String name, int addr, Access access, long resetValue, String description, Layout fields) {

    /** RW: storage written by software; RO: reads a hardware value; W1C: bits set by hardware, cleared by writing 1. */
    public enum Access { RW, RO, W1C }

    public RegDef {
        if (name == null || !name.matches("[A-Z][A-Z0-9_]*")) {
            throw new IllegalArgumentException("register name '" + name + "' must be UPPER_SNAKE_CASE");
        }
        if (addr < 0 || addr > 0x7FFF) {
            throw new IllegalArgumentException("register " + name + ": address 0x" + Integer.toHexString(addr) + " does not fit 15 bits");
        }
        if (access == null) {
            throw new IllegalArgumentException("register " + name + ": access must not be null");
        }
        if (access != Access.RW && resetValue != 0) {
            throw new IllegalArgumentException("register " + name + ": only RW registers have a reset value");
        }
        description = description == null ? "" : description;
        if (fields != null && fields.width() != 64) {
            throw new IllegalArgumentException("register " + name + ": field layout " + fields.name() + " is " + fields.width() + " bits, not 64");
        }
    }

    public RegDef(String name, int addr, Access access, long resetValue, String description) {
        this(name, addr, access, resetValue, description, null);
    }

    /** This register with its value split into {@code layout}'s fields (64 bits wide). */
    public RegDef withFields(Layout layout) {
        return new RegDef(name, addr, access, resetValue, description, layout);
    }

    /**
     * {@code value} split into this register's fields, {@code name=value} (hex above 9), highest field first as the
     * bits read ({@code valid=1,chip_id=0x42,port=5,chip_type=1}); empty for a register without fields.
     */
    public String decode(long value) {
        if (fields == null) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (Field f : highestFirst()) {
            long v = f.width() == 64 ? value : value >>> f.lsb() & (1L << f.width()) - 1;
            parts.add(f.name() + "=" + (v >= 0 && v <= 9 ? Long.toString(v) : "0x" + Long.toHexString(v)));
        }
        return String.join(",", parts);
    }

    /** One line per field for {@code ./hdl regmap --fields}: {@code   [msb:lsb] name  meaning}. */
    public List<String> fieldLines() {
        if (fields == null) {
            return List.of();
        }
        List<String> l = new ArrayList<>();
        for (Field f : highestFirst()) {
            l.add(String.format(Locale.ROOT, "  %-9s %-16s %s", "[" + f.bits() + "]", f.name(), fields.meaning(f.name())).stripTrailing());
        }
        return l;
    }

    public static RegDef rw(String name, int addr, long reset, String description) {
        return new RegDef(name, addr, Access.RW, reset, description);
    }

    public static RegDef ro(String name, int addr, String description) {
        return new RegDef(name, addr, Access.RO, 0, description);
    }

    public static RegDef w1c(String name, int addr, String description) {
        return new RegDef(name, addr, Access.W1C, 0, description);
    }

    /** The fields as the bits read, highest first. */
    private List<Field> highestFirst() {
        List<Field> l = new ArrayList<>(fields.fields());
        l.sort((a, b) -> Integer.compare(b.lsb(), a.lsb()));
        return l;
    }

    /** This register moved to {@code base + addr} and renamed {@code prefix + name}. */
    public RegDef relocated(String prefix, int base) {
        return new RegDef(prefix + name, base + addr, access, resetValue, description, fields);
    }

    /**
     * A per-port register bank: {@code count} copies of {@code template} (addresses are offsets within
     * one port's window), port p at {@code base + p * stride}, named {@code PORT<p>_<name>}.
     */
    public static List<RegDef> bank(String prefix, int base, int stride, int count, List<RegDef> template) {
        for (RegDef t : template) {
            if (t.addr >= stride) {
                throw new IllegalArgumentException("bank register " + t.name + " offset 0x" + Integer.toHexString(t.addr)
                        + " does not fit the port stride 0x" + Integer.toHexString(stride));
            }
        }
        List<RegDef> out = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            for (RegDef t : template) {
                out.add(t.relocated(prefix + p + "_", base + p * stride));
            }
        }
        return out;
    }

    /** The register-map line printed by {@code ./hdl regmap}: {@code name 0xADDR ACCESS reset=0xVALUE}. */
    public String mapLine() {
        return String.format("%s 0x%04X %s reset=0x%X", name, addr, access, resetValue);
    }
}
