package org.flitkit.app.difftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.tools.difftest.DiffRunner;
import org.flitkit.tools.difftest.RandomProgram;
import org.flitkit.tools.difftest.ReferenceFailure;
import org.flitkit.tools.difftest.ReferenceSim;
import org.flitkit.hdl.sim.Simulator;
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

    /** A signed compare whose operands inlining ties to 0: {@code a <= $signed(b | $unsigned(a))} is 1. */
    static final class TiedCompare extends Module {
        final UInt x = input(UInt(7));
        final UInt b = input(UInt(8));
        final Bool le = output(Bool());

        TiedCompare() {
            SInt a = x.zext();
            le.assign(a.le(b.or(a.asUInt()).asSInt()));
        }
    }

    /** Seed 20261126125's design D119, shrunk by hand: Verilator 5.006's DFG pass folds its output to 0. */
    static final class TiedCompareTop extends Module {
        final UInt in = input(UInt(6));
        final Bool le = output(Bool());
        final UInt echo = output(UInt(6));

        TiedCompareTop() {
            TiedCompare c = instance(new TiedCompare());
            c.x.assign(lit(0, 7));
            c.b.assign(lit(0, 8));
            le.assign(c.le);
            echo.assign(in);
        }
    }

    @Test
    void theVerilatorReferenceDoesNotFoldATiedSignedCompareWrongly(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        Simulator sim = Simulator.of(TiedCompareTop::new);
        sim.step();
        assertThat(sim.peek("tiedCompareTop.le")).isEqualTo(1);
        DiffRunner.Report r = run("verilator", List.of(new DiffRunner.Design("tied-compare", TiedCompareTop::new, null)), 20, dir);
        assertThat(r.summary()).isEqualTo("designs=1 cycles=20 mismatches=0");
    }

    /** A child whose 5-bit output is always a zero-extended bit, through a multiplexer with equal arms. */
    static final class PaddedBit extends Module {
        final UInt a = input(UInt(5));
        final UInt b = input(UInt(13));
        final UInt o = output(UInt(5));

        PaddedBit() {
            Bool ge = a.pad(13).ge(b);
            o.assign(mux(ge, ge.asUInt().pad(5), ge.asUInt().pad(5)));
        }
    }

    /** Seed 1's design D1932, shrunk by hand: an XOR reduction over {@link PaddedBit}'s output. */
    static final class PaddedBitParity extends Module {
        final UInt a = input(UInt(5));
        final UInt b = input(UInt(13));
        final Bool parity = output(Bool());

        PaddedBitParity() {
            PaddedBit c = instance(new PaddedBit());
            c.a.assign(a);
            c.b.assign(b);
            parity.assign(c.o.xorR());
        }
    }

    /** Verilator 5.006's expand pass leaves that reduction over one bit and stops with an internal error; the reference turns it off. */
    @Test
    void theVerilatorReferenceBuildsAReductionThatInliningNarrowsToOneBit(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        DiffRunner.Report r = run("verilator", List.of(new DiffRunner.Design("padded-bit-parity", PaddedBitParity::new, null)), 20, dir);
        assertThat(r.summary()).isEqualTo("designs=1 cycles=20 mismatches=0");
    }

    /** A reference that refuses every batch holding design {@code D1}; the others are still compared. */
    @Test
    void aDesignTheReferenceRefusesIsNamedAndTheRestOfItsBatchIsCompared(@TempDir Path dir) {
        ExternalTools.require("iverilog", "iverilog");
        ReferenceSim icarus = ReferenceSim.byName("iverilog");
        ReferenceSim refusing = new ReferenceSim() {
            @Override
            public String name() {
                return "iverilog";
            }

            @Override
            public List<java.math.BigInteger[]> run(Path d, List<Path> files, String top, boolean clocked,
                                                   List<org.flitkit.tools.difftest.Port> ports, List<java.math.BigInteger[]> stimulus) {
                if (files.stream().anyMatch(f -> f.getFileName().toString().equals("D1.v"))) {
                    throw new ReferenceFailure("iverilog failed: exit 1\nD1.v:3: syntax error\nI give up.");
                }
                return icarus.run(d, files, top, clocked, ports, stimulus);
            }
        };
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DiffRunner.Report r = new DiffRunner(refusing, dir, new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(DiffRunner.randomDesigns(3, SEED + 2, RandomProgram.Shape.standard().forReference("iverilog")), 50, SEED);
        assertThat(r.summary()).isEqualTo("designs=3 cycles=50 mismatches=0 reference_errors=1");
        assertThat(r.referenceErrors()).singleElement().satisfies(e -> {
            assertThat(e.design()).isEqualTo("D1");
            assertThat(e.error()).isEqualTo("D1.v:3: syntax error");
        });
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("b0: iverilog refused the batch (D1.v:3: syntax error); running its 3 designs one at a time")
                .contains("REFERENCE-ERROR D1: D1.v:3: syntax error (Verilog and build in " + dir.resolve("b0-D1") + ")");
        assertThat(r.clean()).isFalse();
    }

    @Test
    void randomDesignsAgreeWithIcarus(@TempDir Path dir) {
        ExternalTools.require("iverilog", "iverilog");
        run("iverilog", DiffRunner.randomDesigns(25, SEED + 1, RandomProgram.Shape.standard().forReference("iverilog")), 200, dir);
    }
}
