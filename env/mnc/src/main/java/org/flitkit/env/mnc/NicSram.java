package org.flitkit.env.mnc;

/**
 * The packet buffers of one NIC's SRAM as bytes (multi-rail paper, section 2.1.2: transmit chunks and receive
 * buffers in LANai SRAM). The engines choose the buffers; the bus and the switch models move the bytes.
 */
final class NicSram {
    final byte[][] send;
    final byte[][] recv;

    NicSram(int sendSlots, int recvSlots, int packetBytes) {
        send = new byte[sendSlots][packetBytes];
        recv = new byte[recvSlots][packetBytes];
    }
}
