package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.Circuit;
import org.junit.jupiter.api.Test;

/**
 * The statements of {@link SlotLayoutTest.Top}, chunk by chunk, as the storing and the fast variant write them:
 * a constant alone in its chunk, a value read by a later chunk stored only when it changed and waking that chunk,
 * a counter alone in its chunk, a register's next value compared in a local, a wide register's reset.
 */
class StatementEmitterTest {
    private static final String CHUNK = "(long[] v, long[] w, Memories m, long[] nx, long[] nxw, boolean rst, long[] act) {\n";

    @Test
    void theStoringVariantsChunks() {
        CodeGen.Programs p = new CodeGen(Circuit.elaborate(SlotLayoutTest.Top::new).netlist(), "G").generate().programs();
        assertThat(p.model()).hasSize(3);
        assertThat(p.model().get(1)).isEqualTo(SourceText.UNIT_HEADER + "public final class G_C0 {\n"
                + "    public static void c0" + CHUNK
                + "        final long x5 = 0x7L; v[5] = x5; // top.seven\n    }\n"
                + "    public static void c1" + CHUNK
                + "        final long x0 = v[0]; final long x1 = v[1]; final long x6 = ((x0 + x1) & 0xffL); if (v[6] != x6) { v[6] = x6; act[4] |= 0x8L; } // top.s\n    }\n"
                + "    public static void c2" + CHUNK
                + "        final long x2 = v[2]; { final long n = ((x2 + 0x1L) & 0xffffL); nx[0] = n; if (n != x2) { act[5] |= 0xcL; } } // top.cnt\n    }\n"
                + "    public static void c3" + CHUNK
                + "        final long x3 = v[3]; final long x0 = v[0]; final long x4 = (x3 ^ x0); v[4] = x4; // top.sum\n"
                + "        final long x1 = v[1]; final long x2 = v[2]; w[2] = ((x0 << 24) | (x1 << 16) | ((x2) & 0xffffL)); w[3] = 0L;\n"
                + "        if (rst) { nxw[0] = w[4]; nxw[1] = w[5]; } else { nxw[0] = w[2]; nxw[1] = w[3]; } // top.wide\n"
                + "        final long x6 = v[6]; { final long n = ((x6 + 0x1L) & 0xffL); nx[1] = n; if (n != x3) { act[5] |= 0x8L; } } // top.leaf_0.r\n"
                + "    }\n}\n");
        assertThat(p.model().get(2)).isEqualTo(SourceText.UNIT_HEADER + "public final class G_R0 {\n"
                + "    public static void r0(long[] nx) {\n        nx[0] = 0x0L; // top.cnt\n        nx[1] = 0x0L; // top.leaf_0.r\n    }\n}\n");
    }

    @Test
    void theFastVariantKeepsValuesNobodyElseReadsInLocals() {
        CodeGen.Programs p = new CodeGen(Circuit.elaborate(SlotLayoutTest.Top::new).netlist(), "G").generate().programs();
        // top.seven (read by nobody) and top.sum (an output nobody reads inside) stay in locals
        assertThat(p.fast().get(1)).contains("        final long x5 = 0x7L; // top.seven\n")
                .contains("        final long x3 = v[3]; final long x0 = v[0]; final long x4 = (x3 ^ x0); // top.sum\n");
    }
}
