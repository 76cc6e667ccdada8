package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The method splitter: statements into methods under the size budget, methods into classes, and the calls to them. */
class MethodSplitterTest {
    @Test
    void statementsGoToANewMethodWhenTheBudgetWouldBeExceeded() {
        String s = "x".repeat(5_000) + ";";
        MethodSplitter m = MethodSplitter.split("G", "t", List.of(s, s, s, "y;"), "long[] v");
        // 8 + 5,001 + 1 characters per line: two fit in 12,000, the third opens a method, "y;" joins it
        assertThat(m.bodies).hasSize(2);
        assertThat(m.bodies.get(0).toString()).isEqualTo("        " + s + "\n        " + s + "\n");
        assertThat(m.bodies.get(1).toString()).isEqualTo("        " + s + "\n        y;\n");
    }

    @Test
    void methodsAreCalledInOrderFromTheirClasses() {
        MethodSplitter m = MethodSplitter.split("G", "r", List.of("a;", "b;"), "long[] nx");
        StringBuilder src = new StringBuilder();
        m.calls(src, "nx");
        assertThat(src.toString()).isEqualTo("        G_R0.r0(nx);\n");
        List<StringBuilder> units = new ArrayList<>();
        m.classes(units);
        assertThat(units).hasSize(1);
        assertThat(units.get(0).toString()).isEqualTo(SourceText.UNIT_HEADER
                + "public final class G_R0 {\n    public static void r0(long[] nx) {\n        a;\n        b;\n    }\n}\n");
    }

    @Test
    void twentyFiveMethodsTakeTwoClasses() {
        MethodSplitter m = new MethodSplitter("G", "c", "long[] v");
        for (int i = 0; i < 25; i++) {
            m.bodies.add(new StringBuilder("        s" + i + ";\n"));
        }
        List<StringBuilder> units = new ArrayList<>();
        m.classes(units);
        assertThat(units).hasSize(2);
        assertThat(m.owner(23)).isEqualTo("G_C0");
        assertThat(m.owner(24)).isEqualTo("G_C1");
        assertThat(units.get(1).toString()).isEqualTo(SourceText.UNIT_HEADER
                + "public final class G_C1 {\n    public static void c24(long[] v) {\n        s24;\n    }\n}\n");
    }

    @Test
    void theFlaggedDispatcherTestsEachChunksFlagAndMarksWhatRan() {
        MethodSplitter m = new MethodSplitter("G", "f", "long[] v");
        m.bodies.add(new StringBuilder());
        m.bodies.add(new StringBuilder());
        java.util.BitSet unstored = new java.util.BitSet();
        unstored.set(1);
        StringBuilder model = new StringBuilder();
        MethodSplitter d = m.dispatchers("e", false, model, 1, unstored);
        assertThat(model.toString()).isEqualTo("        if (act[0] == 0L || act[4] != 0L) e0(v, w, m, nx, nxw, rst, act); else act[1] += 2;\n");
        assertThat(d.bodies).hasSize(1);
        assertThat(d.bodies.get(0).toString()).isEqualTo("""
                        if (act[0] == 0L) {
                            G_F0.f0(v, w, m, nx, nxw, rst, act);
                            G_F0.f1(v, w, m, nx, nxw, rst, act);
                            act[4] = 0L; act[6] = (act[6] & ~0x3L) | (0x3L & 0x2L);
                            return;
                        }
                        if ((act[4] & 0x1L) != 0L) G_F0.f0(v, w, m, nx, nxw, rst, act);
                        if ((act[4] & 0x2L) != 0L) G_F0.f1(v, w, m, nx, nxw, rst, act);
                        final long ran = act[4];
                        act[4] = 0L; act[6] = (act[6] & ~ran) | (ran & 0x2L);
                        act[1] += 2 - Long.bitCount(ran);
                """);
    }

    @Test
    void thePlainGroupsCallEveryChunk() {
        MethodSplitter m = new MethodSplitter("G", "p", "long[] v");
        m.bodies.add(new StringBuilder());
        StringBuilder model = new StringBuilder();
        MethodSplitter g = m.groups("q", model);
        assertThat(model.toString()).isEqualTo("        q0(v, w, m, nx, nxw, rst, act);\n");
        assertThat(g.bodies.get(0).toString()).isEqualTo("        G_P0.p0(v, w, m, nx, nxw, rst, act);\n");
    }
}
