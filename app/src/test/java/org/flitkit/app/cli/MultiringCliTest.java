package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.app.cli.HdlCliTest.hdl;

import org.junit.jupiter.api.Test;

/** {@code ./hdl multiring}: capacity tables and usage errors (docs/multiring.md, "Commands"). */
class MultiringCliTest {
    @Test
    void capacityPrintsTheRingsAndTheEffectiveCapacity() {
        HdlCliTest.Run r = hdl("multiring", "capacity", "--nodes", "16", "--steps", "1,3", "--schedule", "balanced");
        assertThat(r.exit()).as(r.err()).isZero();
        // balanced: every ring at L = 11, C = 16*15/11
        assertThat(r.lastLine()).isEqualTo("L_max=11.0000  C=N(N-1)/L_max=21.8182  naive sum of c_j=21.8182  C/naive=1.0000");
        assertThat(r.outLines()).hasSize(7);
    }

    @Test
    void badStepsAndSchedulesAreUsageErrors() {
        HdlCliTest.Run r = hdl("multiring", "capacity", "--nodes", "16", "--steps", "2,4");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("hdl: no ring reaches route 1 (node 0 to node 1): every step shares a factor with 16");
        assertThat(hdl("multiring", "capacity", "--nodes", "16", "--steps", "1", "--schedule", "fast").err())
                .startsWith("hdl: unknown schedule 'fast'; use shortest or balanced");
        assertThat(hdl("multiring", "capacity").err()).startsWith("hdl: give --nodes N and --steps LIST, or --families");
    }
}
