package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * One value of each format written out byte by byte (worked out by hand from the tables of
 * docs/chpp-formats.md, not printed by the code), and decoded back to the same value.
 */
class KnownAnswerTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", "").replace("|", ""));
    }

    // Common values: SRC_ID P1.VF2.QP3 = 001 010 11 = 0x2B, DST_ID P4.PF.QP1 = 100 000 01 = 0x81,
    // Requester ID 0x0102, QPMagic 0xBEEF.

    @Test
    void napHeader() {
        // 60: Fmt 011 Type 00000 | 04: TC 000, PKTType 01 | 6005: S_Flag 011 (CE+LAST), Length 5
        // 0102: Requester ID | BEEF: QPMagic | 2B 81: SRC, DST | Address 0
        byte[] expected = hex("60 04 60 05 | 01 02 BE EF | 2B 81 00 00 | 00 00 00 00");
        assertThat(ChppExamples.NAP_HEADER.toBytes()).isEqualTo(expected);
        assertThat(PacketHeader.fromBytes(expected)).isEqualTo(ChppExamples.NAP_HEADER);
    }

    @Test
    void putHeader() {
        // 08: PKTType 10 | 6080: CE+LAST, Length 128 | Address 0x123456789A00 big-endian in bytes 10..15
        byte[] expected = hex("60 08 60 80 | 01 02 BE EF | 2B 81 12 34 | 56 78 9A 00");
        assertThat(ChppExamples.PUT_HEADER.toBytes()).isEqualTo(expected);
        assertThat(PacketHeader.fromBytes(expected)).isEqualTo(ChppExamples.PUT_HEADER);
        assertThat(ChppExamples.PUT_HEADER.toBits().toHex()).isEqualTo("600860800102beef2b81123456789a00");
    }

    @Test
    void getHeader() {
        // 1C: TC 001 (bit 4), PKTType 11 (bits 3:2) | 4020: S_Flag 010 (LAST), Length 32
        byte[] expected = hex("60 1C 40 20 | 01 02 BE EF | 2B 81 00 00 | 00 00 00 00");
        assertThat(ChppExamples.GET_HEADER.toBytes()).isEqualTo(expected);
        assertThat(PacketHeader.fromBytes(expected)).isEqualTo(ChppExamples.GET_HEADER);
    }

    @Test
    void failedGetAnswerHeader() {
        // 08: PKTType 10 (PUT) | E000: S_Flag 111 (CE+LAST+RESP), Length 0 | 0400: the receiver's Requester ID
        // 81 2B: SRC = the GET's receiver, DST = its sender | Address 0x000300000800: the GET's DstAddr + 2048
        byte[] expected = hex("60 08 E0 00 | 04 00 BE EF | 81 2B 00 03 | 00 00 08 00");
        assertThat(ChppExamples.FAILED_ANSWER_HEADER.toBytes()).isEqualTo(expected);
        assertThat(PacketHeader.fromBytes(expected)).isEqualTo(ChppExamples.FAILED_ANSWER_HEADER);
    }

    // Descriptor word 0 (little-endian): byte 0 = RCE(7) SCE(6) QP 3 (5:4) Kind (3:0) = 0xF0 | Kind; byte 2 DST_ID 0x81;
    // bytes 4-5 QPMagic EF BE; bytes 6-7 Cookie 0xA542 = 42 A5.

    @Test
    void napImmediateDescriptor() {
        byte[] expected = hex("F1 00 81 00 EF BE 42 A5 | 05 00 00 00 00 00 00 00 | 68 65 6C 6C 6F 00 00 00");
        assertThat(ChppExamples.NAP_IMMEDIATE.encode()).isEqualTo(expected);
        assertThat(Descriptor.decode(expected, 3)).isEqualTo(ChppExamples.NAP_IMMEDIATE);
    }

    @Test
    void napIndirectDescriptor() {
        byte[] expected = hex("F2 00 81 00 EF BE 42 A5 | 00 08 00 00 00 00 00 00 | 00 00 00 10 00 7F 00 00");
        assertThat(ChppExamples.NAP_INDIRECT.encode()).isEqualTo(expected);
        assertThat(Descriptor.decode(expected, 3)).isEqualTo(ChppExamples.NAP_INDIRECT);
    }

    @Test
    void putDescriptor() {
        byte[] expected = hex("F3 00 81 00 EF BE 42 A5 | 00 00 20 00 00 00 00 00 | 00 00 00 00 01 00 00 00 | 00 9A 78 56 34 12 00 00");
        assertThat(ChppExamples.PUT.encode()).isEqualTo(expected);
        assertThat(Descriptor.decode(expected, 3)).isEqualTo(ChppExamples.PUT);
    }

    @Test
    void getDescriptor() {
        byte[] expected = hex("F4 00 81 00 EF BE 42 A5 | 00 10 00 00 00 00 00 00 | 00 00 00 00 02 00 00 00 | 00 00 00 00 03 00 00 00");
        assertThat(ChppExamples.GET.encode()).isEqualTo(expected);
        assertThat(Descriptor.decode(expected, 3)).isEqualTo(ChppExamples.GET);
    }

    @Test
    void chainDescriptor() {
        byte[] expected = hex("F5 00 81 00 EF BE 42 A5 | 02 01 00 00 00 00 00 00"
                + "00 10 00 00 00 00 00 00 | 00 10 00 00 00 00 00 00"      // source 0x1000, 4096 bytes
                + "00 30 00 00 00 00 00 00 | 00 08 00 00 00 00 00 00"      // source 0x3000, 2048 bytes
                + "00 00 00 80 00 00 00 00 | 00 18 00 00 00 00 00 00");    // destination 0x80000000, 6144 bytes
        assertThat(ChppExamples.CHAIN.encode()).isEqualTo(expected);
        assertThat(Descriptor.decode(expected, 3)).isEqualTo(ChppExamples.CHAIN);
        assertThat(ChppExamples.CHAIN.transferBytes()).isEqualTo(6144);
    }

    @Test
    void sendCompletion() {
        // 33: QP 3, Kind 3 (PUT) | 00: OK | 42 A5: Cookie | Bytes 0x200000 | byte 15 bit 7: Phase
        byte[] expected = hex("33 00 42 A5 00 00 00 00 | 00 00 20 00 00 00 00 80");
        assertThat(ChppExamples.SEND_COMPLETION.encode()).isEqualTo(expected);
        assertThat(SendCompletion.decode(expected)).isEqualTo(ChppExamples.SEND_COMPLETION);
    }

    @Test
    void receiveCompletion() {
        // Address 0x500000800 | 01: NAP | 00: OK | 2B 81: SRC, DST | 05 00: Length 5 | byte 15 bit 7: Phase
        byte[] expected = hex("00 08 00 00 05 00 00 00 | 01 00 2B 81 05 00 00 80");
        assertThat(ChppExamples.RECEIVE_COMPLETION.encode()).isEqualTo(expected);
        assertThat(ReceiveCompletion.decode(expected)).isEqualTo(ChppExamples.RECEIVE_COMPLETION);
    }

    @Test
    void getFailedReceiveCompletion() {
        // Address 0x300000800 | 06: PUT (2) + Resp (bit 2) | 07: GET_FAILED | 81 2B: SRC, DST | Length 0 | Phase
        byte[] expected = hex("00 08 00 00 03 00 00 00 | 06 07 81 2B 00 00 00 80");
        assertThat(ChppExamples.GET_FAILED_COMPLETION.encode()).isEqualTo(expected);
        assertThat(ReceiveCompletion.decode(expected)).isEqualTo(ChppExamples.GET_FAILED_COMPLETION);
    }

    @Test
    void doorbellWrite() {
        // Words 4 at bits 61:52 = 0x0040000000000000, Address 0x123456780
        assertThat(ChppExamples.DOORBELL.data()).isEqualTo(0x0040_0001_2345_6780L);
        assertThat(ChppExamples.DOORBELL.offset()).isEqualTo(0x3000);
        assertThat(DoorbellWrite.decode(0x3000, 0x0040_0001_2345_6780L)).isEqualTo(ChppExamples.DOORBELL);
        assertThat(ChppExamples.ALL.get(ChppExamples.ALL.size() - 1).bytes()).isEqualTo(hex("80 67 45 23 01 00 40 00"));
    }

    @Test
    void endpointIds() {
        assertThat(ChppExamples.SENDER.encode()).isEqualTo(0x2B);
        assertThat(ChppExamples.RECEIVER.encode()).isEqualTo(0x81);
        assertThat(EndpointId.decode(0xFF)).isEqualTo(new EndpointId(7, 7, 3));
        assertThat(EndpointId.decode(0x2B).toString()).isEqualTo("P1.VF2.QP3");
        assertThat(EndpointId.decode(0x81).toString()).isEqualTo("P4.PF.QP1");
    }
}
