package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestbenchTest {
    /** Logs its calls, to check the phase order. */
    private static final class Recorder extends Component {
        final List<String> log;

        Recorder(String name, List<String> log) {
            super(name);
            this.log = log;
        }

        @Override
        protected void reset() {
            log.add(name() + ".reset@" + cycle());
        }

        @Override
        protected void drive() {
            log.add(name() + ".drive@" + cycle());
        }

        @Override
        protected void sample() {
            log.add(name() + ".sample@" + cycle());
        }

        @Override
        protected void finish() {
            log.add(name() + ".finish@" + cycle());
        }
    }

    @Test
    void everyComponentDrivesThenEveryComponentSamplesThenTheClockTicks() {
        List<String> log = new ArrayList<>();
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(1, 0))) {
            tb.add(new Recorder("a", log));
            tb.add(new Recorder("b", log));
            tb.reset(2);
            tb.run(2);
            tb.finish();
            assertThat(tb.cycle()).isEqualTo(4);
        }
        assertThat(log).containsExactly("a.reset@0", "b.reset@0",
                "a.drive@2", "b.drive@2", "a.sample@2", "b.sample@2",
                "a.drive@3", "b.drive@3", "a.sample@3", "b.sample@3",
                "a.finish@4", "b.finish@4");
    }

    @Test
    void componentNamesAreUniqueAndComponentsBelongToOneTestbench() {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(1, 0))) {
            Recorder r = tb.add(new Recorder("a", new ArrayList<>()));
            assertThatThrownBy(() -> tb.add(new Recorder("a", new ArrayList<>()))).hasMessageContaining("already in this testbench");
            try (Testbench<Queue<UInt>> other = Testbench.create(Duts::fifo, RunConfig.of(1, 0))) {
                assertThatThrownBy(() -> other.add(r)).hasMessageContaining("already part of a testbench");
            }
        }
    }

    @Test
    void componentsGetIndependentReproducibleRandomStreams() {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(42, 0))) {
            Recorder a = tb.add(new Recorder("a", new ArrayList<>()));
            Recorder b = tb.add(new Recorder("b", new ArrayList<>()));
            assertThat(a.rng().seed()).isEqualTo(new Rng(42).fork("a").seed()).isNotEqualTo(b.rng().seed());
        }
    }

    @Test
    void testbenchFailuresCarryCycleAndSeed() {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(77, 0))) {
            tb.run(5);
            assertThatThrownBy(() -> tb.fail("count is 3, expected 4"))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessage("cycle 5: testbench: count is 3, expected 4\n  seed=77");
        }
    }

    @Test
    void dumpsVcdAndGtkwaveSaveFile(@TempDir Path dir) {
        Path vcd = dir.resolve("waves/fifo.vcd");
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(1, 0).withVcd(vcd))) {
            tb.traces(tb.dut().enq.valid, tb.dut().count);
            tb.reset(1);
            tb.run(10);
            ScenarioResult r = tb.result();
            assertThat(r.vcd()).isEqualTo(vcd);
            assertThat(r.gtkw()).isEqualTo(dir.resolve("waves/fifo.gtkw"));
            assertThat(r.cycles()).isEqualTo(11);
        }
        VcdReader dump = VcdReader.read(vcd);
        assertThat(dump.signals()).containsKeys("queue.clk", "queue.reset", "queue.enq_valid", "queue.count");
        assertThat(dump.endTime()).isGreaterThanOrEqualTo(10 * 10_000L);
        String gtkw = readString(dir.resolve("waves/fifo.gtkw"));
        assertThat(gtkw).contains("[dumpfile] \"" + vcd.toAbsolutePath()).contains("queue.clk\n").contains("queue.enq_valid\n")
                .contains("queue.count[2:0]\n");
    }

    private static String readString(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
