package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The wide emitter's limb statements: copies unrolled up to 16 limbs, the top limb masked to the width. */
class WideEmitterTest {
    @Test
    void copiesAreOneStatementPerLimbUpToSixteenLimbs() {
        assertThat(WideEmitter.copy("nxw", 2, 130, "w", 40)).isEqualTo("{ nxw[2] = w[40]; nxw[3] = w[41]; nxw[4] = w[42]; }");
        assertThat(WideEmitter.copy("w", 0, 64 * 16, "w", 100)).startsWith("{ w[0] = w[100];").endsWith(" w[15] = w[115]; }");
        assertThat(WideEmitter.copy("w", 0, 64 * 16 + 1, "w", 100)).isEqualTo("Wide.copy(w, 0, 1025, w, 100);");
    }

    @Test
    void theTopLimbIsMaskedToTheWidth() {
        StringBuilder sb = new StringBuilder();
        WideEmitter.limbStore(sb, 10, 100, 0, "x1");
        WideEmitter.limbStore(sb, 10, 100, 1, "(x2 >>> 3)");
        WideEmitter.limbStore(sb, 20, 128, 1, "x3");
        WideEmitter.limbStore(sb, 30, 100, 1, "0L");
        assertThat(sb.toString()).isEqualTo("w[10] = x1; w[11] = ((x2 >>> 3)) & 0xfffffffffL; w[21] = x3; w[31] = 0L;");
    }
}
