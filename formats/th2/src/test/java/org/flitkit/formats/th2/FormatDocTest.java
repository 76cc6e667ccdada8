package org.flitkit.formats.th2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.flitkit.testbench.GeneratedDocs;
import org.junit.jupiter.api.Test;

class FormatDocTest {

    private static final String DOC = "docs/th2-formats.md";

    @Test
    void committedDocMatchesTheGeneratedTables() throws IOException {
        GeneratedDocs.assertUpToDate(DOC, FormatDoc::extract, FormatDoc.generate(),
                "formats/core/target/classes:formats/th2/target/classes", "org.flitkit.formats.th2.FormatDoc");
    }

    @Test
    void generatedTablesCoverEveryLayoutAndCode() {
        String md = FormatDoc.generate();
        assertThat(md).contains("`route`, 105 bits", "`head`, 198 bits", "`body1`, 198 bits", "`body2`, 198 bits",
                "`tail`, 198 bits", "`descriptor`, 512 bits", "`nmp-register`", "`nmp-eeprom`", "`nmp-error`",
                "`nmp-fault`", "CRC-32C", "0xE3069283");
        for (NmpType t : NmpType.values()) {
            assertThat(md).contains("| " + t + " | " + String.format("0x%02X", t.code()));
        }
        for (ErrorCode e : ErrorCode.values()) {
            assertThat(md).contains("`" + e.console() + "`");
        }
        assertThat(md).contains("| Hop19 | 104:100 | 5 |", "| HopPtr | 109:105 | 5 |", "| CRC | 31:0 | 32 |");
    }

    @Test
    void spliceReplacesOnlyTheGeneratedSection() {
        String doc = "intro\n" + FormatDoc.BEGIN + "\nold\n" + FormatDoc.END + "\noutro\n";
        assertThat(FormatDoc.splice(doc, "new\n")).isEqualTo("intro\n" + FormatDoc.BEGIN + "\nnew\n" + FormatDoc.END + "\noutro\n");
        assertThatThrownBy(() -> FormatDoc.extract("no markers")).hasMessageContaining("lacks the FormatDoc markers");
    }
}
