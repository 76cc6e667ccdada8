package org.flitkit.rtl.nrc.switchcore;

import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.Th2;

/**
 * Sizes of the NRC switch core (docs/th2-nrc-switch.md, decisions table): ports in a rows x cols tile
 * array, virtual channels, the DAMQ split (reserved flits per VC + a shared pool), the longest packet
 * and the routing-table size. The paper gives none of them; spec: 20-th2-management.md, "The system".
 *
 * @param ports          switch ports (24 on the NRC); also the width of a routing-table entry
 * @param rows           tile rows (4): input p sits in row p / cols
 * @param cols           tile columns (6): output p sits in column p % cols
 * @param vcs            virtual channels VC0..VC(vcs-1), 1..6; 1 = one FIFO per input (the HOL figures);
 *                       management (VC3) needs vcs >= 4
 * @param reservedFlits  input-buffer slots each VC always has (>= maxPacketFlits, so a whole packet fits)
 * @param sharedFlits    input-buffer slots any VC may use beyond its reservation
 * @param maxPacketFlits longest legal packet (Len 1..max); longer or Len 0 is malformed and dropped
 * @param tableEntries   routing-table entries per input port (a power of two); index = DestID mod entries
 */
public record SwitchParams(int ports, int rows, int cols, int vcs, int reservedFlits, int sharedFlits,
                           int maxPacketFlits, int tableEntries) {

    /** The TH-2 NRC: 24 ports in 4 x 6 tiles, 6 VCs, 8 reserved per VC + 32 shared flits, 8-flit packets, 1024 entries. */
    public static final SwitchParams TH2 = new SwitchParams(24, 4, 6, 6, DataLayouts.MAX_FLITS, 32, DataLayouts.MAX_FLITS, 1024);

    /** A small core with every mechanism (tiles, VC3, shared pool) for CI's Verilog and differential runs: 4 ports in 2 x 2. */
    public static final SwitchParams CI = new SwitchParams(4, 2, 2, 4, 4, 4, 4, 16);

    public SwitchParams {
        if (ports < 2 || ports > Th2.NRC_PORTS) {
            throw new IllegalArgumentException("ports " + ports + " outside 2.." + Th2.NRC_PORTS
                    + " (a source route's Hop and the table mask address at most " + Th2.NRC_PORTS + " ports)");
        }
        if (rows < 1 || cols < 1 || rows * cols != ports) {
            throw new IllegalArgumentException("rows x cols = " + rows + " x " + cols + " must equal ports " + ports);
        }
        if (vcs < 1 || vcs > 6) {
            throw new IllegalArgumentException("vcs " + vcs + " outside 1..6 (the NRC has VC0..VC5)");
        }
        if (maxPacketFlits < 1 || maxPacketFlits > 15) {
            throw new IllegalArgumentException("maxPacketFlits " + maxPacketFlits
                    + " outside 1..15 (the input unit counts a packet's flits in 4 bits)");
        }
        if (vcs > Th2.MANAGEMENT_VC && maxPacketFlits < Th2.PACKET_FLITS) {
            throw new IllegalArgumentException("maxPacketFlits " + maxPacketFlits + " < " + Th2.PACKET_FLITS
                    + ": the management VC must carry 4-flit management packets");
        }
        if (reservedFlits < maxPacketFlits) {
            throw new IllegalArgumentException("reservedFlits " + reservedFlits + " < maxPacketFlits " + maxPacketFlits
                    + ": virtual cut-through needs room for a whole packet in every VC");
        }
        if (sharedFlits < 0) {
            throw new IllegalArgumentException("sharedFlits " + sharedFlits + " is negative");
        }
        if (capacityOf(vcs, reservedFlits, sharedFlits) > 1024) {
            throw new IllegalArgumentException("input buffer of " + capacityOf(vcs, reservedFlits, sharedFlits)
                    + " flits is over 1024");
        }
        if (tableEntries < 1 || tableEntries > 65536 || Integer.bitCount(tableEntries) != 1) {
            throw new IllegalArgumentException("tableEntries " + tableEntries
                    + " must be a power of two in 1..65536 (the index is DestID's low bits)");
        }
    }

    private static int capacityOf(int vcs, int reserved, int shared) {
        return vcs * reserved + shared;
    }

    /** The figures' mode: one FIFO of {@code depth} flits per input (1 VC, no sharing), packets up to {@code maxPacketFlits}. */
    public static SwitchParams fifo(int ports, int rows, int cols, int depth, int maxPacketFlits) {
        return new SwitchParams(ports, rows, cols, 1, depth, 0, maxPacketFlits, 32);
    }

    /** This configuration with {@code n} VCs. */
    public SwitchParams withVcs(int n) {
        return new SwitchParams(ports, rows, cols, n, reservedFlits, sharedFlits, maxPacketFlits, tableEntries);
    }

    /** This configuration with another DAMQ split. */
    public SwitchParams withBuffers(int reserved, int shared) {
        return new SwitchParams(ports, rows, cols, vcs, reserved, shared, maxPacketFlits, tableEntries);
    }

    /** Input-buffer slots per port: vcs x reserved + shared. */
    public int capacity() {
        return capacityOf(vcs, reservedFlits, sharedFlits);
    }

    /** Whether VC3 exists, so management packets can cross the core (toRs / fromRs). */
    public boolean hasManagementVc() {
        return vcs > Th2.MANAGEMENT_VC;
    }

    /** Bits of a routing-table index. */
    public int indexBits() {
        return Math.max(1, Integer.numberOfTrailingZeros(tableEntries));
    }

    /** Bits of a port number. */
    public int portBits() {
        return 5;
    }

    public int rowOf(int port) {
        return port / cols;
    }

    public int colOf(int port) {
        return port % cols;
    }
}
