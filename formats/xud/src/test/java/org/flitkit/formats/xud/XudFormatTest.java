package org.flitkit.formats.xud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.formats.core.Field;
import org.junit.jupiter.api.Test;

class XudFormatTest {
    /** Bytes [first, last] of the container a header's fields occupy. */
    private static int[] span(List<Field> fields) {
        int msb = fields.stream().mapToInt(Field::msb).max().orElseThrow();
        int lsb = fields.stream().mapToInt(Field::lsb).min().orElseThrow();
        return new int[] {(XudFormat.CONTAINER_BITS - 1 - msb) / 8, (XudFormat.CONTAINER_BITS - 1 - lsb) / 8};
    }

    @Test
    void headersSitWhereIbaPutsThemAndXudethIsSixteenBytes() {
        assertThat(span(XudFormat.LRH_FIELDS)).containsExactly(0, 7);
        assertThat(span(XudFormat.BTH_FIELDS)).containsExactly(8, 19);
        assertThat(span(XudFormat.XUDETH_FIELDS)).containsExactly(20, 35);
        assertThat(XudFormat.XUDETH.width()).isEqualTo(128);
        assertThat(span(XudFormat.AETH_FIELDS)).containsExactly(20, 23);
        assertThat(XudFormat.PSN.width()).isEqualTo(XudFormat.PSN_BITS);
        assertThat(XudFormat.WIN_ID.width()).isEqualTo(16); // 65,536 windows per connection
    }

    @Test
    void dataPacketsRoundTripWithTheirLengthInPktLenAndPadCnt() {
        byte[] payload = {1, 2, 3, 4, 5};
        XudFormat.DataPacket p = new XudFormat.DataPacket(3, 1, 2, 1, XudFormat.PSN_MOD - 1, 0x11112222L, 65_535, 0xFFFF_FFFFL, payload);
        BigInteger w = p.encode();
        assertThat(XudFormat.PKT_LEN.get(w)).isEqualTo(XudFormat.DATA_HEADER_WORDS + 2);
        assertThat(XudFormat.PAD_CNT.get(w)).isEqualTo(3);
        assertThat(XudFormat.OPCODE.get(w)).isEqualTo(XudFormat.OP_XUD_SEND);
        XudFormat.DataPacket q = XudFormat.DataPacket.decode(w);
        assertThat(q.payload()).containsExactly(payload);
        assertThat(q.psn()).isEqualTo(XudFormat.PSN_MOD - 1);
        assertThat(q.winId()).isEqualTo(65_535);
        assertThat(q.winMsn()).isEqualTo(0xFFFF_FFFFL);
        assertThat(XudFormat.icrcOk(w)).isTrue();
        assertThat(XudFormat.icrcOk(w.flipBit(300))).isFalse();
    }

    @Test
    void acksCarryTheReceivedPsnInTheMsn() {
        BigInteger w = new XudFormat.AckPacket(1, 3, 1, XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST, 0xABCDEF).encode();
        assertThat(XudFormat.isAck(w)).isTrue();
        assertThat(XudFormat.MSN.get(w)).isEqualTo(0xABCDEF);
        assertThat(XudFormat.SYNDROME.get(w)).isEqualTo(0x61);
        assertThat(XudFormat.PKT_LEN.get(w)).isEqualTo(XudFormat.ACK_WORDS);
        assertThat(XudFormat.AckPacket.decode(w)).isEqualTo(new XudFormat.AckPacket(1, 3, 1, 0x61, 0xABCDEF));
    }

    @Test
    void badValuesAreRejectedByName() {
        assertThatThrownBy(() -> XudFormat.PSN.set(BigInteger.ZERO, XudFormat.PSN_MOD)).hasMessage("PSN is 24 bits; 0x1000000 does not fit");
        assertThatThrownBy(() -> new XudFormat.DataPacket(1, 1, 0, 0, 0, 0, 0, 0, new byte[33]))
                .hasMessage("payload of 33 bytes exceeds the 32-byte MTU");
        assertThatThrownBy(() -> XudFormat.SendStatus.of(9)).hasMessage("no send completion status 9");
    }
}
