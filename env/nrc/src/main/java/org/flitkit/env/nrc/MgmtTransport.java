package org.flitkit.env.nrc;

import java.util.function.Consumer;
import org.flitkit.formats.core.BitVector;

/**
 * How a {@link MgmtSession} reaches the chip: request packets out, every packet that comes back (answers and
 * fault reports) in, with the port and cycle. {@link MgmtServer} puts requests straight into the NRC's ports;
 * a NIC transport would go through the host API. Spec: 20-th2-management.md, "Where management packets go".
 */
public interface MgmtTransport {
    /** Queues one whole request packet (792 bits) toward the chip, entering it by {@code port}. */
    void send(int port, BitVector request);

    /** Calls {@code listener} with every packet that comes back, in arrival order. */
    void onReceive(Consumer<MgmtServer.Received> listener);

    /**
     * The session stopped waiting for {@code tid} (its timeout passed): whatever the transport keeps for the request
     * is released, and an answer that still comes is not waited for. Packets put straight into the ports keep nothing.
     */
    default void abandon(int tid) {
    }
}
