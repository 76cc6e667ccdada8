package org.flitkit.env.xud;

import org.openjdk.jol.info.GraphLayout;

/**
 * Memory per connection of the window layer, measured on the object graph (JOL): the connection hash table
 * of one QP with {@code n} connections, each with its send and receive window tables, divided by {@code n}.
 * Paper section 4.2 (table 4: ~2.8 KB per connection at 32 windows, 12% of an RC QP's ~22 KB, section 1.2).
 */
public final class XudMemory {
    /** The paper's measured memory of one RC QP (ConnectX-4, queue depth 32, one SGE), section 1.2, table 2. */
    public static final double RC_QP_BYTES = 22 * 1024;

    private XudMemory() {
    }

    /** Bytes per connection with {@code windows} windows, over a table of {@code connections} connections. */
    public static double bytesPerConnection(int windows, int connections) {
        if (connections < 1) {
            throw new IllegalArgumentException("measure at least one connection, got " + connections);
        }
        return (double) GraphLayout.parseInstance(WindowLayer.tableWith(windows, connections)).totalSize() / connections;
    }
}
