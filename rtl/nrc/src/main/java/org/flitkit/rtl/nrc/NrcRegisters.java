package org.flitkit.rtl.nrc;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.rtl.link.LinkRegisters;
import org.flitkit.rtl.nma.AddressBook;
import org.flitkit.rtl.nma.FaultSource;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.rtl.nma.RegisterFile;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.core.Layout;
import org.flitkit.rtl.nrc.switchcore.TableRegions;

/**
 * The NRC register map and fault inputs: the common NMA registers, the NRC's own counters at 0x100 and
 * 24 per-port banks (own identity, neighbour identity, link counters, BIST) at 0x400 + 0x10 p.
 * Fault input 3p+k is fault k (link down, degraded, retry threshold) of port p; then chip-level faults.
 * A reduced-port chip ({@link RsGeometry}) has the same map with a bank and three fault inputs per port it has.
 * Spec: 20-th2-management.md, "Hardware primitives behind them"; docs/th2-nrc.md "Register map".
 */
public final class NrcRegisters {
    public static final String ROUTE_DROPS = "NRC_ROUTE_DROPS";
    public static final String NMP_IN = "NRC_NMP_IN";
    public static final String TRANSIT = "NRC_TRANSIT_PACKETS";
    public static final String MALFORMED_DROPS = "NRC_MALFORMED_DROPS";
    public static final String UNROUTABLE_DROPS = "NRC_UNROUTABLE_DROPS";
    public static final String OVERFLOW_DROPS = "NRC_OVERFLOW_DROPS";
    public static final String FRAMING_ERRORS = "NRC_FRAMING_ERRORS";
    public static final String LINK_DOWN_DROPS = "NRC_LINK_DOWN_DROPS";
    public static final String RETRY_THRESHOLD = "NRC_RETRY_THRESHOLD";
    public static final String TEMPERATURE = "NRC_TEMPERATURE";
    public static final String TEMPERATURE_LIMIT = "NRC_TEMPERATURE_LIMIT";
    public static final String TABLE_ADDR = "NRC_TABLE_ADDR";
    public static final String TABLE_DATA = "NRC_TABLE_DATA";
    public static final String TABLE_PTR = "NRC_TABLE_PTR";
    public static final String TABLE_READ = "NRC_TABLE_READ";
    public static final String TABLE_REGION = "NRC_TABLE_REGION";
    public static final String TABLE_DEFAULT = "NRC_TABLE_DEFAULT";

    /** NRC_TABLE_REGION: how the routing tables are indexed (docs/th2-nrc-switch.md, "Tables by region"). */
    public static final Layout TABLE_REGION_FIELDS = Layout.builder("routing-table regions", 64)
            .field("local_bits", 0, TableRegions.LOCAL_BITS, "0: one flat table indexed by DestID's low bits; L: regions of 2^L DestIDs")
            .field("region", 16, TableRegions.REGION_BITS, "the chip's own region (DestID >> L): its DestIDs use entries 0..2^L-1")
            .build();

    /** The routing-table pointer of NRC_TABLE_ADDR and NRC_TABLE_PTR. */
    public static final Layout TABLE_POINTER = Layout.builder("routing-table pointer", 64)
            .field("entry", 0, 16, "table entry (DestID)")
            .field("input_port", 16, 5, "the input port whose table")
            .field("all_ports", 24, 1, "writes go to every port's table")
            .build();

    /** Per-port fault codes, in fault-input order within a port. */
    public static final List<FaultCode> PORT_FAULTS = LinkRegisters.PORT_FAULTS;
    /** Chip-level fault codes, after the port faults. */
    public static final List<FaultCode> CHIP_FAULTS = List.of(FaultCode.OVER_TEMPERATURE, FaultCode.EEPROM_LOAD_FAILED);

    private NrcRegisters() {
    }

    /** The fault inputs of the TH-2 NRC, input i = element i. */
    public static List<FaultSource> faultSources() {
        return faultSources(RsGeometry.TH2.ports());
    }

    /** The fault inputs of an NRC of {@code ports} ports, input i = element i. */
    public static List<FaultSource> faultSources(int ports) {
        List<FaultSource> l = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            for (FaultCode c : PORT_FAULTS) {
                l.add(FaultSource.of(c, p));
            }
        }
        for (FaultCode c : CHIP_FAULTS) {
            l.add(FaultSource.chip(c));
        }
        return List.copyOf(l);
    }

    /** Fault input of {@code code} at {@code port} (31 = chip level) of the TH-2 NRC, or -1. */
    public static int faultInput(int code, int port) {
        return faultInput(RsGeometry.TH2.ports(), code, port);
    }

    /** Fault input of {@code code} at {@code port} (31 = chip level) of an NRC of {@code ports} ports, or -1. */
    public static int faultInput(int ports, int code, int port) {
        List<FaultSource> s = faultSources(ports);
        for (int i = 0; i < s.size(); i++) {
            if (s.get(i).code() == code && s.get(i).port() == port) {
                return i;
            }
        }
        return -1;
    }

    /** The TH-2 NRC's own registers (what it adds to the common NMA ones). */
    public static List<RegDef> chipRegisters() {
        return chipRegisters(RsGeometry.TH2.ports());
    }

    /** The own registers of an NRC of {@code ports} ports. */
    public static List<RegDef> chipRegisters(int ports) {
        List<RegDef> l = new ArrayList<>(List.of(
                RegDef.ro(ROUTE_DROPS, NmaRegisters.CHIP_BASE, "outgoing packets nmp_packer dropped: no hop left or a port above 23"),
                RegDef.ro(NMP_IN, NmaRegisters.CHIP_BASE + 1, "packets nmp_unpacker delivered to the NMA (before CRC and DestID checks)"),
                RegDef.ro(TRANSIT, NmaRegisters.CHIP_BASE + 2, "packets the switch core sent out of a port (all ports)"),
                RegDef.ro(MALFORMED_DROPS, NmaRegisters.CHIP_BASE + 3,
                        "packets the switch dropped as malformed: Len 0 or over the maximum, bad RtType or source route, VC beyond VC5"),
                RegDef.ro(UNROUTABLE_DROPS, NmaRegisters.CHIP_BASE + 4, "table-routed packets whose table entry allows no output that is up"),
                RegDef.ro(OVERFLOW_DROPS, NmaRegisters.CHIP_BASE + 5, "flits that arrived with no free input-buffer slot (an upstream ignoring credits)"),
                RegDef.ro(FRAMING_ERRORS, NmaRegisters.CHIP_BASE + 6, "flits whose Kind contradicted the head's Len"),
                RegDef.ro(LINK_DOWN_DROPS, NmaRegisters.CHIP_BASE + 7, "source-routed packets the switch dropped because the link of their output port was down"),
                RegDef.rw(TABLE_ADDR, NmaRegisters.CHIP_BASE + 8, 0,
                        "routing-table pointer: entry [15:0], input port [20:16], all ports [24] (writes only); sets NRC_TABLE_PTR")
                        .withFields(TABLE_POINTER),
                RegDef.rw(TABLE_DATA, NmaRegisters.CHIP_BASE + 9, 0,
                        "a write stores allowed outputs [23:0] (bit o = output o) at NRC_TABLE_PTR and advances its entry by one"),
                RegDef.ro(TABLE_PTR, NmaRegisters.CHIP_BASE + 10, "the routing-table pointer: entry [15:0], input port [20:16], all ports [24]").withFields(TABLE_POINTER),
                RegDef.ro(TABLE_READ, NmaRegisters.CHIP_BASE + 11, "the routing-table entry at NRC_TABLE_PTR (0 beyond the tables or with all ports set)"),
                RegDef.rw(RETRY_THRESHOLD, NmaRegisters.CHIP_BASE + 12, 0,
                        "retry-threshold fault of a port while its RETRY_COUNT is at or above this (0: never)"),
                RegDef.ro(TEMPERATURE, NmaRegisters.CHIP_BASE + 13, "die temperature [7:0], degrees C, from the chip's sensor"),
                RegDef.rw(TEMPERATURE_LIMIT, NmaRegisters.CHIP_BASE + 14, LinkRegisters.DEFAULT_TEMPERATURE_LIMIT,
                        "over-temperature fault while NRC_TEMPERATURE is above this, degrees C"),
                RegDef.rw(TABLE_REGION, NmaRegisters.CHIP_BASE + 15, 0,
                        "table indexing: local bits L [3:0] (0: flat), own region [31:16]; other regions use entry 2^L + (DestID >> L)")
                        .withFields(TABLE_REGION_FIELDS),
                RegDef.rw(TABLE_DEFAULT, NmaRegisters.CHIP_BASE + 16, 0,
                        "allowed outputs [23:0] of a region entry that is empty or past the table (0: such packets are unroutable)")));
        l.addAll(NmaRegisters.portBanks(ports));
        return List.copyOf(l);
    }

    /** The whole NRC register map, by address. */
    public static List<RegDef> map() {
        return map(RsGeometry.TH2.ports());
    }

    /** The register map of an NRC of {@code ports} ports, by address. */
    public static List<RegDef> map(int ports) {
        List<RegDef> all = new ArrayList<>(NmaRegisters.common(faultSources(ports).size()));
        all.addAll(chipRegisters(ports));
        return RegisterFile.check(ChipType.NRC.registerAddressBits(), all);
    }

    /** Addresses of {@link #map()} by name, built once. */
    private static final class Addresses {
        static final AddressBook BOOK = new AddressBook("NRC", map());
    }

    /** The address of register {@code name} of the NRC's map (software: the server's requests, boot images). */
    public static int address(String name) {
        return Addresses.BOOK.address(name);
    }

    /** The address of port {@code p}'s register {@code name} (a {@code NmaRegisters.PORT_*} name). */
    public static int portAddress(int p, String name) {
        return address(NmaRegisters.portReg(p, name));
    }

    /**
     * One line per register: {@code NAME 0xADDR ACCESS reset=0xVALUE} (what {@code ./hdl regmap nrc} prints); with {@code fields},
     * each register that packs several values is followed by its field lines.
     */
    public static String mapText(boolean fields) {
        return RegisterFile.map(ChipType.NRC.registerAddressBits(), map(), fields);
    }
}
