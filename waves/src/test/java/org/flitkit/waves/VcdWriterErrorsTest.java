package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** Misuse must fail loudly at the call that caused it, not as a corrupt file in a viewer. */
class VcdWriterErrorsTest {
    private final VcdWriter writer = new VcdWriter(new ByteArrayOutputStream(), new Timescale(1, "ns"));

    @Test
    void timeMustNotDecrease() {
        int a = writer.root("top").wire("a", 1);
        writer.time(10);
        writer.value(a, 1);
        writer.time(20);
        writer.time(20);

        assertThatThrownBy(() -> writer.time(19))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("19").hasMessageContaining("20");
    }

    @Test
    void timeMustNotDecreaseWithinTheInitialBlock() {
        writer.time(10);

        assertThatThrownBy(() -> writer.time(9)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeStartTimeIsRejected() {
        assertThatThrownBy(() -> writer.time(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void duplicateSignalNamesAreRejectedNamingBoth() {
        Scope top = writer.root("top");
        top.wire("valid", 1);

        assertThatThrownBy(() -> top.reg("valid", 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'valid' clashes with earlier 'valid'")
                .hasMessageContaining("top");
    }

    @Test
    void namesThatCollideAfterSanitisingAreRejectedNamingBoth() {
        Scope top = writer.root("top");
        top.wire("a b", 1);

        assertThatThrownBy(() -> top.wire("a.b", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a_b'")
                .hasMessageContaining("'a.b'")
                .hasMessageContaining("'a b'");
    }

    @Test
    void scopesAndSignalsShareANamespace() {
        Scope top = writer.root("top");
        top.child("fifo");

        assertThatThrownBy(() -> top.wire("fifo", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> writer.root("top")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sameNameInDifferentScopesIsFine() {
        Scope top = writer.root("top");

        assertThatCode(() -> {
            top.child("a").wire("x", 1);
            top.child("b").wire("x", 1);
        }).doesNotThrowAnyException();
    }

    @Test
    void invalidWidthsAndNamesAreRejected() {
        Scope top = writer.root("top");

        assertThatThrownBy(() -> top.wire("w", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> top.wire("", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void declarationsAreClosedOnceTimeStarts() {
        Scope top = writer.root("top");
        writer.time(0);

        assertThatThrownBy(() -> top.wire("late", 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> top.child("late")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> writer.root("late")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void valuesNeedATimeFirstAndAnOpenWriter() {
        int a = writer.root("top").wire("a", 1);

        assertThatThrownBy(() -> writer.value(a, 1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("time()");
        writer.time(0);
        writer.close();
        assertThatThrownBy(() -> writer.value(a, 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> writer.time(1)).isInstanceOf(IllegalStateException.class);
        assertThatCode(writer::close).doesNotThrowAnyException();
    }

    @Test
    void unknownHandlesAndShortLimbArraysAreRejected() {
        int wide = writer.root("top").wire("wide", 130);
        writer.time(0);

        assertThatThrownBy(() -> writer.value(wide + 1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> writer.value(wide, new long[3], 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void illegalTimescalesAreRejected() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertThatThrownBy(() -> new VcdWriter(out, new Timescale(2, "ns"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Timescale(1, "min")).isInstanceOf(IllegalArgumentException.class);
    }
}
