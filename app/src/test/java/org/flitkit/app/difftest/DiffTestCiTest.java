package org.flitkit.app.difftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.difftest.DiffRunner;
import org.flitkit.hdl.difftest.RandomProgram;
import org.flitkit.hdl.difftest.ReferenceSim;
import org.flitkit.app.Catalog;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixed-seed differential subset that runs in CI: random designs and the project's own RTL,
 * every output compared on every cycle with Verilator and with Icarus. A larger run is
 * {@code ./hdl difftest --designs 150 --cycles 400 --seed S --vs verilator} (see the README).
 */
class DiffTestCiTest {
    private static final long SEED = 2026;

    private static DiffRunner.Report run(String tool, List<DiffRunner.Design> designs, int cycles, Path dir) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DiffRunner.Report r = new DiffRunner(ReferenceSim.byName(tool), dir, new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(designs, cycles, SEED);
        assertThat(r.mismatches()).as("%s\n%s", r.summary(), log.toString(StandardCharsets.UTF_8)).isEmpty();
        return r;
    }

    @Test
    void randomDesignsAndProjectRtlAgreeWithVerilator(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        List<DiffRunner.Design> designs = new ArrayList<>(DiffRunner.randomDesigns(30, SEED, RandomProgram.Shape.standard()));
        for (Catalog.DesignEntry d : Catalog.standard().designs()) {
            designs.add(new DiffRunner.Design(d.name(), d.top(), null));
        }
        DiffRunner.Report r = run("verilator", designs, 300, dir);
        assertThat(r.summary()).isEqualTo("designs=" + designs.size() + " cycles=300 mismatches=0");
    }

    @Test
    void randomDesignsAgreeWithIcarus(@TempDir Path dir) {
        ExternalTools.require("iverilog", "iverilog");
        run("iverilog", DiffRunner.randomDesigns(25, SEED + 1, RandomProgram.Shape.standard().forReference("iverilog")), 200, dir);
    }
}
