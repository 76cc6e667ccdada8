package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every validation rule refused with its exact message, starting from the known-answer bytes with one field
 * broken; every rule has at least one case; every reserved bit of every layout is refused on its own.
 */
class ValidationTest {

    private record Case(Rule rule, String message, ThrowingCallable call) {
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static byte[] with(byte[] bytes, Consumer<byte[]> change) {
        byte[] copy = bytes.clone();
        change.accept(copy);
        return copy;
    }

    private static final byte[] NAP = ChppExamples.NAP_HEADER.toBytes();
    private static final byte[] PUT = ChppExamples.PUT_HEADER.toBytes();
    private static final byte[] GET = ChppExamples.GET_HEADER.toBytes();
    private static final byte[] D_NAP_IMM = ChppExamples.NAP_IMMEDIATE.encode();
    private static final byte[] D_NAP_IND = ChppExamples.NAP_INDIRECT.encode();
    private static final byte[] D_PUT = ChppExamples.PUT.encode();
    private static final byte[] D_CHAIN = ChppExamples.CHAIN.encode();
    private static final byte[] SEND = ChppExamples.SEND_COMPLETION.encode();
    private static final byte[] RECV = ChppExamples.RECEIVE_COMPLETION.encode();
    private static final long BELL = ChppExamples.DOORBELL.data();

    private static final Descriptor.Common COMMON = ChppExamples.PUT.common();

    private static final List<Case> CASES = List.of(
            // headers
            new Case(Rule.WRONG_SIZE, "wrong-size: a header is 16 bytes, got 15", () -> PacketHeader.fromBytes(new byte[15])),
            new Case(Rule.RESERVED_BITS, "reserved-bits: header: reserved bits [119] must be 0",
                    () -> PacketHeader.fromBytes(with(NAP, b -> b[1] |= (byte) 0x80))),
            new Case(Rule.RESERVED_BITS, "reserved-bits: header: reserved bits [113:112] must be 0",
                    () -> PacketHeader.fromBytes(with(PUT, b -> b[1] |= 0x01))),
            new Case(Rule.NOT_MEMORY_WRITE, "not-memory-write: Fmt/Type = 010/00000, expected 011/00000",
                    () -> PacketHeader.fromBytes(with(NAP, b -> b[0] = 0x40))),
            new Case(Rule.NOT_MEMORY_WRITE, "not-memory-write: Fmt/Type = 011/00001, expected 011/00000",
                    () -> PacketHeader.fromBytes(with(NAP, b -> b[0] = 0x61))),
            new Case(Rule.UNKNOWN_PKT_TYPE, "unknown-pkt-type: PKTType 0 is not NAP (1), PUT (2) or GET (3)",
                    () -> PacketHeader.fromBytes(with(NAP, b -> b[1] = 0x00))),
            new Case(Rule.LENGTH_TOO_LARGE, "length-too-large: Length 4097 above 4096 bytes",
                    () -> PacketHeader.fromBytes(with(PUT, b -> { b[2] = 0x70; b[3] = 0x01; }))),
            new Case(Rule.LENGTH_TOO_LARGE, "length-too-large: Length 8191 above 4096 bytes",
                    () -> PacketHeader.fromBytes(with(PUT, b -> { b[2] = 0x7F; b[3] = (byte) 0xFF; }))),
            new Case(Rule.NAP_TOO_LARGE, "nap-too-large: NAP Length 2049 above 2048 bytes",
                    () -> PacketHeader.fromBytes(with(NAP, b -> { b[2] = 0x68; b[3] = 0x01; }))),
            new Case(Rule.PUT_EMPTY, "put-empty: PUT Length 0 with S_Flag CE+LAST, allowed only as a failed GET answer (CE+LAST+RESP)",
                    () -> PacketHeader.fromBytes(with(PUT, b -> b[3] = 0))),
            new Case(Rule.PUT_EMPTY, "put-empty: PUT Length 0 with S_Flag LAST+RESP, allowed only as a failed GET answer (CE+LAST+RESP)",
                    () -> PacketHeader.fromBytes(with(ChppExamples.FAILED_ANSWER_HEADER.toBytes(), b -> b[2] = (byte) 0xC0))),
            new Case(Rule.PUT_EMPTY, "put-empty: PUT Length 0 with S_Flag none, allowed only as a failed GET answer (CE+LAST+RESP)",
                    () -> PacketHeader.fromBytes(with(PUT, b -> { b[2] = 0; b[3] = 0; }))),
            new Case(Rule.GET_LENGTH, "get-length: GET Length 33, must be 32 (one GET descriptor)",
                    () -> PacketHeader.fromBytes(with(GET, b -> b[3] = 33))),
            new Case(Rule.ADDRESS_NOT_ZERO, "address-not-zero: NAP Address 0x1, must be 0 (the receiver picks the buffer)",
                    () -> PacketHeader.fromBytes(with(NAP, b -> b[15] = 1))),
            new Case(Rule.ADDRESS_NOT_ZERO, "address-not-zero: GET Address 0x10000000000, must be 0 (addresses are in the carried descriptor)",
                    () -> PacketHeader.fromBytes(with(GET, b -> b[10] = 1))),
            new Case(Rule.BAD_S_FLAG, "bad-s-flag: NAP S_Flag LAST, must be CE+LAST (a NAP is one packet and always posts a receive completion)",
                    () -> PacketHeader.fromBytes(with(NAP, b -> b[2] = 0x40))),
            new Case(Rule.BAD_S_FLAG, "bad-s-flag: GET S_Flag CE+LAST, must be LAST only (completions are requested in the carried descriptor)",
                    () -> PacketHeader.fromBytes(with(GET, b -> b[2] = 0x60))),
            new Case(Rule.BAD_S_FLAG, "bad-s-flag: S_Flag CE: CE only on the LAST packet of a transfer",
                    () -> PacketHeader.fromBytes(with(PUT, b -> b[2] = 0x20))),
            // descriptors
            new Case(Rule.WRONG_SIZE, "wrong-size: descriptor of 12 bytes: must be whole 8-byte words, 16..4096 bytes",
                    () -> Descriptor.decode(new byte[12])),
            new Case(Rule.WRONG_SIZE, "wrong-size: descriptor of 4104 bytes: must be whole 8-byte words, 16..4096 bytes",
                    () -> Descriptor.decode(new byte[4104])),
            new Case(Rule.WRONG_SIZE, "wrong-size: PUT descriptor is 32 bytes, fetched 24",
                    () -> Descriptor.decode(java.util.Arrays.copyOf(D_PUT, 24))),
            new Case(Rule.WRONG_SIZE, "wrong-size: NAP_IMMEDIATE descriptor is 24 bytes, fetched 32",
                    () -> Descriptor.decode(java.util.Arrays.copyOf(D_NAP_IMM, 32))),
            new Case(Rule.UNKNOWN_DESC_KIND, "unknown-desc-kind: descriptor Kind 6 is not 1..5",
                    () -> Descriptor.decode(with(D_PUT, b -> b[0] = (byte) 0xF6))),
            new Case(Rule.UNKNOWN_DESC_KIND, "unknown-desc-kind: descriptor Kind 0 is not 1..5",
                    () -> Descriptor.decode(with(D_PUT, b -> b[0] = (byte) 0xF0))),
            new Case(Rule.RESERVED_BITS, "reserved-bits: put: reserved bits [15:8] must be 0",
                    () -> Descriptor.decode(with(D_PUT, b -> b[1] = 1))),
            new Case(Rule.RESERVED_BITS, "reserved-bits: nap-immediate: padding bytes 21..23 must be 0",
                    () -> Descriptor.decode(with(D_NAP_IMM, b -> b[23] = 1))),
            new Case(Rule.RESERVED_BITS, "reserved-bits: segment: reserved bits [127:96] must be 0 (at descriptor bit 224)",
                    () -> Descriptor.decode(with(D_CHAIN, b -> b[28] = 1))),
            new Case(Rule.NAP_TOO_LARGE, "nap-too-large: NAP indirect of 2049 bytes, at most 2048",
                    () -> Descriptor.decode(with(D_NAP_IND, b -> b[8] = 1))),
            new Case(Rule.NAP_TOO_LARGE, "nap-too-large: NAP immediate of 2049 bytes, at most 2048",
                    () -> Descriptor.decode(with(D_NAP_IMM, b -> { b[8] = 1; b[9] = 8; }))),
            new Case(Rule.ZERO_LENGTH, "zero-length: PUT of 0 bytes", () -> Descriptor.decode(with(D_PUT, b -> b[10] = 0))),
            new Case(Rule.ZERO_LENGTH, "zero-length: chain segment at 0x3000 has length 0",
                    () -> Descriptor.decode(with(D_CHAIN, b -> b[41] = 0))),
            new Case(Rule.ADDRESS_TOO_WIDE, "address-too-wide: PUT destination 0x1123456789a00 + 2097152 bytes beyond the 48-bit address space",
                    () -> Descriptor.decode(with(D_PUT, b -> b[30] = 1))),
            new Case(Rule.ADDRESS_TOO_WIDE, "address-too-wide: PUT Address 0xffffffffffc0 + 128 bytes beyond the 48-bit address space",
                    () -> PacketHeader.fromBytes(with(PUT, b -> { for (int i = 10; i < 15; i++) { b[i] = (byte) 0xFF; } b[15] = (byte) 0xC0; }))),
            new Case(Rule.ADDRESS_TOO_WIDE, "address-too-wide: PUT destination 0xffffffffff00 + 257 bytes beyond the 48-bit address space",
                    () -> new Descriptor.Put(COMMON, 257, 0, 0xFFFF_FFFF_FF00L)),
            new Case(Rule.ADDRESS_TOO_WIDE, "address-too-wide: chain destination segment 0 0x1000080000000 + 6144 bytes beyond the 48-bit address space",
                    () -> Descriptor.decode(with(D_CHAIN, b -> b[54] = 1))),
            new Case(Rule.NAP_NEEDS_RECEIVE_EVENT, "nap-needs-receive-event: NAP immediate with RCE = 0",
                    () -> Descriptor.decode(with(D_NAP_IMM, b -> b[0] = 0x71))),
            new Case(Rule.NAP_NEEDS_RECEIVE_EVENT, "nap-needs-receive-event: NAP indirect with RCE = 0",
                    () -> Descriptor.decode(with(D_NAP_IND, b -> b[0] = 0x72))),
            new Case(Rule.QP_MISMATCH, "qp-mismatch: descriptor QP 3 fetched by the doorbell of QP 2",
                    () -> Descriptor.decode(D_NAP_IMM, 2)),
            new Case(Rule.CHAIN_NO_SEGMENTS, "chain-no-segments: chain with 2 source and 0 destination segments, needs >= 1 of each",
                    () -> Descriptor.decode(with(D_CHAIN, b -> b[9] = 0))),
            new Case(Rule.CHAIN_NO_SEGMENTS, "chain-no-segments: chain with 0 source and 1 destination segments, needs >= 1 of each",
                    () -> new Descriptor.Chain(COMMON, List.of(), List.of(new Descriptor.Segment(0, 1)))),
            new Case(Rule.CHAIN_TOO_MANY_SEGMENTS, "chain-too-many-segments: chain with 200 + 56 segments, at most 255 in all (a descriptor is at most 4096 bytes)",
                    () -> Descriptor.decode(with(D_CHAIN, b -> { b[8] = (byte) 200; b[9] = 56; }))),
            new Case(Rule.CHAIN_TOO_MANY_SEGMENTS, "chain-too-many-segments: chain with 128 + 128 segments, at most 255 in all (a descriptor is at most 4096 bytes)",
                    () -> new Descriptor.Chain(COMMON, segments(128, 1), segments(128, 1))),
            new Case(Rule.CHAIN_LENGTH_MISMATCH, "chain-length-mismatch: chain source total 6144 bytes, destination total 6145 bytes",
                    () -> Descriptor.decode(with(D_CHAIN, b -> b[56] = 1))),
            new Case(Rule.CHAIN_LENGTH_MISMATCH, "chain-length-mismatch: chain source total 3 bytes, destination total 2 bytes",
                    () -> new Descriptor.Chain(COMMON, segments(3, 1), segments(1, 2))),
            new Case(Rule.TRANSFER_TOO_LARGE, "transfer-too-large: chain total 4294967296 bytes above 2^32-1",
                    () -> new Descriptor.Chain(COMMON, List.of(new Descriptor.Segment(0, Chpp.MAX_TRANSFER), new Descriptor.Segment(0, 1)),
                            List.of(new Descriptor.Segment(0, 1L << 31), new Descriptor.Segment(1L << 31, 1L << 31)))),
            new Case(Rule.GET_PAYLOAD, "get-payload: GET packet carries a NAP_INDIRECT descriptor",
                    () -> Packets.answerGet(ChppExamples.GET_HEADER, D_NAP_IND)),
            // completions
            new Case(Rule.WRONG_SIZE, "wrong-size: a send completion is 16 bytes, got 15", () -> SendCompletion.decode(new byte[15])),
            new Case(Rule.WRONG_SIZE, "wrong-size: a receive completion is 16 bytes, got 17", () -> ReceiveCompletion.decode(new byte[17])),
            new Case(Rule.RESERVED_BITS, "reserved-bits: send-completion: reserved bits [63:32] must be 0",
                    () -> SendCompletion.decode(with(SEND, b -> b[4] = 1))),
            new Case(Rule.RESERVED_BITS, "reserved-bits: receive-completion: reserved bits [126:109] must be 0",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[14] = 1))),
            new Case(Rule.UNKNOWN_DESC_KIND, "unknown-desc-kind: descriptor Kind 7 is not 1..5",
                    () -> SendCompletion.decode(with(SEND, b -> b[0] = 0x37))),
            new Case(Rule.UNKNOWN_STATUS, "unknown-status: Status 0x08 is not a defined code",
                    () -> SendCompletion.decode(with(SEND, b -> b[1] = 8))),
            new Case(Rule.UNKNOWN_STATUS, "unknown-status: Status GET_FAILED does not appear in the send ring",
                    () -> SendCompletion.decode(with(SEND, b -> b[1] = 7))),
            new Case(Rule.UNKNOWN_STATUS, "unknown-status: Status QP_MAGIC_REFUSED does not appear in the send ring",
                    () -> SendCompletion.decode(with(SEND, b -> b[1] = 1))),
            new Case(Rule.UNKNOWN_STATUS, "unknown-status: Status LENGTH_MISMATCH does not appear in the receive ring",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[9] = 2))),
            new Case(Rule.BAD_RECEIVE_TYPE, "bad-receive-type: receive completion PKTType 3, must be NAP (1) or PUT (2)",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[8] = 3))),
            new Case(Rule.BAD_RECEIVE_TYPE, "bad-receive-type: receive completion PKTType 0, must be NAP (1) or PUT (2)",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[8] = 0))),
            new Case(Rule.BAD_RECEIVE_TYPE, "bad-receive-type: Resp set on a NAP completion",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[8] = 0x05))),
            new Case(Rule.BAD_RECEIVE_TYPE, "bad-receive-type: Status GET_FAILED on a NAP without Resp, only a GET's answer (PUT with Resp) fails so",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[9] = 7))),
            new Case(Rule.BAD_RECEIVE_TYPE, "bad-receive-type: Status GET_FAILED on a PUT without Resp, only a GET's answer (PUT with Resp) fails so",
                    () -> ReceiveCompletion.decode(with(ChppExamples.GET_FAILED_COMPLETION.encode(), b -> b[8] = 2))),
            new Case(Rule.LENGTH_TOO_LARGE, "length-too-large: Length 4097 above 4096 bytes",
                    () -> ReceiveCompletion.decode(with(RECV, b -> { b[8] = 2; b[12] = 1; b[13] = 0x10; }))),
            new Case(Rule.NAP_TOO_LARGE, "nap-too-large: NAP Length 2049 above 2048 bytes",
                    () -> ReceiveCompletion.decode(with(RECV, b -> { b[12] = 1; b[13] = 0x08; }))),
            new Case(Rule.NAP_BUFFER_MISALIGNED, "nap-buffer-misaligned: NAP buffer 0x500000c00 is not 2 KB aligned",
                    () -> ReceiveCompletion.decode(with(RECV, b -> b[1] = 0x0C))),
            // doorbell
            new Case(Rule.DOORBELL_OFFSET, "doorbell-offset: doorbell write at offset 0x3008, must be QP x 0x1000 for QP 0..3",
                    () -> DoorbellWrite.decode(0x3008, BELL)),
            new Case(Rule.DOORBELL_OFFSET, "doorbell-offset: doorbell write at offset 0x4000, must be QP x 0x1000 for QP 0..3",
                    () -> DoorbellWrite.decode(0x4000, BELL)),
            new Case(Rule.RESERVED_BITS, "reserved-bits: doorbell-write: reserved bits [63:62] must be 0",
                    () -> DoorbellWrite.decode(0, BELL | 1L << 63)),
            new Case(Rule.DOORBELL_LENGTH, "doorbell-length: descriptor length 0 words: must be 1..512 words (8..4096 bytes)",
                    () -> DoorbellWrite.decode(0, BELL & ~(0x3FFL << 52))),
            new Case(Rule.DOORBELL_LENGTH, "doorbell-length: descriptor length 513 words: must be 1..512 words (8..4096 bytes)",
                    () -> DoorbellWrite.decode(0, BELL & ~(0x3FFL << 52) | 513L << 52)),
            new Case(Rule.DOORBELL_LENGTH, "doorbell-length: descriptor length 12 bytes: must be 1..512 words (8..4096 bytes)",
                    () -> new DoorbellWrite(0, 0x1000, 12)),
            new Case(Rule.DOORBELL_MISALIGNED, "doorbell-misaligned: descriptor address 0x123456784 is not 8-byte aligned",
                    () -> DoorbellWrite.decode(0, BELL + 4)));

    private static List<Descriptor.Segment> segments(int count, long length) {
        List<Descriptor.Segment> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new Descriptor.Segment(0x1000L * i, length));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> eachCaseIsRefusedWithItsRuleAndMessage() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.message(), () ->
                assertThat(catchThrowable(c.call())).as("refusal expected: " + c.message())
                        .isInstanceOf(ChppFormatException.class)
                        .hasMessage(c.message())
                        .extracting(e -> ((ChppFormatException) e).rule()).isEqualTo(c.rule())));
    }

    @Test
    void everyRuleHasACase() {
        Set<Rule> covered = EnumSet.noneOf(Rule.class);
        CASES.forEach(c -> covered.add(c.rule()));
        assertThat(covered).containsExactlyInAnyOrder(Rule.values());
        for (Case c : CASES) {
            assertThat(c.message()).startsWith(c.rule().id() + ": ");
        }
    }

    @Test
    void aRefusedDescriptorCompletesWithItsStatus() {
        byte[] mismatch = with(D_CHAIN, b -> b[56] = 1);
        byte[] reserved = with(D_PUT, b -> b[1] = 1);
        assertThat(CompletionStatus.forRefusedDescriptor(((ChppFormatException) catchThrowable(() -> Descriptor.decode(mismatch))).rule()))
                .isEqualTo(CompletionStatus.LENGTH_MISMATCH);
        assertThat(CompletionStatus.forRefusedDescriptor(((ChppFormatException) catchThrowable(() -> Descriptor.decode(reserved))).rule()))
                .isEqualTo(CompletionStatus.BAD_DESCRIPTOR);
        assertThat(CompletionStatus.LENGTH_MISMATCH.send()).isTrue();
        assertThat(CompletionStatus.BAD_DESCRIPTOR.send()).isTrue();
    }

    /** The examples with every single reserved bit set in turn: each is refused as reserved-bits. */
    @Test
    void everyReservedBitOfEveryLayoutIsRefused() {
        int checked = 0;
        checked += reservedBits(HeaderLayout.HEADER, NAP, true, PacketHeader::fromBytes);
        checked += reservedBits(DescriptorLayouts.NAP_INDIRECT, D_NAP_IND, false, Descriptor::decode);
        checked += reservedBits(DescriptorLayouts.PUT, D_PUT, false, Descriptor::decode);
        checked += reservedBits(DescriptorLayouts.GET, ChppExamples.GET.encode(), false, Descriptor::decode);
        checked += reservedBits(DescriptorLayouts.NAP_IMMEDIATE, D_NAP_IMM, false, Descriptor::decode);
        checked += reservedBits(DescriptorLayouts.CHAIN, D_CHAIN, false, Descriptor::decode);
        checked += reservedBits(CompletionLayouts.SEND, SEND, false, SendCompletion::decode);
        checked += reservedBits(CompletionLayouts.RECEIVE, RECV, false, ReceiveCompletion::decode);
        // doorbell: bits 63:62
        for (int bit = 62; bit < 64; bit++) {
            long data = BELL | 1L << bit;
            assertThatThrownBy(() -> DoorbellWrite.decode(0, data)).hasMessageStartingWith("reserved-bits: ");
            checked++;
        }
        // header 3, nap-indirect 8+8+51, put 8+8+32, get 48, nap-immediate 67, chain 8+8+48, send 2+32+31, receive 5+18, doorbell 2
        assertThat(checked).isEqualTo(3 + 67 + 48 + 48 + 67 + 64 + 65 + 23 + 2);
    }

    private static int reservedBits(Format format, byte[] example, boolean bigEndian, Consumer<byte[]> decode) {
        int n = 0;
        for (Field gap : format.layout().reserved()) {
            for (int bit = gap.lsb(); bit <= gap.msb(); bit++) {
                int byteIndex = bigEndian ? example.length - 1 - bit / 8 : bit / 8;
                int mask = 1 << (bit % 8);
                byte[] broken = with(example, b -> b[byteIndex] |= (byte) mask);
                assertThat(catchThrowable(() -> decode.accept(broken))).as(format.name() + " reserved bit " + bit + " set")
                        .isInstanceOf(ChppFormatException.class).hasMessageStartingWith("reserved-bits: ");
                n++;
            }
        }
        return n;
    }
}
