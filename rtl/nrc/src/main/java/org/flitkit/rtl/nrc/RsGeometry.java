package org.flitkit.rtl.nrc;

import org.flitkit.formats.th2.Th2;

/**
 * Where the relay stations sit (docs/th2-nrc.md, "Relay-station geometry"): the TH-2 NRC has 4 rows of 6, port p at
 * row p / 6, column p % 6; inbound beats move to higher columns and leave the last column into the NMA, outbound
 * beats enter the last column from the NMA and move down. Smaller planes (a reduced-port chip for differential tests)
 * keep the same rule with fewer rows and columns. Spec: 20-th2-management.md, NRC roles.
 */
public record RsGeometry(int rows, int cols) {
    /** The TH-2 NRC's plane: 4 rows of 6 relay stations, one per port. */
    public static final RsGeometry TH2 = new RsGeometry(4, 6);
    /** Relay-station beats per flit (10) and per management packet (40). */
    public static final int BEATS_PER_FLIT = Th2.RS_BEATS_PER_FLIT;
    public static final int BEATS_PER_PACKET = BEATS_PER_FLIT * Th2.PACKET_FLITS;

    public RsGeometry {
        // the port tag a packet carries through the plane is 5 bits, and the register map has 24 port banks
        if (rows < 1 || cols < 1 || rows * cols > Th2.NRC_PORTS) {
            throw new IllegalArgumentException("a relay-station plane of " + rows + " x " + cols
                    + ": rows and columns from 1, at most " + Th2.NRC_PORTS + " ports");
        }
    }

    /**
     * The plane in front of a switch core: the core's tiles mirror the relay-station plane (4 x 6 on the TH-2 NRC,
     * 2 x 2 at CI size), so a chip's plane has the rows and columns of its core.
     */
    public static RsGeometry of(org.flitkit.rtl.nrc.switchcore.SwitchParams core) {
        return new RsGeometry(core.rows(), core.cols());
    }

    /** Ports, one relay station each. */
    public int ports() {
        return rows * cols;
    }

    /** Column of the last RS of a row, the one wired to the NMA. */
    public int lastCol() {
        return cols - 1;
    }

    public int row(int port) {
        check(port);
        return port / cols;
    }

    public int col(int port) {
        check(port);
        return port % cols;
    }

    public int port(int row, int col) {
        if (row < 0 || row >= rows || col < 0 || col >= cols) {
            throw new IllegalArgumentException("no relay station at row " + row + ", column " + col);
        }
        return row * cols + col;
    }

    /** Relay stations a packet crosses between port {@code port} and the NMA: 1 (last column) to cols (column 0). */
    public int hopsToNma(int port) {
        return cols - col(port);
    }

    private void check(int port) {
        if (port < 0 || port >= ports()) {
            throw new IllegalArgumentException("NRC port " + port + " outside 0.." + (ports() - 1));
        }
    }
}
