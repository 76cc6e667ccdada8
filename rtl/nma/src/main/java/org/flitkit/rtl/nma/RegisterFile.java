package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.rtl.nma.hw.RegBus;

/**
 * A generic NMA register file built from a {@link RegDef} list, slave of the {@link RegBus}: RW storage
 * (exposed to the chip by {@link #value}), RO registers reading a hardware input ({@link #hw}), W1C
 * pending bits set by hardware ({@link #hw}) and cleared by writing 1. Unmapped addresses and writes to
 * RO registers raise {@code bus.error} and change nothing. Spec: 20-th2-management.md, "Hardware
 * primitives" (register access by address); map in docs/th2-nma.md.
 */
public final class RegisterFile extends Module {
    public final RegBus bus;
    public final List<RegDef> defs;
    public final int addrBits;

    private final Map<String, RegDef> byName = new LinkedHashMap<>();
    private final Map<String, UInt> hwIn = new LinkedHashMap<>();
    private final Map<String, UInt> valueOut = new LinkedHashMap<>();
    private final Map<String, Bool> writtenOut = new LinkedHashMap<>();
    /** the value being written in a cycle where a {@link #written} strobe is high */
    public final UInt writeData;

    public RegisterFile(int addrBits, List<RegDef> defs) {
        this.addrBits = addrBits;
        this.defs = List.copyOf(check(addrBits, defs));
        bus = input(new RegBus(addrBits));
        writeData = output(UInt(64)).named("write_data");
        writeData.assign(bus.wdata);

        List<Bool> hits = new ArrayList<>();
        List<UInt> reads = new ArrayList<>();
        List<Bool> roHits = new ArrayList<>();
        for (RegDef d : this.defs) {
            byName.put(d.name(), d);
            Bool hit = bus.addr.eq(d.addr());
            hits.add(hit);
            if (d.access() == RegDef.Access.RO) {
                UInt in = input(UInt(64)).named("hw_" + d.name());
                hwIn.put(d.name(), in);
                reads.add(in);
                roHits.add(hit);
                continue;
            }
            UInt r = regInit(UInt(64), d.resetValue()).named("r_" + d.name());
            UInt out = output(UInt(64)).named(d.name());
            out.assign(r);
            valueOut.put(d.name(), out);
            reads.add(r);
            Bool wr = bus.write.and(hit);
            if (d.access() == RegDef.Access.RW) {
                when(wr, () -> r.assign(bus.wdata));
                // command registers (table access, BIST start) act on the write itself, not on a changed value
                Bool strobe = output(Bool()).named("wr_" + d.name());
                strobe.assign(wr);
                writtenOut.put(d.name(), strobe);
            } else {
                UInt set = input(UInt(64)).named("set_" + d.name());
                hwIn.put(d.name(), set);
                UInt clear = mux(wr, bus.wdata, lit(0, 64));
                r.assign(r.and(clear.not()).or(set));
            }
        }
        Bool mapped = orAll(hits);
        Bool ro = orAll(roHits);
        bus.rdata.assign(Mux1H(hits, reads));
        bus.readOnly.assign(ro);
        bus.error.assign(mapped.not().or(bus.write.and(ro)));
    }

    /** {@code addr} names a register of {@code defs} (the decode the bus uses, for a check ahead of an access). */
    public static Bool mapped(List<RegDef> defs, Bits addr) {
        return decode(defs, addr, false);
    }

    /** {@code addr} names a read-only register of {@code defs}. */
    public static Bool readOnly(List<RegDef> defs, Bits addr) {
        return decode(defs, addr, true);
    }

    private static Bool decode(List<RegDef> defs, Bits addr, boolean onlyRo) {
        List<Bool> hits = new ArrayList<>();
        for (RegDef d : defs) {
            if (!onlyRo || d.access() == RegDef.Access.RO) {
                hits.add(addr.eq(d.addr()));
            }
        }
        return orAll(hits);
    }

    /** The hardware hook of a register: the value input of an RO register, the set-bits input of a W1C one. */
    public UInt hw(String name) {
        UInt u = hwIn.get(def(name).name());
        if (u == null) {
            throw new HdlException("register " + name + " is " + def(name).access() + ": it has no hardware input");
        }
        return u;
    }

    /** The current value of an RW or W1C register (an output to the chip). */
    public UInt value(String name) {
        UInt u = valueOut.get(def(name).name());
        if (u == null) {
            throw new HdlException("register " + name + " is RO: its value is the hardware input");
        }
        return u;
    }

    /**
     * High in the cycle an RW register is written (by management or the power-up load): the value written is
     * {@link #writeData} in that cycle; {@link #value} shows it from the next cycle on.
     */
    public Bool written(String name) {
        Bool b = writtenOut.get(def(name).name());
        if (b == null) {
            throw new HdlException("register " + name + " is " + def(name).access() + ": only RW registers have a write strobe");
        }
        return b;
    }

    public boolean has(String name) {
        return byName.containsKey(name);
    }

    public RegDef def(String name) {
        RegDef d = byName.get(name);
        if (d == null) {
            throw new HdlException("no register " + name + " in this register file");
        }
        return d;
    }

    /** Names of the registers with a hardware input (RO and W1C), in map order. */
    public List<String> hooked() {
        return List.copyOf(hwIn.keySet());
    }

    /** Names of the registers with a value output (RW and W1C), in map order. */
    public List<String> exposed() {
        return List.copyOf(valueOut.keySet());
    }

    /** Rejects duplicate names or addresses and addresses wider than {@code addrBits}; returns the list sorted by address. */
    public static List<RegDef> check(int addrBits, List<RegDef> defs) {
        Map<String, RegDef> names = new HashMap<>();
        Map<Integer, RegDef> addrs = new HashMap<>();
        for (RegDef d : defs) {
            if (d.addr() >= 1 << addrBits) {
                throw new IllegalArgumentException("register " + d.name() + " at 0x" + Integer.toHexString(d.addr())
                        + " does not fit a " + addrBits + "-bit address");
            }
            RegDef n = names.put(d.name(), d);
            if (n != null) {
                throw new IllegalArgumentException("register name " + d.name() + " defined twice");
            }
            RegDef a = addrs.put(d.addr(), d);
            if (a != null) {
                throw new IllegalArgumentException(String.format("registers %s and %s share address 0x%04X", a.name(), d.name(), d.addr()));
            }
        }
        List<RegDef> sorted = new ArrayList<>(defs);
        sorted.sort((x, y) -> Integer.compare(x.addr(), y.addr()));
        return Collections.unmodifiableList(sorted);
    }

    /** The register map, one {@link RegDef#mapLine()} per line, by address (what {@code ./hdl regmap} prints). */
    public static String map(int addrBits, List<RegDef> defs) {
        return map(addrBits, defs, false);
    }

    /** {@link #map(int, List)}, with {@code fields}: each register that packs several values followed by its field lines. */
    public static String map(int addrBits, List<RegDef> defs, boolean fields) {
        StringBuilder sb = new StringBuilder();
        for (RegDef d : check(addrBits, defs)) {
            sb.append(d.mapLine()).append('\n');
            if (fields) {
                d.fieldLines().forEach(l -> sb.append(l).append('\n'));
            }
        }
        return sb.toString();
    }
}
