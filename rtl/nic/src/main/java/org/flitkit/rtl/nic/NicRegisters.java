package org.flitkit.rtl.nic;

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
import org.flitkit.formats.th2.Th2;

/**
 * The NIC register map behind NIC-NMA (12-bit addresses): the common NMA registers, the NIC's counters and
 * timeouts at 0x100, its one network port's bank at 0x400 (identity, neighbour, link status and counters,
 * BIST), its retry threshold and die temperature at 0x128, and three per-VP state registers at 0x800 + 4 vp. Fault inputs: the port's link faults, then the
 * chip-level ones. Spec: 20-th2-management.md, "Hardware primitives"; docs/th2-nic.md "Register map".
 */
public final class NicRegisters {
    public static final String TX_REQUESTS = "NIC_TX_REQUESTS";
    public static final String TX_RESPONSES = "NIC_TX_RESPONSES";
    public static final String RX_REQUESTS = "NIC_RX_REQUESTS";
    public static final String RX_RESPONSES = "NIC_RX_RESPONSES";
    public static final String RX_CRC_DROPS = "NIC_RX_CRC_DROPS";
    public static final String RX_DESTTYPE_DROPS = "NIC_RX_DESTTYPE_DROPS";
    public static final String RX_DESTID_DROPS = "NIC_RX_DESTID_DROPS";
    public static final String RX_VP_DROPS = "NIC_RX_VP_DROPS";
    public static final String RX_MALFORMED_DROPS = "NIC_RX_MALFORMED_DROPS";
    public static final String DESCRIPTORS = "NIC_DESCRIPTORS";
    public static final String DESC_ERRORS = "NIC_DESC_ERRORS";
    public static final String FETCH_ERRORS = "NIC_FETCH_ERRORS";
    public static final String DOORBELL_ERRORS = "NIC_DOORBELL_ERRORS";
    public static final String HDQ_OVERFLOWS = "NIC_HDQ_OVERFLOWS";
    public static final String MMIO_ERRORS = "NIC_MMIO_ERRORS";
    public static final String FENCE_TIMEOUTS = "NIC_FENCE_TIMEOUTS";
    public static final String STALE_COMPLETIONS = "NIC_STALE_COMPLETIONS";
    public static final String MPQ_DROPS = "NIC_MPQ_DROPS";
    public static final String EQ_DROPS = "NIC_EQ_DROPS";
    public static final String FENCE_TIMEOUT = "NIC_FENCE_TIMEOUT";
    public static final String CPL_TIMEOUT = "NIC_CPL_TIMEOUT";
    public static final String RETRY_THRESHOLD = "NIC_RETRY_THRESHOLD";
    public static final String TEMPERATURE = "NIC_TEMPERATURE";
    public static final String TEMPERATURE_LIMIT = "NIC_TEMPERATURE_LIMIT";

    /** Counters in address order from 0x100. */
    public static final List<String> COUNTERS = List.of(TX_REQUESTS, TX_RESPONSES, RX_REQUESTS, RX_RESPONSES, RX_CRC_DROPS,
            RX_DESTTYPE_DROPS, RX_DESTID_DROPS, RX_VP_DROPS, RX_MALFORMED_DROPS, DESCRIPTORS, DESC_ERRORS, FETCH_ERRORS,
            DOORBELL_ERRORS, HDQ_OVERFLOWS, MMIO_ERRORS, FENCE_TIMEOUTS, STALE_COMPLETIONS, MPQ_DROPS, EQ_DROPS);
    private static final List<String> COUNTER_TEXT = List.of(
            "request packets sent to the link (from descriptors)",
            "NIC-NMA responses and fault reports sent to the link",
            "request packets for this NIC passed to NIC-NMA",
            "responses and fault reports passed to the MPQ writer",
            "responses dropped: bad CRC",
            "packets dropped: DestType not NIC (a NIC does not forward)",
            "responses dropped: DestID not this NIC's CHIP_ID",
            "responses dropped: DestVP above the last VP",
            "packets dropped: broken flit sequence or bad framing",
            "descriptors sent as request packets",
            "descriptors refused (Err): DESC_ERROR events",
            "descriptor reads that failed (error status, bad completion, timeout)",
            "SDQ doorbells refused (beyond the ring, no ring, PIO VP)",
            "PIO descriptors refused: hardware queue full",
            "BAR writes to no register",
            "fences released by timeout",
            "completions for no outstanding read (after a timeout)",
            "packets dropped: MPQ full or not set up (all VPs)",
            "events dropped: EQ full or not set up (all VPs)");

    public static final int COUNTER_BASE = NmaRegisters.CHIP_BASE;
    public static final int TIMEOUT_BASE = NmaRegisters.CHIP_BASE + 0x20;
    /** The port's retry threshold and the die temperature with its limit, as the NRC has them. */
    public static final int HEALTH_BASE = NmaRegisters.CHIP_BASE + 0x28;
    /** Default fence timeout: 100 x 1024 cycles = 1.02 ms at the 100 MHz core clock. */
    public static final long FENCE_TIMEOUT_DEFAULT = 100;
    /** Default completion timeout: 5,000 cycles = 50 us, the low end of PCIe's default range (50 us - 50 ms). */
    public static final long CPL_TIMEOUT_DEFAULT = 5_000;

    public static final int VP_BASE = 0x800;
    public static final int VP_STRIDE = 4;
    public static final String VP_SDQ = "SDQ";
    public static final String VP_MPQ = "MPQ";
    public static final String VP_EQ = "EQ";

    /** The NIC's network ports (one, 8 lanes). */
    public static final int PORTS = 1;
    public static final List<FaultCode> PORT_FAULTS = LinkRegisters.PORT_FAULTS;
    /** Chip-level fault inputs raised outside the NIC's management path (after the port faults): by the chip's sensor. */
    public static final List<FaultCode> EXTERNAL_CHIP_FAULTS = List.of(FaultCode.OVER_TEMPERATURE);
    /** Chip-level fault inputs the NIC raises itself. */
    public static final List<FaultCode> INTERNAL_FAULTS = List.of(FaultCode.EEPROM_LOAD_FAILED, FaultCode.DMA_ERROR, FaultCode.MPQ_OVERFLOW);

    private NicRegisters() {
    }

    /** Fault inputs: port faults, external chip faults, internal chip faults (input i = element i). */
    public static List<FaultSource> faultSources() {
        List<FaultSource> l = new ArrayList<>();
        for (FaultCode c : PORT_FAULTS) {
            l.add(FaultSource.of(c, 0));
        }
        for (FaultCode c : EXTERNAL_CHIP_FAULTS) {
            l.add(FaultSource.chip(c));
        }
        for (FaultCode c : INTERNAL_FAULTS) {
            l.add(FaultSource.chip(c));
        }
        return List.copyOf(l);
    }

    /** Fault inputs driven from outside the NIC (the low bits of the fault vector). */
    public static int externalFaults() {
        return PORT_FAULTS.size() + EXTERNAL_CHIP_FAULTS.size();
    }

    /** Fault input of {@code code} (chip level unless a port fault), or -1. */
    public static int faultInput(FaultCode code) {
        List<FaultSource> s = faultSources();
        for (int i = 0; i < s.size(); i++) {
            if (s.get(i).code() == code.code()) {
                return i;
            }
        }
        return -1;
    }

    public static String vpReg(int vp, String name) {
        return "VP" + vp + "_" + name;
    }

    /** VPn_SDQ: the descriptor queue's indexes, the VP's answers outstanding and its fence state. */
    static final Layout SDQ_FIELDS = Layout.builder(VP_SDQ, 64)
            .field("producer", 0, 16, "doorbell / HDQ tail")
            .field("consumer", 16, 16, "descriptors taken by the NIC")
            .field("outstanding", 32, 8, "answers outstanding (Fen waits for 0; a fence timeout clears it)")
            .field("parked", 40, 1, "parked by a fence")
            .build();

    /** VPn_MPQ and VPn_EQ: a host ring's producer and consumer indexes and what it dropped when full. */
    static Layout ringFields(String name, String what) {
        return Layout.builder(name, 64)
                .field("producer", 0, 16, "the NIC's write index")
                .field("consumer", 16, 16, "the host's read index")
                .field("dropped", 32, 32, what + " dropped at a full ring")
                .build();
    }

    /** The NIC's own registers for {@code vps} VPs. */
    public static List<RegDef> chipRegisters(int vps) {
        List<RegDef> l = new ArrayList<>();
        for (int i = 0; i < COUNTERS.size(); i++) {
            l.add(RegDef.ro(COUNTERS.get(i), COUNTER_BASE + i, COUNTER_TEXT.get(i)));
        }
        l.add(RegDef.rw(FENCE_TIMEOUT, TIMEOUT_BASE, FENCE_TIMEOUT_DEFAULT,
                "a Fen descriptor waits at most this many x " + DescDispatch.FENCE_TICK + " cycles for earlier answers [15:0]"));
        l.add(RegDef.rw(CPL_TIMEOUT, TIMEOUT_BASE + 1, CPL_TIMEOUT_DEFAULT, "cycles a descriptor read waits for its completion [31:0]"));
        l.add(RegDef.rw(RETRY_THRESHOLD, HEALTH_BASE, 0, "retry-threshold fault of the port while its RETRY_COUNT is at or above this (0: never)"));
        l.add(RegDef.ro(TEMPERATURE, HEALTH_BASE + 1, "die temperature [7:0], degrees C, from the chip's sensor"));
        l.add(RegDef.rw(TEMPERATURE_LIMIT, HEALTH_BASE + 2, LinkRegisters.DEFAULT_TEMPERATURE_LIMIT,
                "over-temperature fault while NIC_TEMPERATURE is above this, degrees C"));
        l.addAll(NmaRegisters.portBanks(PORTS));
        l.addAll(RegDef.bank("VP", VP_BASE, VP_STRIDE, vps, List.of(
                RegDef.ro(VP_SDQ, 0, "descriptor queue: producer (doorbell / HDQ tail) [15:0], consumer [31:16], answers outstanding [39:32], parked by a fence [40]").withFields(SDQ_FIELDS),
                RegDef.ro(VP_MPQ, 1, "MPQ: producer [15:0], host consumer [31:16], packets dropped [63:32]").withFields(ringFields(VP_MPQ, "packets")),
                RegDef.ro(VP_EQ, 2, "EQ: producer [15:0], host consumer [31:16], events dropped [63:32]").withFields(ringFields(VP_EQ, "events")))));
        return List.copyOf(l);
    }

    public static List<RegDef> map() {
        return map(Th2.VP_COUNT);
    }

    public static List<RegDef> map(int vps) {
        List<RegDef> all = new ArrayList<>(NmaRegisters.common(faultSources().size()));
        all.addAll(chipRegisters(vps));
        return RegisterFile.check(ChipType.NIC.registerAddressBits(), all);
    }

    /** Addresses of {@link #map()} by name, built once. */
    private static final class Addresses {
        static final AddressBook BOOK = new AddressBook("NIC", map());
    }

    /** The address of register {@code name} of the NIC's map (software: the server's requests). */
    public static int address(String name) {
        return Addresses.BOOK.address(name);
    }

    /**
     * One line per register (what {@code ./hdl regmap nic} prints); with {@code fields}, each register that packs
     * several values is followed by its field lines.
     */
    public static String mapText(boolean fields) {
        return RegisterFile.map(ChipType.NIC.registerAddressBits(), map(), fields);
    }
}
