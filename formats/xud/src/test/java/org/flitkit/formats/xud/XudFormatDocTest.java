package org.flitkit.formats.xud;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.flitkit.formats.core.Field;
import org.flitkit.testbench.GeneratedDocs;
import org.junit.jupiter.api.Test;

/** docs/xud-formats.md's generated section equals what XudFormatDoc prints now; the tables cover every field and code. */
class XudFormatDocTest {

    private static final String DOC = "docs/xud-formats.md";

    @Test
    void committedDocMatchesTheGeneratedTables() throws IOException {
        GeneratedDocs.assertUpToDate(DOC, XudFormatDoc::extract, XudFormatDoc.generate(),
                "formats/core/target/classes:formats/xud/target/classes", "org.flitkit.formats.xud.XudFormatDoc");
    }

    @Test
    void headerTablesPlaceEachFieldAtItsIbaByteAndBit() {
        String md = XudFormatDoc.generate();
        // LRH: DLID is bytes 2..3 (bits 47:32 of the 64-bit header); BTH: PSN bytes 9..11 of the BTH (bits 23:0)
        assertThat(md).contains("| DLID | 47:32 | 16 |", "| PSN | 23:0 | 24 |", "| OpCode | 95:88 | 8 |",
                "| win_msn | 31:0 | 32 |", "| Syndrome | 31:24 | 8 |", "| owner | 255 | 1 |", "| ICRC | 31:0 | 32 |");
        for (Field f : XudFormat.LRH_FIELDS) {
            assertThat(md).contains("| " + f.name() + " | ");
        }
        for (XudFormat.SendStatus s : XudFormat.SendStatus.values()) {
            assertThat(md).contains("| " + s + " | " + s.code() + " |");
        }
    }

    @Test
    void knownAnswerPacketsDecodeToTheirFieldsAndCarryAGoodIcrc() {
        var data = XudFormatDoc.EXAMPLE_DATA.encode();
        assertThat(XudFormatDoc.hex(data)).startsWith("00 02 00 03 00 0c 00 01 c4 30 ff ff 00 00 00 02 80 00 01 02 11 11 22 22 00 00 00 01 00 07 00 00 00 00 00 2a 58 55 44 2d 35 00");
        assertThat(XudFormat.icrcOk(data)).isTrue();
        XudFormat.DataPacket back = XudFormat.DataPacket.decode(data);
        assertThat(back.payload()).containsExactly('X', 'U', 'D', '-', '5');
        assertThat(back.winMsn()).isEqualTo(42);
        var ack = XudFormatDoc.EXAMPLE_ACK.encode();
        assertThat(XudFormat.AckPacket.decode(ack)).isEqualTo(XudFormatDoc.EXAMPLE_ACK);
        assertThat(XudFormat.isAck(ack)).isTrue();
    }
}
