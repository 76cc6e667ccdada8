package org.flitkit.rtl.nma;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.IdentityWord;
import org.flitkit.formats.core.Layout;
import org.flitkit.formats.th2.Th2;

/**
 * The registers every NMA has (identity, scratch, fault reporting, drop counters, routing-table indirect
 * access), the standard per-port bank and the identity word format, all within the NIC's 12-bit space.
 * Spec: 20-th2-management.md, "Hardware primitives behind them"; the map is docs/th2-nma.md.
 */
public final class NmaRegisters {
    private NmaRegisters() {
    }

    public static final String CHIP_ID = "CHIP_ID";
    public static final String CHIP_TYPE = "CHIP_TYPE";
    public static final String NMA_VERSION = "NMA_VERSION";
    public static final String PORT_COUNT = "PORT_COUNT";
    public static final String CYCLE_COUNT = "CYCLE_COUNT";
    public static final String SCRATCH0 = "SCRATCH0";
    public static final String SCRATCH1 = "SCRATCH1";
    public static final String REPORT_ENABLE = "REPORT_ENABLE";
    public static final String FAULT_MASK = "FAULT_MASK";
    public static final String FAULT_STATUS = "FAULT_STATUS";
    public static final String REPORT_ROUTE_LO = "REPORT_ROUTE_LO";
    public static final String REPORT_ROUTE_HI = "REPORT_ROUTE_HI";
    public static final String REPORT_DEST = "REPORT_DEST";
    public static final String REPORT_SEQ = "REPORT_SEQ";
    public static final String FAULT_PENDING = "FAULT_PENDING";
    public static final String NMP_REQUESTS = "NMP_REQUESTS";
    public static final String NMP_CRC_ERRORS = "NMP_CRC_ERRORS";
    public static final String NMP_DESTID_DROPS = "NMP_DESTID_DROPS";
    public static final String NMP_MALFORMED_DROPS = "NMP_MALFORMED_DROPS";
    public static final String RT_ADDR = "RT_ADDR";
    public static final String RT_DATA = "RT_DATA";
    public static final String RT_CMD = "RT_CMD";

    /** Value of NMA_VERSION: major 1, minor 0. */
    public static final long VERSION = 0x0001_0000L;
    /** Address of FAULT_PENDING word 0; word k (fault inputs 64k..64k+63) follows at +k. */
    public static final int FAULT_PENDING_BASE = 0x018;
    /** Maximum number of fault inputs (FAULT_PENDING words at 0x018..0x01F). */
    public static final int MAX_FAULTS = 8 * 64;
    /** First address for chip-specific registers. */
    public static final int CHIP_BASE = 0x100;
    /** Per-port banks: port p at PORT_BASE + p * PORT_STRIDE. */
    public static final int PORT_BASE = 0x400;
    public static final int PORT_STRIDE = 0x10;

    /** REPORT_DEST fields: DestID [15:0], DestVP [21:16], Rint [24]. */
    public static final int REPORT_DEST_VP_LSB = 16;
    public static final int REPORT_DEST_RINT_BIT = 24;

    /** The identity word of PORTn_IDENTITY and PORTn_NEIGHBOUR (and of the link's IDENT frames). */
    public static final Layout IDENTITY = IdentityWord.LAYOUT;

    /** Fields of the registers that pack several values; ./hdl regmap --fields and ./hdl mgmt decode with them. */
    static final Layout CHIP_TYPE_FIELDS = Layout.builder(CHIP_TYPE, 64).field("chip_type", 0, 2, "0 = NIC, 1 = NRC").build();
    static final Layout NMA_VERSION_FIELDS = Layout.builder(NMA_VERSION, 64)
            .field("minor", 0, 16, "").field("major", 16, 16, "").build();
    static final Layout REPORT_DEST_FIELDS = Layout.builder(REPORT_DEST, 64)
            .field("dest_id", 0, 16, "DestID of fault reports (the management server's NIC)")
            .field("dest_vp", REPORT_DEST_VP_LSB, 6, "DestVP: the VP whose MPQ receives them")
            .field("rint", REPORT_DEST_RINT_BIT, 1, "Rint: interrupt the server on arrival")
            .build();
    public static final Layout LINK_STATUS_FIELDS = Layout.builder(NmaRegisters.PORT_LINK_STATUS, 64)
            .field("up", 0, 1, "link up")
            .field("width", 8, 4, "link width in lanes (8, 4, 2, 1; 0 while down)")
            .field("rx_lanes", 16, 8, "lanes received well")
            .field("peer_rx_lanes", 24, 8, "lanes the peer receives well")
            .build();
    public static final Layout BIST_CTRL_FIELDS = Layout.builder(NmaRegisters.PORT_BIST_CTRL, 64)
            .field("start", 0, 1, "0 -> 1 starts a run, 1 -> 0 stops it")
            .field("interval", 8, 8, "one BIST frame every n slots (0/1: every slot)")
            .field("duration", 16, 32, "BIST frames (0: until stopped)")
            .build();
    public static final Layout BIST_RESULT_FIELDS = Layout.builder(NmaRegisters.PORT_BIST_RESULT, 64)
            .field("done", 0, 1, "").field("running", 1, 1, "").field("errored", 2, 1, "an errored frame seen")
            .field("synced", 3, 1, "checker synced").field("errored_frames", 32, 32, "").build();
    public static final Layout BIST_FRAMES_FIELDS = Layout.builder(NmaRegisters.PORT_BIST_FRAMES, 64)
            .field("checked", 0, 32, "frames checked").field("sent", 32, 32, "frames sent").build();
    public static final Layout BIST_BIT_ERRORS_FIELDS = Layout.builder(NmaRegisters.PORT_BIST_BIT_ERRORS, 64)
            .field("bit_errors", 0, 32, "payload bit errors").field("resyncs", 32, 16, "checker resyncs").build();

    /** The common registers of an NMA with {@code faults} fault inputs. */
    public static List<RegDef> common(int faults) {
        if (faults < 1 || faults > MAX_FAULTS) {
            throw new IllegalArgumentException("fault count " + faults + " must be 1.." + MAX_FAULTS);
        }
        List<RegDef> l = new ArrayList<>(List.of(
                RegDef.rw(CHIP_ID, 0x000, Th2.CHIP_ID_ANY, "this chip's ID [15:0]; 0xFFFF = not configured (set by boot load or software)"),
                RegDef.ro(CHIP_TYPE, 0x001, "chip type [1:0]: 0 = NIC, 1 = NRC").withFields(CHIP_TYPE_FIELDS),
                RegDef.ro(NMA_VERSION, 0x002, "NMA version: [31:16] major, [15:0] minor").withFields(NMA_VERSION_FIELDS),
                RegDef.ro(PORT_COUNT, 0x003, "number of network ports of this chip"),
                RegDef.ro(CYCLE_COUNT, 0x004, "free-running cycle counter (fault-report timestamps)"),
                RegDef.rw(SCRATCH0, 0x008, 0, "scratch register for software (no effect)"),
                RegDef.rw(SCRATCH1, 0x009, 0, "scratch register for software (no effect)"),
                RegDef.rw(REPORT_ENABLE, 0x010, 0, "bit n = 1: a rising, unmasked fault of code n sends a fault report"),
                RegDef.rw(FAULT_MASK, 0x011, 0, "bit n = 1: faults of code n are ignored (no pending bit, no report)"),
                RegDef.ro(FAULT_STATUS, 0x012, "bit n: a fault of code n is active now (before masking)"),
                RegDef.rw(REPORT_ROUTE_LO, 0x013, 0, "route of fault reports, routing-field bits 63:0"),
                RegDef.rw(REPORT_ROUTE_HI, 0x014, 0, "route of fault reports, routing-field bits 104:64 in [40:0]"),
                RegDef.rw(REPORT_DEST, 0x015, 0, "fault reports: DestID [15:0], DestVP [21:16], Rint [24]").withFields(REPORT_DEST_FIELDS),
                RegDef.ro(REPORT_SEQ, 0x016, "sequence number of the next fault report (its TransactionID)"),
                RegDef.ro(NMP_REQUESTS, 0x020, "requests executed or answered with an error"),
                RegDef.ro(NMP_CRC_ERRORS, 0x021, "request packets dropped for a CRC mismatch"),
                RegDef.ro(NMP_DESTID_DROPS, 0x022, "request packets dropped because DestID is neither CHIP_ID nor 0xFFFF"),
                RegDef.ro(NMP_MALFORMED_DROPS, 0x023, "packets dropped for bad framing, reserved header bits or a chip-to-server NMPType"),
                RegDef.rw(RT_ADDR, 0x030, 0, "routing-table indirect access: entry address"),
                RegDef.rw(RT_DATA, 0x031, 0, "routing-table indirect access: entry data (write data / read result)"),
                RegDef.rw(RT_CMD, 0x032, 0, "routing-table indirect access: command (1 = read, 2 = write; storage only until the table lands)")));
        for (int k = 0; k * 64 < faults; k++) {
            l.add(RegDef.w1c(FAULT_PENDING + k, FAULT_PENDING_BASE + k,
                    "bit i: fault input " + (64 * k) + "+i rose while unmasked; write 1 to clear"));
        }
        return l;
    }

    /** Name of the FAULT_PENDING word holding fault input {@code i}. */
    public static String pendingWord(int i) {
        return FAULT_PENDING + (i / 64);
    }

    public static final String PORT_IDENTITY = "IDENTITY";
    public static final String PORT_NEIGHBOUR = "NEIGHBOUR";
    public static final String PORT_LINK_STATUS = "LINK_STATUS";
    public static final String PORT_RETRY_COUNT = "RETRY_COUNT";
    public static final String PORT_HANDSHAKE_COUNT = "HANDSHAKE_COUNT";
    public static final String PORT_FRAMES_SENT = "FRAMES_SENT";
    public static final String PORT_CRC_ERRORS = "CRC_ERRORS";
    public static final String PORT_LINK_DOWNS = "LINK_DOWNS";
    public static final String PORT_BIST_CTRL = "BIST_CTRL";
    public static final String PORT_BIST_RESULT = "BIST_RESULT";
    public static final String PORT_BIST_FRAMES = "BIST_FRAMES";
    public static final String PORT_BIST_BIT_ERRORS = "BIST_BIT_ERRORS";
    public static final String PORT_BIST_FIRST_ERROR = "BIST_FIRST_ERROR";
    public static final String PORT_REPLAYS = "REPLAYS";
    public static final String PORT_FLITS_RECEIVED = "FLITS_RECEIVED";
    public static final String PORT_PROTOCOL_ERRORS = "PROTOCOL_ERRORS";

    /** One port's window (offsets 0..0xF); see {@link #identity} for the identity word. */
    public static List<RegDef> portTemplate() {
        return List.of(
                RegDef.ro(PORT_IDENTITY, 0x0, "this port's identity word: valid [32], chip ID [31:16], port [12:8], chip type [1:0]").withFields(IDENTITY),
                RegDef.ro(PORT_NEIGHBOUR, 0x1, "the neighbour's identity word learnt by the link (valid [32] = 0: unknown)").withFields(IDENTITY),
                RegDef.ro(PORT_LINK_STATUS, 0x2, "link up [0], link width in lanes [11:8] (8, 4, 2, 1; 0 while down), lanes received well [23:16], lanes the peer receives well [31:24]").withFields(LINK_STATUS_FIELDS),
                RegDef.ro(PORT_RETRY_COUNT, 0x3, "link-layer retransmissions: flit frames sent again from the replay buffer"),
                RegDef.ro(PORT_HANDSHAKE_COUNT, 0x4, "link handshakes (down -> up)"),
                RegDef.ro(PORT_FRAMES_SENT, 0x5, "flit frames sent, retransmissions included (retransmission rate = RETRY_COUNT / FRAMES_SENT)"),
                RegDef.ro(PORT_CRC_ERRORS, 0x6, "frames received with a bad CRC"),
                RegDef.ro(PORT_LINK_DOWNS, 0x7, "link-down events (up -> down)"),
                RegDef.rw(PORT_BIST_CTRL, 0x8, 0,
                        "link BIST: start [0] (0 -> 1 starts a run, 1 -> 0 stops it); interval [15:8] "
                                + "(one BIST frame every n slots, 0/1 = every slot), duration [47:16] (BIST frames, 0 = until stopped)").withFields(BIST_CTRL_FIELDS),
                RegDef.ro(PORT_BIST_RESULT, 0x9,
                        "link BIST: done [0], running [1], an errored frame seen [2], checker synced [3], errored frames [63:32]").withFields(BIST_RESULT_FIELDS),
                RegDef.ro(PORT_BIST_FRAMES, 0xA, "link BIST: frames checked [31:0], frames sent [63:32]").withFields(BIST_FRAMES_FIELDS),
                RegDef.ro(PORT_BIST_BIT_ERRORS, 0xB, "link BIST: payload bit errors [31:0], checker resyncs [47:32]").withFields(BIST_BIT_ERRORS_FIELDS),
                RegDef.ro(PORT_BIST_FIRST_ERROR, 0xC, "link BIST: index of the first errored BIST frame of the run (valid: BIST_RESULT [2])"),
                RegDef.ro(PORT_REPLAYS, 0xD, "link-layer replays started (NAK, timeout, or link-up with frames unacknowledged)"),
                RegDef.ro(PORT_FLITS_RECEIVED, 0xE, "flits delivered to the chip by the link layer"),
                RegDef.ro(PORT_PROTOCOL_ERRORS, 0xF, "frames with a good CRC but an unknown type, a VC beyond VC5 or an ACK outside the window"));
    }

    /** Per-port banks of {@link #portTemplate()} for {@code ports} ports: PORT<p>_<name> at 0x400 + 0x10 p. */
    public static List<RegDef> portBanks(int ports) {
        return RegDef.bank("PORT", PORT_BASE, PORT_STRIDE, ports, portTemplate());
    }

    /** The port-bank register each word of the link's {@code PortStatus} is read through, in the order of its {@code words()}. */
    public static final String[] PORT_STATUS_REGISTERS = {PORT_NEIGHBOUR, PORT_LINK_STATUS, PORT_RETRY_COUNT,
            PORT_HANDSHAKE_COUNT, PORT_FRAMES_SENT, PORT_CRC_ERRORS, PORT_LINK_DOWNS, PORT_BIST_RESULT, PORT_BIST_FRAMES,
            PORT_BIST_BIT_ERRORS, PORT_BIST_FIRST_ERROR, PORT_REPLAYS, PORT_FLITS_RECEIVED, PORT_PROTOCOL_ERRORS};

    /** Name of port {@code p}'s register {@code name} (e.g. {@code portReg(3, PORT_NEIGHBOUR)} = PORT3_NEIGHBOUR). */
    public static String portReg(int p, String name) {
        return "PORT" + p + "_" + name;
    }

    /** Identity word (software), {@link #IDENTITY}: valid [32], chip ID [31:16], port [12:8], chip type [1:0]. */
    public static long identity(ChipType type, int chipId, int port) {
        return IdentityWord.of(type, chipId, port);
    }

    /** Identity word (hardware) from a 2-bit chip type, 16-bit chip ID and 5-bit port. */
    public static UInt identity(Bits type, Bits chipId, Bits port) {
        return IdentityWord.of(type, chipId, port);
    }
}
