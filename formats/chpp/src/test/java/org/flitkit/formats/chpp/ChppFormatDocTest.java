package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.HexFormat;
import org.flitkit.testbench.GeneratedDocs;
import org.junit.jupiter.api.Test;

/** docs/chpp-formats.md's generated section equals what ChppFormatDoc prints now; the tables cover every code. */
class ChppFormatDocTest {

    private static final String DOC = "docs/chpp-formats.md";

    @Test
    void committedDocMatchesTheGeneratedTables() throws IOException {
        GeneratedDocs.assertUpToDate(DOC, ChppFormatDoc::extract, ChppFormatDoc.generate(),
                "formats/core/target/classes:formats/chpp/target/classes", "org.flitkit.formats.chpp.ChppFormatDoc");
    }

    @Test
    void generatedSectionCoversEveryLayoutCodeRuleAndExample() {
        String md = ChppFormatDoc.generate();
        for (var f : ChppFormatDoc.LAYOUTS) {
            assertThat(md).contains("`" + f.name() + "`, " + f.width() + " bits.");
        }
        for (PktType t : PktType.values()) {
            assertThat(md).contains("| " + t + " | " + t.code() + " |");
        }
        for (DescKind k : DescKind.values()) {
            assertThat(md).contains("| " + k + " | " + k.code() + " |");
        }
        for (CompletionStatus s : CompletionStatus.values()) {
            assertThat(md).contains(String.format("| %s | 0x%02X |", s, s.code()));
        }
        for (Rule r : Rule.values()) {
            assertThat(md).contains("| " + r + " | `" + r.id() + "` |");
        }
        assertThat(md).contains("`" + HexFormat.ofDelimiter(" ").formatHex(ChppExamples.PUT_HEADER.toBytes()) + "`")
                .contains("| Address | 47:0 | 48 |", "| QPMagic | 79:64 | 16 |", "| Length | 108:96 | 13 |");
        assertThat(ChppExamples.ALL).hasSize(13);
    }

    @Test
    void spliceReplacesOnlyTheGeneratedSection() {
        String doc = "intro\n" + ChppFormatDoc.BEGIN + "\nold\n" + ChppFormatDoc.END + "\noutro\n";
        assertThat(ChppFormatDoc.splice(doc, "new\n"))
                .isEqualTo("intro\n" + ChppFormatDoc.BEGIN + "\nnew\n" + ChppFormatDoc.END + "\noutro\n");
        assertThatThrownBy(() -> ChppFormatDoc.extract("no markers")).hasMessageContaining("lacks the ChppFormatDoc markers");
    }
}
