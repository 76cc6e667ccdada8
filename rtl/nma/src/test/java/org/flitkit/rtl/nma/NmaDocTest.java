package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.flitkit.testbench.GeneratedDocs;
import org.junit.jupiter.api.Test;

class NmaDocTest {
    private static final String DOC = "docs/th2-nma.md";

    @Test
    void committedDocMatchesTheRegisterList() throws IOException {
        GeneratedDocs.assertUpToDate(DOC, NmaDoc::extract, NmaDoc.generate(),
                "rtl/nma/target/classes:formats/th2/target/classes:hdl-dsl/target/classes", "org.flitkit.rtl.nma.NmaDoc");
    }

    @Test
    void tableCoversEveryCommonAndPortRegister() {
        String md = NmaDoc.generate();
        for (RegDef d : NmaRegisters.common(NmaDoc.DOC_FAULTS)) {
            assertThat(md).contains("| " + d.name() + " | " + String.format("0x%03X", d.addr()) + " | " + d.access() + " |");
        }
        for (RegDef d : NmaRegisters.portTemplate()) {
            assertThat(md).contains("| PORT*p*_" + d.name() + " |");
        }
        assertThatThrownBy(() -> NmaDoc.extract("no markers")).hasMessageContaining("markers");
        assertThat(NmaDoc.splice("a\n" + NmaDoc.BEGIN + "\nold\n" + NmaDoc.END + "\nb\n", "new\n"))
                .isEqualTo("a\n" + NmaDoc.BEGIN + "\nnew\n" + NmaDoc.END + "\nb\n");
    }
}
