package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NmaDocTest {
    private static final String DOC = "docs/th2-nma.md";

    @Test
    void committedDocMatchesTheRegisterList() throws IOException {
        String doc = Files.readString(findDoc(), StandardCharsets.UTF_8);
        assertThat(NmaDoc.extract(doc))
                .as(DOC + " is stale; regenerate with: mvn -q -o -pl waves,hdl-dsl,rtl/nma test-compile && "
                        + "java -cp rtl/nma/target/classes:hdl-dsl/target/classes org.flitkit.rtl.nma.NmaDoc --update " + DOC)
                .isEqualTo(NmaDoc.generate());
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

    private static Path findDoc() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(DOC))) {
                return dir.resolve(DOC);
            }
        }
        throw new AssertionError(DOC + " not found above " + Path.of("").toAbsolutePath());
    }
}
