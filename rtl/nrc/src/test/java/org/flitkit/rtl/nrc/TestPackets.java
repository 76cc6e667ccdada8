package org.flitkit.rtl.nrc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.packet.PacketCodec;

/** Test packets and their flit / relay-station-beat forms (docs/th2-formats.md). */
final class TestPackets {
    /** A packet as the 4 flits that carry it through a port, head flit first. */
    static final PacketCodec<BitVector> FLITS = PacketCodec.of(TestPackets::flits, TestPackets::fromFlits);

    /** A packet and the port it left by, as the scoreboards of multi-port tests compare them. */
    record AtPort(int port, BitVector bits) {
    }

    private TestPackets() {
    }

    /** A register read request with the given routes; {@code tid} tells packets apart. */
    static ManagementPacket readRequest(int tid, RoutingField route, int hopPtr, RoutingField back) {
        return ManagementPacket.builder().route(route).hopPtr(hopPtr).returnRoute(back)
                .destType(ChipType.NRC).destId(0xFFFF).srcType(ChipType.NIC).srcId(0x0304)
                .destVp(1).srcVp(2).transactionId(tid).nmpType(NmpType.REG_READ_REQ)
                .payload(RegisterPayload.of(tid & 0x7FFF)).build();
    }

    /** A packet that has arrived at this chip (HopPtr == HopNum). */
    static ManagementPacket arrived(int tid) {
        return readRequest(tid, RoutingField.of(7, 3), 2, RoutingField.of(1));
    }

    static List<BigInteger> flits(BitVector packet) {
        List<BigInteger> out = new ArrayList<>();
        for (BitVector f : PacketLayout.toFlits(packet)) {
            out.add(f.toBigInteger());
        }
        return out;
    }

    static BitVector fromFlits(List<BigInteger> flits) {
        return PacketLayout.fromFlits(flits.stream().map(f -> BitVector.of(Th2.FLIT_BITS, f)).toList());
    }

    /**
     * The 40 relay-station beats of a packet whose head carries port tag {@code port}, as docs/th2-nrc.md
     * ("Relay-station link format") writes them out: the head flit's RtType:VC (bits 114:110) replaced by the
     * port, each flit sent from its bit 100 on (bits 197:100, then 99:0), 20 bits a beat, 2 pad bits in beat 4.
     */
    static List<BigInteger> beats(BitVector packet, int port) {
        List<BigInteger> out = new ArrayList<>();
        BitVector tagged = packet.with(new Field("tag", 110, 5), port);
        for (BitVector f : PacketLayout.toFlits(tagged)) {
            BigInteger v = f.toBigInteger();
            BigInteger low = v.and(BigInteger.ONE.shiftLeft(100).subtract(BigInteger.ONE));
            BigInteger link = v.shiftRight(100).or(low.shiftLeft(98));
            for (int b = 0; b < 10; b++) {
                out.add(link.shiftRight(20 * b).and(BigInteger.valueOf(0xFFFFF)));
            }
        }
        return out;
    }
}
