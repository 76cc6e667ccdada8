package org.flitkit.rtl.nma;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;

/** Seeded random management packets built with the software model, and BigInteger conversions for the simulator. */
public final class TestPackets {
    private TestPackets() {
    }

    public static BigInteger big(ManagementPacket p) {
        return p.toBits().toBigInteger();
    }

    public static BigInteger big(BitVector v) {
        return v.toBigInteger();
    }

    public static BitVector bits(BigInteger v) {
        return BitVector.of(Th2.PACKET_BITS, v);
    }

    public static ManagementPacket parse(BigInteger v) {
        return ManagementPacket.parse(bits(v));
    }

    /** For failure messages: the packet as the format model reads it, or its bits if it does not parse, and why. */
    public static String show(BitVector v) {
        try {
            return ManagementPacket.parse(v).toString();
        } catch (IllegalArgumentException e) {
            return v + " (" + e.getMessage() + ")";
        }
    }

    public static String show(BigInteger v) {
        return show(bits(v));
    }

    public static RoutingField route(RandomGenerator rnd) {
        int n = rnd.nextInt(Th2.MAX_HOPS + 1);
        List<Integer> hops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hops.add(rnd.nextInt(Th2.NRC_PORTS));
        }
        return new RoutingField(hops);
    }

    /** A random header (HopPtr = HopNum: the packet has arrived) with the given type and payload. */
    public static ManagementPacket.Builder header(RandomGenerator rnd, ChipType destType, int destId) {
        RoutingField r = route(rnd);
        return ManagementPacket.builder()
                .route(r).hopPtr(r.hopNum()).returnRoute(route(rnd))
                .destType(destType).destId(destId)
                .srcType(rnd.nextBoolean() ? ChipType.NIC : ChipType.NRC).srcId(rnd.nextInt(0x10000))
                .destVp(rnd.nextInt(Th2.VP_COUNT)).srcVp(rnd.nextInt(Th2.VP_COUNT))
                .rint(rnd.nextBoolean()).transactionId(rnd.nextInt(0x10000));
    }

    /** A random register read or write of 1 or 2 registers at addresses below 2^addrBits. */
    public static ManagementPacket registerRequest(RandomGenerator rnd, ChipType destType, int destId, int addrBits) {
        boolean write = rnd.nextBoolean();
        int n = 1 + rnd.nextInt(2);
        List<Integer> a = new ArrayList<>();
        List<Long> d = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            a.add(rnd.nextInt(1 << addrBits));
            d.add(rnd.nextLong());
        }
        return header(rnd, destType, destId)
                .nmpType(write ? NmpType.REG_WRITE_REQ : NmpType.REG_READ_REQ)
                .payload(new RegisterPayload(a, write ? d : List.of())).build();
    }

    /** A random E2PROM read or write of 1..6 bytes. */
    public static ManagementPacket eepromRequest(RandomGenerator rnd, ChipType destType, int destId) {
        boolean write = rnd.nextBoolean();
        int n = 1 + rnd.nextInt(Th2.MAX_EEPROM_BYTES);
        List<Integer> a = new ArrayList<>();
        List<Integer> d = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            a.add(rnd.nextInt(0x10000));
            d.add(rnd.nextInt(256));
        }
        return header(rnd, destType, destId)
                .nmpType(write ? NmpType.EEP_WRITE_REQ : NmpType.EEP_READ_REQ)
                .payload(new EepromPayload(a, write ? d : List.of())).build();
    }

    /** Raw packet bits with body1.NMPType replaced by {@code code} and the CRC recomputed (for bad types). */
    public static BitVector withRawType(ManagementPacket p, int code) {
        BitVector b = p.toBits().with(org.flitkit.formats.th2.PacketLayout.BODY1.NMP_TYPE, code);
        return org.flitkit.formats.th2.PacketLayout.withCrc(b);
    }

    /** Raw packet bits with NMPData replaced and the CRC recomputed (for malformed payloads). */
    public static BitVector withRawData(ManagementPacket p, BitVector nmpData) {
        BitVector b = p.toBits().with(org.flitkit.formats.th2.PacketLayout.BODY2.NMP_DATA, nmpData);
        return org.flitkit.formats.th2.PacketLayout.withCrc(b);
    }
}
