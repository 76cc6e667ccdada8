package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The narrow expression emitter's folding of selects and constants (docs/simulator.md, "Other code generation details"). */
class NarrowEmitterTest {
    @Test
    void twoWaySelects() {
        assertThat(NarrowEmitter.mux("0x1L", "a", "b")).isEqualTo("a");
        assertThat(NarrowEmitter.mux("0x0L", "a", "b")).isEqualTo("b");
        assertThat(NarrowEmitter.mux("c", "x1", "x1")).isEqualTo("x1");
        assertThat(NarrowEmitter.mux("c", "(a + b)", "0x0L")).isEqualTo("((a + b) & -c)");
        assertThat(NarrowEmitter.mux("c", "0x0L", "(a + b)")).isEqualTo("((a + b) & (c - 1L))");
        assertThat(NarrowEmitter.mux("c", "(a + b)", "v[3]")).isEqualTo("(v[3] ^ (((a + b) ^ v[3]) & -c))");
        assertThat(NarrowEmitter.mux("c", "x2", "(a + b)")).isEqualTo("(x2 ^ ((x2 ^ (a + b)) & (c - 1L)))");
        assertThat(NarrowEmitter.mux("c", "(a + b)", "(a - b)")).isEqualTo("(c != 0L ? (a + b) : (a - b))");
    }

    @Test
    void oneBitSelectsWithAConstantArmAreAndOrOr() {
        assertThat(NarrowEmitter.mux1("c", "x1", "0x0L")).isEqualTo("(x1 & c)");
        assertThat(NarrowEmitter.mux1("c", "0x1L", "x2")).isEqualTo("(c | x2)");
        assertThat(NarrowEmitter.mux1("c", "x1", "0x1L")).isEqualTo("(x1 | (c ^ 0x1L))");
        assertThat(NarrowEmitter.mux1("c", "0x0L", "x2")).isEqualTo("(x2 & (c - 1L))");
    }

    @Test
    void constantsFold() {
        assertThat(NarrowEmitter.and("0xf0L", "0x3cL")).isEqualTo("0x30L");
        assertThat(NarrowEmitter.and("x1", "0x0L")).isEqualTo("0x0L");
        assertThat(NarrowEmitter.and("x1", "x2")).isEqualTo("(x1 & x2)");
        assertThat(NarrowEmitter.orXor(" | ", "0xf0L", "0x0fL")).isEqualTo("0xffL");
        assertThat(NarrowEmitter.orXor(" ^ ", "0x0L", "x2")).isEqualTo("x2");
        assertThat(NarrowEmitter.orXor(" ^ ", "x1", "0x0L")).isEqualTo("x1");
        assertThat(NarrowEmitter.orXor(" | ", "x1", "x2")).isEqualTo("(x1 | x2)");
    }
}
