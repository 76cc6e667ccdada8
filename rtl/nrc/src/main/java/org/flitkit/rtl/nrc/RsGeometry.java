package org.flitkit.rtl.nrc;

import org.flitkit.formats.th2.Th2;

/**
 * Where the 24 relay stations sit (docs/th2-nrc.md, "Relay-station geometry"): 4 rows of 6, port p at
 * row p / 6, column p % 6; inbound beats move to higher columns and leave column 5 into the NMA,
 * outbound beats enter column 5 from the NMA and move down. Spec: 20-th2-management.md, NRC roles.
 */
public final class RsGeometry {
    public static final int ROWS = 4;
    public static final int COLS = 6;
    public static final int PORTS = ROWS * COLS;
    /** Column of the last RS of a row, the one wired to the NMA. */
    public static final int LAST_COL = COLS - 1;
    /** Relay-station beats per flit (10) and per management packet (40). */
    public static final int BEATS_PER_FLIT = Th2.RS_BEATS_PER_FLIT;
    public static final int BEATS_PER_PACKET = BEATS_PER_FLIT * Th2.PACKET_FLITS;

    private RsGeometry() {
    }

    public static int row(int port) {
        check(port);
        return port / COLS;
    }

    public static int col(int port) {
        check(port);
        return port % COLS;
    }

    public static int port(int row, int col) {
        if (row < 0 || row >= ROWS || col < 0 || col >= COLS) {
            throw new IllegalArgumentException("no relay station at row " + row + ", column " + col);
        }
        return row * COLS + col;
    }

    /** Relay stations a packet crosses between port {@code port} and the NMA: 1 (column 5) to 6 (column 0). */
    public static int hopsToNma(int port) {
        return COLS - col(port);
    }

    private static void check(int port) {
        if (port < 0 || port >= PORTS) {
            throw new IllegalArgumentException("NRC port " + port + " outside 0.." + (PORTS - 1));
        }
    }
}
