package org.flitkit.env.nrc;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpPayload;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;

/**
 * Request packets as the management server's NIC sends them to an NRC cabled to it: forward route
 * empty (the NRC at the end of the cable is the target: HopPtr = HopNum = 0), backward route = the
 * one NRC port leading back to the server. Built with the software format model.
 * Spec: 20-th2-management.md, "Management packets and descriptors"; docs/th2-formats.md "Hop semantics".
 */
public final class Requests {
    /** Chip ID of the server's NIC (SrcID of requests, DestID of responses). */
    public static final int SERVER_NIC_ID = 0x0001;
    /** Server VP that sends requests and receives responses. */
    public static final int SERVER_VP = 1;

    private Requests() {
    }

    /**
     * A path from the server's NRC: output ports at each NRC on the way ({@code forward}, empty: the NRC the
     * request enters is the target) and back ({@code backward}: from the target; the entry port is added last).
     */
    public record Path(List<Integer> forward, List<Integer> backward) {
        public static final Path LOCAL = new Path(List.of(), List.of());

        /** The hops back to the server: the backward hops, then {@code entryPort} at the NRC the request entered. */
        public List<Integer> returnRoute(int entryPort) {
            List<Integer> back = new java.util.ArrayList<>(backward);
            back.add(entryPort);
            return back;
        }
    }

    /** A request entering the NRC at {@code port}, answered back out of the same port. */
    public static ManagementPacket request(int port, int destId, int tid, NmpType type, NmpPayload payload) {
        return request(port, Path.LOCAL, destId, tid, type, payload);
    }

    /** A request entering the NRC at {@code port} and going along {@code path}; the answer comes back out of {@code port}. */
    public static ManagementPacket request(int port, Path path, int destId, int tid, NmpType type, NmpPayload payload) {
        return ManagementPacket.builder()
                .route(new RoutingField(path.forward())).hopPtr(0).returnRoute(new RoutingField(path.returnRoute(port)))
                .destType(ChipType.NRC).destId(destId).srcType(ChipType.NIC).srcId(SERVER_NIC_ID)
                .destVp(SERVER_VP).srcVp(SERVER_VP).transactionId(tid)
                .nmpType(type).payload(payload).build();
    }

    public static ManagementPacket read(int port, int destId, int tid, List<Integer> addrs) {
        return read(port, Path.LOCAL, destId, tid, addrs);
    }

    public static ManagementPacket read(int port, Path path, int destId, int tid, List<Integer> addrs) {
        return request(port, path, destId, tid, NmpType.REG_READ_REQ, new RegisterPayload(addrs, List.of()));
    }

    public static ManagementPacket write(int port, int destId, int tid, List<Integer> addrs, List<Long> values) {
        return write(port, Path.LOCAL, destId, tid, addrs, values);
    }

    public static ManagementPacket write(int port, Path path, int destId, int tid, List<Integer> addrs, List<Long> values) {
        return request(port, path, destId, tid, NmpType.REG_WRITE_REQ, new RegisterPayload(addrs, values));
    }

    public static ManagementPacket eepromRead(int port, int destId, int tid, List<Integer> addrs) {
        return eepromRead(port, Path.LOCAL, destId, tid, addrs);
    }

    public static ManagementPacket eepromRead(int port, Path path, int destId, int tid, List<Integer> addrs) {
        return request(port, path, destId, tid, NmpType.EEP_READ_REQ, new EepromPayload(addrs, List.of()));
    }

    public static ManagementPacket eepromWrite(int port, int destId, int tid, List<Integer> addrs, List<Integer> bytes) {
        return eepromWrite(port, Path.LOCAL, destId, tid, addrs, bytes);
    }

    public static ManagementPacket eepromWrite(int port, Path path, int destId, int tid, List<Integer> addrs, List<Integer> bytes) {
        return request(port, path, destId, tid, NmpType.EEP_WRITE_REQ, new EepromPayload(addrs, bytes));
    }

    /** The packet with one NMPData bit flipped after the CRC was computed: the CRC no longer matches. */
    public static BitVector corrupted(BitVector packet) {
        return packet.flip(org.flitkit.formats.th2.PacketLayout.BODY2.NMP_DATA.lsb() + 3);
    }
}
