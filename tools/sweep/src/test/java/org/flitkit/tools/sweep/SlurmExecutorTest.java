package org.flitkit.tools.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor against a stand-in sbatch that runs an array's tasks one after another on this machine. */
class SlurmExecutorTest {
    @TempDir
    Path dir;

    /** Like sbatch --parsable --wait: prints a job id, then runs each task of --array=0-N with SLURM_ARRAY_TASK_ID set. */
    static final String FAKE_SBATCH = """
            #!/bin/bash
            for a in "$@"; do
              case "$a" in --array=0-*) last=${a#--array=0-} ;; --partition=nowhere) echo "sbatch: error: invalid partition specified: nowhere" >&2; exit 1 ;; esac
              script="$a"
            done
            echo 4242
            for i in $(seq 0 "$last"); do SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_JOB_ID=4242 bash "$script"; done
            exit 0
            """;

    private SlurmExecutor.Options options() throws Exception {
        Path sbatch = dir.resolve("sbatch");
        Files.writeString(sbatch, FAKE_SBATCH);
        sbatch.toFile().setExecutable(true);
        List<String> task = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                TestPointMain.class.getName());
        return new SlurmExecutor.Options(task, null, null, sbatch.toString(), List.of());
    }

    @Test
    void failedTasksAreRetriedOnceThenReportedWithTheirLogs() throws Exception {
        SweepStore s = SweepStore.prepare(dir.resolve("store"), "demo", "1.0", SweepStoreTest.points(4));
        SweepRun.Outcome o = SweepRun.run(s, new SlurmExecutor(options()));
        assertThat(o.ran()).isEqualTo(4);
        assertThat(o.retried()).isEqualTo(2);
        assertThat(o.failures()).extracting(f -> f.point().index()).containsExactly(2);
        SweepRun.Failure f = o.failures().get(0);
        assertThat(f.error()).isEqualTo("java.lang.IllegalStateException: point 2 fails again\n");
        assertThat(f.log()).isEqualTo(s.dir().resolve("logs/00002.log"));
        String log = Files.readString(f.log());
        assertThat(log).contains("slurm job 4242 task 2 on").contains("point 2 fails the first time").contains("point 2 fails again");
        assertThat(s.row(1).orElseThrow().values()).containsExactly(1, 1);
        assertThat(s.row(3).orElseThrow().values()).containsExactly(3, 9);
        // the retry is a second array of the two failed points only
        assertThat(Files.readString(s.dir().resolve("slurm/array-2.sh"))).contains("points=(1 2)\n");

        // run again (a new process would do the same): only point 2, as arrays 3 and 4; the first arrays' scripts stay
        SweepRun.Outcome again = SweepRun.run(s, new SlurmExecutor(options()));
        assertThat(again.ran()).isEqualTo(1);
        assertThat(again.failures()).extracting(x -> x.point().index()).containsExactly(2);
        assertThat(Files.readString(s.dir().resolve("slurm/array-1.sh"))).contains("points=(0 1 2 3)\n");
        assertThat(Files.readString(s.dir().resolve("slurm/array-4.sh"))).contains("points=(2)\n");
    }

    @Test
    void aJobSlurmRefusesIsAnErrorWithSbatchsMessage() throws Exception {
        SweepStore s = SweepStore.prepare(dir.resolve("store"), "demo", "1.0", SweepStoreTest.points(2));
        SlurmExecutor e = new SlurmExecutor(options().withPartition("nowhere"));
        assertThatThrownBy(() -> e.run(s, s.pending())).hasMessageContaining("sbatch did not accept the job (exit 1): "
                + "sbatch: error: invalid partition specified: nowhere");
    }
}
