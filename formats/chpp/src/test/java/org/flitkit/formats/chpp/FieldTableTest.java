package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;
import org.flitkit.formats.core.Layout;
import org.flitkit.testbench.RepoFiles;
import org.junit.jupiter.api.Test;

/**
 * The field tables: every bit of every layout belongs to exactly one row (a field or a reserved gap); every
 * handle has the name, bits and width of its row in the committed docs/chpp-formats.md and every row a handle;
 * each handle constant is named after its field.
 */
class FieldTableTest {

    @Test
    void everyBitIsInExactlyOneRow() {
        int layouts = 0;
        for (Format format : ChppFormatDoc.LAYOUTS) {
            Layout layout = format.layout();
            int[] owners = new int[layout.width()];
            for (Field row : layout.rows()) {
                for (int bit = row.lsb(); bit <= row.msb(); bit++) {
                    owners[bit]++;
                }
            }
            for (int bit = 0; bit < owners.length; bit++) {
                assertThat(owners[bit]).as(layout.name() + " bit " + bit).isEqualTo(1);
            }
            assertThat(layout.rows().stream().mapToInt(Field::width).sum()).isEqualTo(layout.width());
            layouts++;
        }
        assertThat(layouts).isEqualTo(11);
        assertThat(HeaderLayout.HEADER.width()).isEqualTo(128);
        assertThat(HeaderLayout.HEADER.layout().reserved()).extracting(Field::width).containsExactly(1, 2);
    }

    @Test
    void widthsAreTheFormatSizes() {
        assertThat(List.of(HeaderLayout.HEADER.width(), EndpointId.LAYOUT.width(), DescriptorLayouts.NAP_IMMEDIATE.width(),
                DescriptorLayouts.NAP_INDIRECT.width(), DescriptorLayouts.PUT.width(), DescriptorLayouts.GET.width(),
                DescriptorLayouts.CHAIN.width(), DescriptorLayouts.SEGMENT.width(), CompletionLayouts.SEND.width(),
                CompletionLayouts.RECEIVE.width(), DoorbellLayout.WRITE.width()))
                .containsExactly(128, 8, 128, 192, 256, 256, 128, 128, 128, 128, 64);
        assertThat(Descriptor.NAP_INDIRECT_BYTES * 8).isEqualTo(DescriptorLayouts.NAP_INDIRECT.width());
        assertThat(Descriptor.PUT_BYTES * 8).isEqualTo(DescriptorLayouts.PUT.width());
        assertThat(Descriptor.GET_BYTES * 8).isEqualTo(DescriptorLayouts.GET.width());
    }

    /** {@code | name | bits | width |} rows of the table after "`layout`, N bits.". */
    private static Map<String, String[]> docTable(String doc, Format format) {
        String heading = "`" + format.name() + "`, " + format.width() + " bits.";
        int at = doc.indexOf(heading);
        assertThat(at).as("doc table of " + format.name()).isNotNegative();
        int end = doc.indexOf("\n###", at);
        Map<String, String[]> rows = new LinkedHashMap<>();
        Matcher m = Pattern.compile("^\\| (\\S+) \\| ([0-9:]+) \\| (\\d+) \\|", Pattern.MULTILINE)
                .matcher(doc.substring(at, end < 0 ? doc.length() : end));
        while (m.find()) {
            if (!m.group(1).equals("*reserved*")) {
                rows.put(m.group(1), new String[] {m.group(2), m.group(3)});
            }
        }
        return rows;
    }

    @Test
    void everyHandleHasTheBitsOfItsDocumentedRowAndEveryRowAHandle() throws IOException {
        String doc = Files.readString(RepoFiles.find("docs/chpp-formats.md"), StandardCharsets.UTF_8);
        int checked = 0;
        for (Format format : ChppFormatDoc.LAYOUTS) {
            Map<String, String[]> rows = docTable(doc, format);
            assertThat(format.fields()).extracting(Field::name).as(format.name())
                    .containsExactlyInAnyOrderElementsOf(rows.keySet());
            for (Field f : format.fields()) {
                assertThat(f.bits()).as(format.name() + "." + f.name()).isEqualTo(rows.get(f.name())[0]);
                assertThat(Integer.toString(f.width())).as(format.name() + "." + f.name()).isEqualTo(rows.get(f.name())[1]);
                checked++;
            }
        }
        // header 11, id 3, nap-immediate 8, nap-indirect 9, put 10, get 10, chain 9, segment 2, send 6, receive 8, doorbell 2
        assertThat(checked).isEqualTo(78);
    }

    private static String constantName(String fieldName) {
        return fieldName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2").toUpperCase();
    }

    @Test
    void eachConstantIsNamedAfterItsField() throws IllegalAccessException {
        int members = 0;
        for (Format format : ChppFormatDoc.LAYOUTS) {
            List<String> names = new ArrayList<>();
            for (java.lang.reflect.Field member : format.getClass().getFields()) {
                if (member.getType() == Field.class && !Modifier.isStatic(member.getModifiers())) {
                    Field f = (Field) member.get(format);
                    assertThat(member.getName()).as(format.name() + "." + f.name()).isEqualTo(constantName(f.name()));
                    names.add(f.name());
                    members++;
                }
            }
            assertThat(names).as(format.name()).containsExactlyInAnyOrderElementsOf(
                    format.fields().stream().map(Field::name).toList());
        }
        assertThat(members).isEqualTo(78);
    }
}
