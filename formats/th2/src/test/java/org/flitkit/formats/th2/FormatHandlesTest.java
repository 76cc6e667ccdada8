package org.flitkit.formats.th2;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The field handles against the committed tables of docs/th2-formats.md: every handle has the
 * name, bits and width of its table row, every row has a handle, each constant is named after its
 * field, and the packet handles are the flit handles moved to their flit.
 */
class FormatHandlesTest {

    private static final List<Format> STANDALONE = List.of(FlitLayouts.ROUTE, FlitLayouts.HEAD, FlitLayouts.BODY1,
            FlitLayouts.BODY2, FlitLayouts.TAIL, PayloadLayouts.REGISTER, PayloadLayouts.EEPROM, PayloadLayouts.ERROR,
            PayloadLayouts.FAULT, DescriptorLayout.DESCRIPTOR);

    /** {@code | name | bits | width | meaning |} rows of the table that follows "`layout`, N bits.". */
    private static Map<String, String[]> docTable(String doc, Format format) {
        String heading = "`" + format.name() + "`, " + format.width() + " bits.";
        int at = doc.indexOf(heading);
        assertThat(at).as("doc table of " + format.name()).isNotNegative();
        Map<String, String[]> rows = new LinkedHashMap<>();
        Matcher m = Pattern.compile("^\\| (\\S+) \\| ([0-9:]+) \\| (\\d+) \\|", Pattern.MULTILINE)
                .matcher(doc.substring(at, doc.indexOf("\n###", at)));
        while (m.find()) {
            if (!m.group(1).equals("*reserved*")) {
                rows.put(m.group(1), new String[] {m.group(2), m.group(3)});
            }
        }
        return rows;
    }

    private static String doc() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("docs/th2-formats.md");
            if (Files.isRegularFile(p)) {
                return Files.readString(p, StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("docs/th2-formats.md not found");
    }

    @Test
    void everyHandleHasTheBitsOfItsDocumentedRowAndEveryRowAHandle() throws IOException {
        String doc = doc();
        int checked = 0;
        for (Format format : STANDALONE) {
            Map<String, String[]> rows = docTable(doc, format);
            assertThat(format.fields()).extracting(Field::name).as(format.name())
                    .containsExactlyInAnyOrderElementsOf(rows.keySet());
            for (Field f : format.fields()) {
                assertThat(f.bits()).as(format.name() + "." + f.name()).isEqualTo(rows.get(f.name())[0]);
                assertThat(Integer.toString(f.width())).as(format.name() + "." + f.name()).isEqualTo(rows.get(f.name())[1]);
                checked++;
            }
        }
        // route 21, head 16, body1 4, body2 2, tail 2, register 5, eeprom 13, error 4, fault 4, descriptor 18
        assertThat(checked).isEqualTo(89);
    }

    /** {@code NMPType -> NMP_TYPE}, {@code TransactionID -> TRANSACTION_ID}, {@code FRoutingField -> F_ROUTING_FIELD}. */
    private static String constantName(String fieldName) {
        return fieldName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2").toUpperCase();
    }

    @Test
    void eachConstantIsNamedAfterItsFieldAndIndexedFamiliesAfterTheirIndex() throws IllegalAccessException {
        for (Format format : STANDALONE) {
            List<String> members = new ArrayList<>();
            for (java.lang.reflect.Field member : format.getClass().getFields()) {
                if (member.getType() == Field.class && !Modifier.isStatic(member.getModifiers())) {
                    Field f = (Field) member.get(format);
                    assertThat(member.getName()).as(format.name() + "." + f.name()).isEqualTo(constantName(f.name()));
                    members.add(f.name());
                }
            }
            assertThat(format.fields()).extracting(Field::name).as(format.name()).containsAll(members);
        }
        for (int i = 0; i < Th2.MAX_HOPS; i++) {
            assertThat(FlitLayouts.ROUTE.hop(i).name()).isEqualTo("Hop" + i);
        }
        for (PayloadLayouts.Addressed view : List.of(PayloadLayouts.REGISTER, PayloadLayouts.EEPROM)) {
            for (int i = 0; i < view.capacity(); i++) {
                assertThat(view.addr(i).name()).isEqualTo("Addr" + i);
            }
        }
        assertThat(PayloadLayouts.REGISTER.data(1).name()).isEqualTo("Data1");
        assertThat(PayloadLayouts.EEPROM.data(5).name()).isEqualTo("Byte5");
    }

    @Test
    void packetHandlesAreTheFlitHandlesAtTheirFlit() {
        List<Field> all = new ArrayList<>();
        for (int i = 0; i < Th2.PACKET_FLITS; i++) {
            FlitLayouts.Flit alone = FlitLayouts.FLITS.get(i);
            FlitLayouts.Flit placed = PacketLayout.FLITS.get(i);
            List<Field> expected = new ArrayList<>();
            for (Field f : alone.fields()) {
                expected.add(f.shifted(alone.name() + "." + f.name(), PacketLayout.flitOffset(i)));
            }
            assertThat(placed.fields()).isEqualTo(expected);
            assertThat(placed.kind()).isEqualTo(alone.kind());
            all.addAll(placed.fields());
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(PacketLayout.PACKET.fields());
        assertThat(PacketLayout.BODY1.NMP_TYPE).isEqualTo(new Field("body1.NMPType", 310, 6));
        assertThat(PacketLayout.TAIL.CRC).isEqualTo(new Field("tail.CRC", 594, 32));
    }

    @Test
    void indexOutsideAFamilyIsAClearError() {
        assertThatThrownBy(() -> FlitLayouts.ROUTE.hop(20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hop index 20 outside 0..19 (fields Hop0..Hop19)");
        assertThatThrownBy(() -> PayloadLayouts.REGISTER.addr(2))
                .hasMessage("address index 2 outside 0..1 (fields Addr0..Addr1)");
        assertThatThrownBy(() -> PayloadLayouts.EEPROM.data(-1))
                .hasMessage("data index -1 outside 0..5 (fields Byte0..Byte5)");
    }

    @Test
    void aCompleteFormatTakesNoMoreFields() {
        class Late extends Format {
            final Field a = field("A", 0, 4, "a");

            Late() {
                super("late", 8, Place.ALONE);
            }

            Field addAfterUse() {
                return field("B", 4, 4, "b");
            }
        }
        Late late = new Late();
        assertThat(late.layout().fields()).containsExactly(late.a);
        assertThatThrownBy(late::addAfterUse).hasMessage("format 'late' is complete: cannot add field 'B'");
    }
}
