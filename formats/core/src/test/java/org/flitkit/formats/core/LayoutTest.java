package org.flitkit.formats.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutTest {

    @Test
    void lookupByNameAndGaps() {
        Layout l = Layout.builder("t", 16).field("A", 0, 4, "a").field("B", 8, 4, "b").build();
        assertThat(l.field("B")).isEqualTo(new Field("B", 8, 4));
        assertThat(l.field("B").bits()).isEqualTo("11:8");
        assertThat(l.meaning("A")).isEqualTo("a");
        assertThat(l.reserved()).containsExactly(new Field(Layout.RESERVED, 12, 4), new Field(Layout.RESERVED, 4, 4));
        assertThat(l.rows()).extracting(Field::name).containsExactly("reserved", "B", "reserved", "A");
    }

    @Test
    void missingFieldIsAClearError() {
        Layout head = Layout.builder("head", 16).field("A", 0, 4, "a").field("B", 8, 4, "b").build();
        assertThatThrownBy(() -> head.field("Nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("layout 'head' has no field 'Nope'; fields: [A, B]");
    }

    @Test
    void overlapIsRejected() {
        assertThatThrownBy(() -> Layout.builder("t", 16).field("A", 0, 5, "").field("B", 4, 4, "").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("layout 't' (16 bits): field B[7:4] overlaps field A[4:0]");
    }

    @Test
    void outOfRangeIsRejected() {
        assertThatThrownBy(() -> Layout.builder("t", 16).field("A", 10, 7, "").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("layout 't' (16 bits): field A[16:10] exceeds bit 15");
        assertThatThrownBy(() -> new Field("A", -1, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Field("A", 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void duplicateNamesAreRejected() {
        assertThatThrownBy(() -> Layout.builder("t", 16).field("A", 0, 1, "").field("A", 4, 1, "").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duplicate field names");
    }

    @Test
    void concatOffsetsAndQualifiesNames() {
        Layout a = Layout.builder("a", 8).field("X", 0, 8, "x").build();
        Layout b = Layout.builder("b", 8).field("X", 2, 3, "y").build();
        Layout ab = Layout.concat("ab", List.of(a, b));
        assertThat(ab.width()).isEqualTo(16);
        assertThat(ab.field("b.X")).isEqualTo(new Field("b.X", 10, 3));
        assertThat(ab.meaning("b.X")).isEqualTo("y");
    }
}
