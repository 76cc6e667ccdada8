package org.flitkit.formats.chpp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One known-answer value of each cHPP format kind: the tests freeze their bytes, docs/chpp-formats.md prints
 * them, and hardware testbenches can drive them (docs/chpp-formats.md, "Known-answer examples").
 */
public final class ChppExamples {

    /** A named example and its bytes (wire order for headers, memory order otherwise). */
    public record Example(String name, byte[] bytes) {
        public Example {
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    public static final EndpointId SENDER = new EndpointId(1, 2, 3);
    public static final EndpointId RECEIVER = new EndpointId(4, 0, 1);
    /** Bus 1, device 0, function 2 (the sender's VF2). */
    public static final int REQUESTER_ID = 0x0102;
    public static final int QP_MAGIC = 0xBEEF;

    public static final PacketHeader NAP_HEADER = new PacketHeader(PktType.NAP, 0, true, true, false, 5, REQUESTER_ID,
            QP_MAGIC, SENDER, RECEIVER, 0);
    public static final PacketHeader PUT_HEADER = new PacketHeader(PktType.PUT, 0, true, true, false, 128, REQUESTER_ID,
            QP_MAGIC, SENDER, RECEIVER, 0x1234_5678_9A00L);
    public static final PacketHeader GET_HEADER = new PacketHeader(PktType.GET, 1, false, true, false, 32, REQUESTER_ID,
            QP_MAGIC, SENDER, RECEIVER, 0);

    private static final Descriptor.Common COMMON = new Descriptor.Common(3, true, true, RECEIVER, QP_MAGIC, 0xA542);

    public static final Descriptor.NapImmediate NAP_IMMEDIATE = new Descriptor.NapImmediate(COMMON,
            "hello".getBytes(StandardCharsets.US_ASCII));
    public static final Descriptor.NapIndirect NAP_INDIRECT = new Descriptor.NapIndirect(COMMON, 2048, 0x0000_7F00_1000_0000L);
    public static final Descriptor.Put PUT = new Descriptor.Put(COMMON, 0x0020_0000L, 0x0000_0001_0000_0000L, 0x1234_5678_9A00L);
    public static final Descriptor.Get GET = new Descriptor.Get(COMMON, 4096, 0x0000_0002_0000_0000L, 0x0000_0003_0000_0000L);
    public static final Descriptor.Chain CHAIN = new Descriptor.Chain(COMMON,
            List.of(new Descriptor.Segment(0x1000, 0x1000), new Descriptor.Segment(0x3000, 0x800)),
            List.of(new Descriptor.Segment(0x8000_0000L, 0x1800)));

    /** Requester ID of the receiver's PF: bus 4, device 0, function 0. */
    public static final int RECEIVER_REQUESTER_ID = 0x0400;
    /**
     * The end of the receiver's answer to {@link #GET} when its read fails after 2048 bytes left: header only,
     * CE+LAST+RESP, from the receiver back to the sender, Address where the failed packet would have started.
     */
    public static final PacketHeader FAILED_ANSWER_HEADER = Packets.failedAnswerHeader(
            Packets.answerGet(GET_HEADER, GET.encode()), RECEIVER.processor(), RECEIVER.function(), RECEIVER_REQUESTER_ID, 0, 2048);

    public static final SendCompletion SEND_COMPLETION = new SendCompletion(DescKind.PUT, 3, CompletionStatus.OK, 0xA542, 0x0020_0000L, true);
    public static final ReceiveCompletion RECEIVE_COMPLETION = new ReceiveCompletion(PktType.NAP, false, CompletionStatus.OK,
            SENDER, RECEIVER, 5, 0x0000_0005_0000_0800L, true);
    /** The requester's completion for that failed answer. */
    public static final ReceiveCompletion GET_FAILED_COMPLETION = new ReceiveCompletion(PktType.PUT, true, CompletionStatus.GET_FAILED,
            RECEIVER, SENDER, 0, 0x0003_0000_0800L, true);
    public static final DoorbellWrite DOORBELL = new DoorbellWrite(3, 0x0000_0001_2345_6780L, 32);

    public static final List<Example> ALL = List.of(
            new Example("NAP header (5 bytes, CE+LAST)", NAP_HEADER.toBytes()),
            new Example("PUT header (128 bytes at 0x123456789A00, CE+LAST)", PUT_HEADER.toBytes()),
            new Example("GET header (TC 1, LAST)", GET_HEADER.toBytes()),
            new Example("failed GET answer header (answer to the GET descriptor below, failed after 2048 bytes: Length 0, CE+LAST+RESP, Address 0x300000800)", FAILED_ANSWER_HEADER.toBytes()),
            new Example("NAP immediate descriptor (\"hello\")", NAP_IMMEDIATE.encode()),
            new Example("NAP indirect descriptor (2048 bytes)", NAP_INDIRECT.encode()),
            new Example("PUT descriptor (2 MB)", PUT.encode()),
            new Example("GET descriptor (4096 bytes)", GET.encode()),
            new Example("chain descriptor (2 source, 1 destination segments, 6 KB)", CHAIN.encode()),
            new Example("send completion (PUT done, 2 MB)", SEND_COMPLETION.encode()),
            new Example("receive completion (NAP, 5 bytes in buffer 0x500000800)", RECEIVE_COMPLETION.encode()),
            new Example("receive completion (that GET failed: PUT, Resp, GET_FAILED, Address 0x300000800)", GET_FAILED_COMPLETION.encode()),
            new Example("doorbell write data (QP 3: offset 0x3000; 32-byte descriptor at 0x123456780)",
                    ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(DOORBELL.data()).array()));

    private ChppExamples() {
    }
}
