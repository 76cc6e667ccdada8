package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The descriptor-to-packet mappings: the examples' NAP and GET headers, the PUT a GET turns into, its refusals. */
class PacketsTest {

    // sender P1.VF2: the examples' descriptors are on QP 3, so SRC_ID = P1.VF2.QP3 = ChppExamples.SENDER
    @Test
    void napAndGetDescriptorsGiveTheExampleHeaders() {
        assertThat(Packets.napHeader(ChppExamples.NAP_IMMEDIATE, 1, 2, ChppExamples.REQUESTER_ID, 0))
                .isEqualTo(ChppExamples.NAP_HEADER);
        PacketHeader indirect = Packets.napHeader(ChppExamples.NAP_INDIRECT, 1, 2, ChppExamples.REQUESTER_ID, 0);
        assertThat(indirect.length()).isEqualTo(2048);
        assertThat(indirect.src()).isEqualTo(ChppExamples.SENDER);
        assertThat(Packets.getHeader(ChppExamples.GET, 1, 2, ChppExamples.REQUESTER_ID, 1)).isEqualTo(ChppExamples.GET_HEADER);
        assertThatThrownBy(() -> Packets.napHeader(ChppExamples.PUT, 1, 2, 0, 0)).hasMessage("napHeader of a PUT descriptor");
    }

    @Test
    void aGetBecomesThePutOfItsReceiverBackToTheRequester() {
        Descriptor.Put put = Packets.answerGet(ChppExamples.GET_HEADER, ChppExamples.GET.encode());
        // from the receiver's QP 1 (DST_ID P4.PF.QP1) back to P1.VF2.QP3, same key and cookie, GET's RCE, no SCE
        assertThat(put).isEqualTo(new Descriptor.Put(new Descriptor.Common(1, false, true, ChppExamples.SENDER,
                0xBEEF, 0xA542), 4096, 0x0000_0002_0000_0000L, 0x0000_0003_0000_0000L));
    }

    @Test
    void aFailedAnswerEndsWithAHeaderOnlyPutWhereTheFailedPacketWouldHaveStarted() {
        Descriptor.Put put = Packets.answerGet(ChppExamples.GET_HEADER, ChppExamples.GET.encode());
        PacketHeader h = Packets.failedAnswerHeader(put, 4, 0, 0x0400, 0, 2048);
        assertThat(h).isEqualTo(new PacketHeader(PktType.PUT, 0, true, true, true, 0, 0x0400, 0xBEEF, ChppExamples.RECEIVER,
                ChppExamples.SENDER, 0x0000_0003_0000_0800L)).isEqualTo(ChppExamples.FAILED_ANSWER_HEADER);
        // CE whatever the GET's RCE: the error must reach the requester's software
        Descriptor.Put noRce = new Descriptor.Put(new Descriptor.Common(1, false, false, ChppExamples.SENDER, 0xBEEF, 7), 100, 0, 0x5000);
        assertThat(Packets.failedAnswerHeader(noRce, 4, 0, 0x0400, 0, 0).ce()).isTrue();
        assertThat(Packets.failedAnswerHeader(noRce, 4, 0, 0x0400, 0, 0).address()).isEqualTo(0x5000);
        assertThatThrownBy(() -> Packets.failedAnswerHeader(put, 4, 0, 0x0400, 0, 4096))
                .hasMessage("failedAnswerHeader: 4096 bytes sent of a 4096-byte answer; a failed answer has sent 0..4095");
    }

    @Test
    void aGetPacketWithAnotherPayloadIsRefused() {
        assertThatThrownBy(() -> Packets.answerGet(ChppExamples.GET_HEADER, ChppExamples.PUT.encode()))
                .isInstanceOf(ChppFormatException.class).hasMessage("get-payload: GET packet carries a PUT descriptor");
        PacketHeader otherKey = new PacketHeader(PktType.GET, 1, false, true, false, 32, 0x0102, 0xBEEE,
                ChppExamples.SENDER, ChppExamples.RECEIVER, 0);
        assertThatThrownBy(() -> Packets.answerGet(otherKey, ChppExamples.GET.encode()))
                .hasMessage("get-payload: GET descriptor for P4.PF.QP1 key 0xBEEF in a packet for P4.PF.QP1 key 0xBEEE");
        PacketHeader otherDst = new PacketHeader(PktType.GET, 1, false, true, false, 32, 0x0102, 0xBEEF,
                ChppExamples.SENDER, new EndpointId(4, 0, 2), 0);
        assertThatThrownBy(() -> Packets.answerGet(otherDst, ChppExamples.GET.encode()))
                .hasMessage("get-payload: GET descriptor for P4.PF.QP1 key 0xBEEF in a packet for P4.PF.QP2 key 0xBEEF");
        assertThatThrownBy(() -> Packets.answerGet(ChppExamples.PUT_HEADER, ChppExamples.GET.encode()))
                .hasMessage("answerGet of a PUT packet");
    }
}
