package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.waves.GtkwSaveFile;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdLimitExceeded;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the testbench does around the dump: the save file's window and marker, the size limit, progress reports. */
class TestbenchWavesTest {
    /** The simulator's clock period in the dump's ticks (10 ns in 1 ps ticks). */
    private static final long P = 10_000;

    @TempDir
    Path dir;

    /** A component that fails in its sample phase at one cycle. */
    private static final class FailAt extends Component {
        private final long at;

        FailAt(long at) {
            super("checker");
            this.at = at;
        }

        @Override
        protected void sample() {
            if (cycle() == at) {
                throw fail("wrong value");
            }
        }
    }

    @Test
    void saveFileOpensOnTheFirst200CyclesAfterReset() throws IOException {
        Path vcd = dir.resolve("ok.vcd");
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(1, 0).withVcd(vcd))) {
            tb.traces(tb.dut().enq.valid, tb.dut().count);
            tb.reset(3);
            tb.run(500);
            tb.reset(1); // a second reset does not move the view
        }
        assertThat(Files.readString(dir.resolve("ok.gtkw")))
                .isEqualTo(saveFile(vcd).trace("queue.enq_valid", 1).trace("queue.count", 3).window(3 * P, 203 * P).render());
    }

    @Test
    void aRunShorterThanTheViewIsShownWholeSinceGtkwaveRejectsWindowsPastTheDump() throws IOException {
        Path vcd = dir.resolve("short.vcd");
        try (Testbench<Queue<UInt>> tb = fifoOutOfReset(RunConfig.of(1, 0).withVcd(vcd))) {
            tb.run(50);
        }
        assertThat(VcdReader.read(vcd).endTime()).isEqualTo(52 * P + P / 2);
        assertThat(Files.readString(dir.resolve("short.gtkw")))
                .isEqualTo(saveFile(vcd).trace("queue.count", 3).window(2 * P, 52 * P + P / 2 - 1).render());
    }

    @Test
    void afterAFailureTheSaveFileShowsThe100CyclesBeforeItWithTheMarkerOnTheFailingSample() throws IOException {
        Path vcd = dir.resolve("fail.vcd");
        assertThatThrownBy(() -> {
            try (Testbench<Queue<UInt>> tb = fifoOutOfReset(RunConfig.of(1, 0).withVcd(vcd))) {
                tb.add(new FailAt(250));
                tb.run(1000);
            }
        }).isInstanceOf(TestbenchFailure.class).hasMessageStartingWith("cycle 250: checker: wrong value");
        assertThat(Files.readString(dir.resolve("fail.gtkw")))
                .isEqualTo(saveFile(vcd).trace("queue.count", 3).window(150 * P, 251 * P - 1).marker(250 * P + P / 2).render());
        // the dump ends with the failing cycle's values, held to the end of that cycle
        VcdReader dump = VcdReader.read(vcd);
        assertThat(dump.endTime()).isEqualTo(251 * P);
        assertThat(dump.signal("queue.clk").changes().get(dump.signal("queue.clk").changes().size() - 1).time()).isEqualTo(250 * P + P / 2);
    }

    @Test
    void aDesignCheckFailingPutsTheMarkerOnItsCycleLikeAComponentFailure() throws IOException {
        Path vcd = dir.resolve("check.vcd");
        assertThatThrownBy(() -> {
            try (Testbench<Duts.CheckedCounter> tb = Testbench.create(() -> new Duts.CheckedCounter(140), RunConfig.of(1, 0).withVcd(vcd))) {
                tb.traces(tb.dut().count);
                tb.reset(2);
                tb.run(1000);
            }
        }).isInstanceOfSatisfying(SimAssertionError.class, e -> assertThat(e.cycle()).isEqualTo(142));
        // the counter starts at 0 on cycle 2, the first cycle out of reset: 140 on cycle 142
        assertThat(Files.readString(dir.resolve("check.gtkw"))).isEqualTo(new GtkwSaveFile(vcd, new Timescale(1, "ps"))
                .trace("checkedCounter.clk", 1).trace("checkedCounter.reset", 1).trace("checkedCounter.count", 8)
                .window(42 * P, 143 * P - 1).marker(142 * P + P / 2).render());
        VcdReader dump = VcdReader.read(vcd);
        assertThat(dump.endTime()).isEqualTo(143 * P);
        assertThat(dump.signal("checkedCounter.count").valueAt(142 * P + P / 2)).isEqualTo(140);
    }

    @Test
    void aFailureEarlierThan100CyclesStartsTheViewAtZero() throws IOException {
        Path vcd = dir.resolve("early.vcd");
        try (Testbench<Queue<UInt>> tb = fifoOutOfReset(RunConfig.of(1, 0).withVcd(vcd))) {
            tb.run(40);
            assertThatThrownBy(() -> tb.fail("count is off")).isInstanceOf(TestbenchFailure.class);
        }
        assertThat(Files.readString(dir.resolve("early.gtkw")))
                .isEqualTo(saveFile(vcd).trace("queue.count", 3).window(0, 43 * P - 1).marker(42 * P + P / 2).render());
    }

    @Test
    void theDumpStopsAtItsLimitWithTheCycleAndTheFileStaysReadable() throws IOException {
        Path vcd = dir.resolve("big.vcd");
        long limit = 20_000;
        VcdLimitExceeded e;
        try (Testbench<Queue<UInt>> tb = fifoOutOfReset(RunConfig.of(1, 0).withVcd(vcd).withVcdLimit(limit))) {
            e = assertThrows(VcdLimitExceeded.class, () -> tb.run(100_000));
            assertThat(e.cycle()).hasValue(tb.cycle());
        }
        byte[] bytes = Files.readAllBytes(vcd);
        assertThat((long) bytes.length).isEqualTo(e.written()).isGreaterThan(limit);
        // the last timestamp block is the one that went past the limit
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int lastBlock = text.lastIndexOf("\n#") + 1;
        assertThat((long) lastBlock).isLessThanOrEqualTo(limit);
        long lastTime = Long.parseLong(text.substring(lastBlock + 1, text.indexOf('\n', lastBlock)));
        // only the clock changes once the idle FIFO is out of reset, so the next timestamp is half a period later
        assertThat(e.time()).isEqualTo(lastTime + P / 2);
        assertThat(e.cycle()).hasValue(e.time() / P);
        assertThat(VcdReader.read(vcd).endTime()).isEqualTo(lastTime);
        assertThat(dir.resolve("big.gtkw")).isNotEmptyFile();
    }

    @Test
    void progressIsReportedAtTheStartAndEndOfEachRunOrWaitAndEveryIntervalBetween() {
        List<String> calls = new ArrayList<>();
        ProgressListener listener = new ProgressListener() {
            @Override
            public void progress(String what, long cycle, long start, long end) {
                calls.add(what + " " + cycle + " " + start + " " + end);
            }

            @Override
            public void phase(String name) {
                calls.add("phase " + name);
            }
        };
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, RunConfig.of(1, 0).withProgress(listener))) {
            tb.phase("reset");
            tb.reset(2);
            tb.phase(null);
            tb.run(10_000);
            tb.run(5);
            tb.runUntil("the end", () -> tb.cycle() == 20_000, 10_000);
        }
        int n = Testbench.PROGRESS_INTERVAL;
        assertThat(calls).containsExactly(
                "phase elaborating the design", "phase compiling the design", "phase null", "phase reset", "phase null",
                "run 2 2 10002", "run " + (2 + n) + " 2 10002", "run " + (2 + 2 * n) + " 2 10002", "run 10002 2 10002",
                "run 10002 10002 10007", "run 10007 10002 10007",
                "the end 10007 10007 -1", "the end " + (10_007 + n) + " 10007 -1", "the end " + (10_007 + 2 * n) + " 10007 -1",
                "the end 20000 10007 -1");
    }

    enum Light { RED, GREEN, YELLOW }

    /** A traffic light: one Fsm that moves on while {@code go} is high. */
    static final class Lights extends org.flitkit.hdl.Module {
        final org.flitkit.hdl.Bool go = org.flitkit.hdl.Hdl.input(org.flitkit.hdl.Hdl.Bool());
        final org.flitkit.hdl.lib.Fsm<Light> fsm = new org.flitkit.hdl.lib.Fsm<>(Light.class);

        Lights() {
            org.flitkit.hdl.Hdl.when(go, () -> fsm.on(Light.RED, () -> fsm.goTo(Light.GREEN))
                    .on(Light.GREEN, () -> fsm.goTo(Light.YELLOW))
                    .on(Light.YELLOW, () -> fsm.goTo(Light.RED)));
        }
    }

    @Test
    void fsmStatesShowByNameThroughATranslateFilterBesideTheSaveFile() throws IOException {
        Path vcd = dir.resolve("fsm.vcd");
        try (Testbench<Lights> tb = Testbench.create(Lights::new, RunConfig.of(1, 0).withVcd(vcd))) {
            tb.traces(tb.dut().go);
            tb.reset(1);
            tb.sim().poke(tb.dut().go, true);
            tb.run(10);
        }
        Path filter = dir.resolve("fsm.lights.state.filter").toAbsolutePath().normalize();
        assertThat(Files.readString(filter)).isEqualTo("0 RED\n1 GREEN\n2 YELLOW\n");
        String gtkw = Files.readString(dir.resolve("fsm.gtkw"));
        // the state register was not traced by hand: it follows the traces, translated
        assertThat(gtkw).contains("+{lights/go} lights.go\n@2022\n^1 " + filter + "\n+{lights/state[1:0]} lights.state[1:0]\n");
        assertThat(gtkw).isEqualTo(new GtkwSaveFile(vcd, new Timescale(1, "ps")).trace("lights.clk", 1).trace("lights.reset", 1)
                .trace("lights.go", 1).trace("lights.state", 2, "0 RED\n1 GREEN\n2 YELLOW\n")
                .window(1 * P, 11 * P + P / 2 - 1).render(dir.resolve("fsm.gtkw")));
        assertThat(VcdReader.read(vcd).signal("lights.state").width()).isEqualTo(2);
    }

    /** The FIFO with its fill level traced, out of a 2-cycle reset. */
    private static Testbench<Queue<UInt>> fifoOutOfReset(RunConfig config) {
        Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, config);
        tb.traces(tb.dut().count);
        tb.reset(2);
        return tb;
    }

    /** The save file the testbench should write: clock and reset first, in the dump's 1 ps ticks. */
    private static GtkwSaveFile saveFile(Path vcd) {
        return new GtkwSaveFile(vcd, new Timescale(1, "ps")).trace("queue.clk", 1).trace("queue.reset", 1);
    }
}
