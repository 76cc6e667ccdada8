package org.flitkit.env.nrc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;

/**
 * Joins the flits of one port, as a {@link org.flitkit.testbench.stream.StreamMonitor} reports them, into
 * whole 792-bit management packets (4 flits, head first) for a listener.
 * Spec: 20-th2-management.md, "Management packets and descriptors".
 */
public final class PacketAssembler implements Consumer<BigInteger> {
    private final List<BitVector> flits = new ArrayList<>();
    private final Consumer<BitVector> packets;

    public PacketAssembler(Consumer<BitVector> packets) {
        this.packets = packets;
    }

    @Override
    public void accept(BigInteger flit) {
        flits.add(BitVector.of(Th2.FLIT_BITS, flit));
        if (flits.size() == Th2.PACKET_FLITS) {
            BitVector packet = PacketLayout.fromFlits(flits);
            flits.clear();
            packets.accept(packet);
        }
    }
}
