package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.flitkit.testbench.ExternalTools;
import org.flitkit.tools.sweep.SweepStore;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hdl sweep smoke} through a real Slurm (the one-node cluster .ci/slurm-up starts) and in this JVM: the same
 * rows, bit for bit. Skipped where {@code sinfo} does not answer, except under {@code CI=true}, where that fails.
 * The Slurm tasks run these classes through a two-line stand-in for {@code ./hdl} (docs/sweeps.md, "Slurm in CI").
 */
class SlurmSweepTest {
    @Test
    void slurmRowsEqualLocalRowsBitForBit(@TempDir Path dir) throws Exception {
        requireSlurm();
        ExternalTools.require("iverilog", "iverilog");
        Path hdl = dir.resolve("hdl");
        Files.writeString(hdl, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                + System.getProperty("java.class.path") + "' " + Main.class.getName() + " \"$@\"\n");
        hdl.toFile().setExecutable(true);

        HdlCliTest.Run local = HdlCliTest.hdl("sweep", "smoke", "--store", dir.resolve("local").toString());
        assertThat(local.exit()).as(local.err()).isZero();
        HdlCliTest.Run slurm = HdlCliTest.hdl("sweep", "smoke", "--executor", "slurm", "--hdl", hdl.toString(), "--store",
                dir.resolve("slurm").toString());
        assertThat(slurm.exit()).as(slurm.err()).isZero();

        String rows = "point,seed,designs,cycles,mismatches,reference_errors\n0,1,4,100,0,0\n1,1,4,100,0,0\n2,1,4,100,0,0\n";
        assertThat(local.out()).isEqualTo(rows);
        assertThat(slurm.out()).isEqualTo(rows);
        assertThat(slurm.err()).endsWith("sweep smoke: ran 3 point(s), retried 0, 0 failed\n");
        SweepStore l = SweepStore.open(dir.resolve("local"));
        SweepStore s = SweepStore.open(dir.resolve("slurm"));
        // Row.equals compares every value's bits, the seed, the version and the notes
        assertThat(s.rows()).isEqualTo(l.rows());
        assertThat(Files.readString(s.log(0))).contains("slurm job ").contains("point 0 of sweep smoke: difftest");

        // resumed: nothing left to run, the same rows
        HdlCliTest.Run again = HdlCliTest.hdl("sweep", "smoke", "--executor", "slurm", "--hdl", hdl.toString(), "--store",
                dir.resolve("slurm").toString());
        assertThat(again.out()).isEqualTo(rows);
        assertThat(again.err()).contains("3 point(s), 3 already done").endsWith("ran 0 point(s), retried 0, 0 failed\n");
    }

    /** Returns when Slurm answers {@code sinfo} with a node up; skips otherwise, fails instead under CI=true. */
    static void requireSlurm() throws Exception {
        String why;
        try {
            Process p = new ProcessBuilder("sinfo", "-h", "-o", "%T").redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                why = "sinfo did not answer within 20 s";
            } else {
                String out = new String(p.getInputStream().readAllBytes()).strip();
                if (p.exitValue() == 0 && out.lines().anyMatch(l -> l.matches("idle|mixed|allocated|completing"))) {
                    return;
                }
                why = "sinfo exited " + p.exitValue() + " with '" + out + "' (no node up)";
            }
        } catch (java.io.IOException e) {
            why = "no sinfo on the PATH (" + e.getMessage() + ")";
        }
        why = "no Slurm here: " + why + "; .ci/slurm-up starts a one-node Slurm";
        if ("true".equals(System.getenv("CI"))) {
            fail(why + " (CI=true requires it)");
        }
        Assumptions.abort(why);
    }
}
