package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestbenchTest {
    /** Logs its calls, to check the phase order. */
    private static final class PhaseLog extends Component {
        final List<String> log;

        PhaseLog(String name, List<String> log) {
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
            tb.add(new PhaseLog("a", log));
            tb.add(new PhaseLog("b", log));
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
            PhaseLog r = tb.add(new PhaseLog("a", new ArrayList<>()));
            assertThatThrownBy(() -> tb.add(new PhaseLog("a", new ArrayList<>()))).hasMessageContaining("already in this testbench");
            try (Testbench<Queue<UInt>> other = Testbench.create(Duts::fifo, RunConfig.of(1, 0))) {
                assertThatThrownBy(() -> other.add(r)).hasMessageContaining("already part of a testbench");
            }
        }
    }

    @Test
    void componentsGetIndependentReproducibleRandomStreams() {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(42, 0))) {
            PhaseLog a = tb.add(new PhaseLog("a", new ArrayList<>()));
            PhaseLog b = tb.add(new PhaseLog("b", new ArrayList<>()));
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

    /** A FIFO whose output is never taken: the timeout says what the scoreboard still expects and what the source holds. */
    @Test
    void aTimeoutListsOutstandingItemsAndQueuedBeats() {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(5, 0))) {
            StreamPort enq = StreamPort.of(tb.dut().enq);
            StreamPort deq = StreamPort.of(tb.dut().deq);
            StreamSource source = tb.add(new StreamSource("source", enq));
            tb.add(new StreamSink("sink", deq).backpressure((rng, cycle) -> false));
            InOrderScoreboard<BigInteger> scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            scoreboard.format(v -> Hex.of(v, Duts.WIDTH));
            tb.add(new StreamMonitor("out_monitor", deq).subscribe(scoreboard::observe));
            for (int i = 0; i < 14; i++) {
                source.send(0x100 + i);
                scoreboard.expect(BigInteger.valueOf(0x100 + i));
            }
            tb.reset(1);
            tb.run(3);
            assertThatThrownBy(() -> tb.runUntil("14 values through", () -> scoreboard.matched() == 14, 20))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessage("""
                            cycle 24: testbench: timeout: 14 values through did not happen within 20 cycles (waited since cycle 4)
                              source: 10 beat(s) not taken:
                                0x0104 (offered since cycle 5)
                                0x0105
                                0x0106
                                ... 7 more
                              scoreboard: 14 expected item(s) not observed (0 matched), oldest first:
                                #0 expected at cycle 0: 0x0100
                                #1 expected at cycle 0: 0x0101
                                #2 expected at cycle 0: 0x0102
                                #3 expected at cycle 0: 0x0103
                                #4 expected at cycle 0: 0x0104
                                #5 expected at cycle 0: 0x0105
                                #6 expected at cycle 0: 0x0106
                                #7 expected at cycle 0: 0x0107
                                #8 expected at cycle 0: 0x0108
                                #9 expected at cycle 0: 0x0109
                                ... 4 more
                              out_monitor: beat 0x0100 offered since cycle 2, not taken
                              seed=5""");
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
