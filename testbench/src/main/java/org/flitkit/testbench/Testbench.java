package org.flitkit.testbench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.waves.GtkwSaveFile;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdWriter;

/**
 * Owns a simulator and the verification components around it, and advances time for all of them:
 * every cycle it calls each component's {@link Component#drive()}, then each {@link Component#sample()},
 * then clocks the design. Concurrency without threads: a driver, monitor or scoreboard is a small
 * state machine called once per cycle, so a testbench with dozens of interfaces costs a few virtual
 * calls per cycle, not a context switch per fork.
 *
 * <pre>{@code
 * try (Testbench<MyDut> tb = Testbench.create(MyDut::new, cfg)) {
 *     StreamSource src = tb.add(new StreamSource("src", StreamPort.of(tb.dut().in)));
 *     ...
 *     tb.reset(2);
 *     tb.run(cfg.cycles());
 *     tb.runUntil("all flits delivered", scoreboard::isEmpty, 1_000);
 *     tb.finish();
 * }
 * }</pre>
 *
 * Every way of advancing time is bounded ({@link #run(long)} by its count, {@link #runUntil} by its
 * timeout), so a hung design fails with the cycle and what it was waiting for instead of hanging CI.
 *
 * <p>Waves: with {@link RunConfig#vcd()} every named signal is dumped (up to {@link RunConfig#vcdLimit()}
 * bytes, then {@link org.flitkit.waves.VcdLimitExceeded}), and {@link #close()} writes a GTKWave save
 * file for the {@link #traces} (plus every {@code Fsm} state register, shown by state name through its
 * translate filter) that opens on the first {@value #VIEW_CYCLES} cycles after reset (all of
 * a shorter run), or,
 * after a failure raised through the testbench (a component's, {@link #fail}, or a design's {@code Hdl.check}
 * while the testbench advances time), on the {@value #FAILURE_VIEW_CYCLES} cycles before it and the failing
 * cycle, with the marker where the failing check looked.
 */
public final class Testbench<M extends Module> implements AutoCloseable {
    /** {@link RunConfig#progress()} hears from a run every this many cycles. */
    public static final int PROGRESS_INTERVAL = 4096;
    /** Cycles the save file shows after reset, and before a failure. */
    public static final int VIEW_CYCLES = 200;
    public static final int FAILURE_VIEW_CYCLES = 100;

    private final Simulator sim;
    private final M dut;
    private final RunConfig config;
    private final Rng root;
    private final double buildSeconds;
    private final List<Component> components = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private final List<Bits> traces = new ArrayList<>();
    private Component[] active = new Component[0];
    private long simNanos;
    private boolean closed;
    /** The dump's writer, timescale and clock period in its ticks (null/0 without a VCD). */
    private VcdWriter vcdWriter;
    private Timescale vcdTimescale;
    private long vcdPeriod;
    /** The cycle the first reset ended at, and the cycle of the first failure (-1: none), for the save file's window. */
    private long resetEnd = -1;
    private long failureCycle = -1;

    private Testbench(Simulator sim, RunConfig config, double buildSeconds) {
        this.sim = sim;
        @SuppressWarnings("unchecked")
        M top = (M) sim.circuit().top();
        this.dut = top;
        this.config = config;
        this.root = new Rng(config.seed());
        this.buildSeconds = buildSeconds;
        if (config.vcd() != null) {
            try {
                Path parent = config.vcd().toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the directory for " + config.vcd(), e);
            }
            long periodPs = config.clockPeriodPs();
            vcdTimescale = Timescale.forPeriod(periodPs, "ps");
            vcdPeriod = vcdTimescale.ticks(periodPs, "ps");
            vcdWriter = new VcdWriter(config.vcd(), vcdTimescale).limit(config.vcdLimit()).clockPeriod(vcdPeriod);
            sim.startVcd(vcdWriter, periodPs);
        }
    }

    /** Elaborates and compiles {@code top}, then wraps it (starting the VCD if the config asks for one). */
    public static <M extends Module> Testbench<M> create(Supplier<M> top, RunConfig config) {
        return create("the design", top, config);
    }

    /** As {@link #create(Supplier, RunConfig)}, naming the design {@code what} in the {@link #build} phases. */
    public static <M extends Module> Testbench<M> create(String what, Supplier<M> top, RunConfig config) {
        long t0 = System.nanoTime();
        Simulator sim = build(what, top, config);
        return new Testbench<>(sim, config, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * Elaborates and compiles {@code top}, telling the config's {@link ProgressListener} which of the two it is
     * doing to {@code what} (e.g. "2 NRCs and the server's NIC"): for a large board each can take a minute.
     */
    public static Simulator build(String what, Supplier<? extends Module> top, RunConfig config) {
        config.phase("elaborating " + what);
        Circuit circuit = Circuit.elaborate(top);
        config.phase("compiling " + what);
        Simulator sim = Simulator.of(circuit);
        config.phase(null);
        return sim;
    }

    /** Wraps an existing simulator whose top module is an {@code M}. */
    public static <M extends Module> Testbench<M> create(Simulator sim, RunConfig config) {
        return new Testbench<>(sim, config, 0);
    }

    /** Wraps a simulator built for this run in {@code buildSeconds} (elaboration and compilation, as reported). */
    public static <M extends Module> Testbench<M> create(Simulator sim, RunConfig config, double buildSeconds) {
        return new Testbench<>(sim, config, buildSeconds);
    }

    // ------------------------------------------------------------------ accessors

    /** The top module, for its ports: {@code tb.dut().in}. */
    public M dut() {
        return dut;
    }

    public Simulator sim() {
        return sim;
    }

    public RunConfig config() {
        return config;
    }

    public long seed() {
        return config.seed();
    }

    public long cycle() {
        return sim.cycle();
    }

    /** A random stream for {@code name}, derived from the run seed: the same name always gets the same stream. */
    public Rng rng(String name) {
        return root.fork(name);
    }

    /** Wall-clock seconds spent elaborating and compiling the design. */
    public double buildSeconds() {
        return buildSeconds;
    }

    /** Wall-clock seconds spent advancing simulation time so far (reset, run, runUntil). */
    public double simSeconds() {
        return simNanos / 1e9;
    }

    // ------------------------------------------------------------------ components

    /**
     * Adds a component, then its {@link Component#parts() parts}; it is called every cycle from now on,
     * after those added before it.
     */
    public <C extends Component> C add(C component) {
        if (!names.add(component.name())) {
            throw new IllegalArgumentException("a component named '" + component.name() + "' is already in this testbench");
        }
        component.attach(this);
        components.add(component);
        active = components.toArray(new Component[0]);
        for (Component part : component.parts()) {
            add(part);
        }
        return component;
    }

    /** The signals a waveform viewer should open on (written to the {@code .gtkw} file next to the VCD). */
    public void traces(Bits... signals) {
        traces.addAll(List.of(signals));
    }

    // ------------------------------------------------------------------ time

    /** Names the set-up step that starts now for the config's {@link ProgressListener} (null: set-up over). */
    public void phase(String name) {
        config.phase(name);
    }

    /** Holds reset for {@code cycles} clock edges while every component drives its idle values. */
    public void reset(int cycles) {
        long t0 = System.nanoTime();
        for (Component c : active) {
            c.reset();
        }
        sim.reset(cycles);
        simNanos += System.nanoTime() - t0;
        if (resetEnd < 0) {
            resetEnd = cycle();
        }
    }

    /** One clock cycle: drive, sample, edge. */
    private void step() {
        Component[] cs = active;
        for (Component c : cs) {
            c.drive();
        }
        for (Component c : cs) {
            c.sample();
        }
        sim.step();
    }

    /** Exactly {@code cycles} clock cycles. */
    public void run(long cycles) {
        long t0 = System.nanoTime();
        ProgressListener progress = config.progress();
        try {
            if (progress == null) {
                for (long i = 0; i < cycles; i++) {
                    step();
                }
            } else {
                long start = cycle();
                long end = start + cycles;
                progress.progress("run", start, start, end);
                while (cycle() < end) {
                    for (long i = Math.min(end - cycle(), PROGRESS_INTERVAL); i > 0; i--) {
                        step();
                    }
                    progress.progress("run", cycle(), start, end);
                }
            }
        } catch (TestbenchFailure f) {
            throw failed(f);
        } catch (SimAssertionError e) {
            throw failed(e);
        } finally {
            simNanos += System.nanoTime() - t0;
        }
    }

    /**
     * Runs until {@code done} holds (checked before each cycle) and returns how many cycles that took.
     * If it has not happened after {@code maxCycles}, fails naming {@code what}, followed by
     * {@link #describeState()}: what the scoreboards still expect and the sources still hold.
     */
    public long runUntil(String what, BooleanSupplier done, long maxCycles) {
        long t0 = System.nanoTime();
        long start = cycle();
        ProgressListener progress = config.progress();
        try {
            if (progress != null) {
                progress.progress(what, start, start, -1);
            }
            while (!done.getAsBoolean()) {
                if (cycle() - start >= maxCycles) {
                    throw fail("timeout: " + what + " did not happen within " + maxCycles + " cycles (waited since cycle "
                            + start + ")" + describeState());
                }
                step();
                if (progress != null && (cycle() - start) % PROGRESS_INTERVAL == 0) {
                    progress.progress(what, cycle(), start, -1);
                }
            }
            if (progress != null) {
                progress.progress(what, cycle(), start, -1);
            }
            return cycle() - start;
        } catch (TestbenchFailure f) {
            throw failed(f);
        } catch (SimAssertionError e) {
            throw failed(e);
        } finally {
            simNanos += System.nanoTime() - t0;
        }
    }

    /**
     * The state of every component that has something to report ({@link Component#describeState()}), in
     * the order they were added: one line {@code "  name: summary"} each, its items indented below.
     * Empty when every component is idle.
     */
    public String describeState() {
        StringBuilder b = new StringBuilder();
        for (Component c : active) {
            List<String> lines = c.describeState();
            for (int i = 0; i < lines.size(); i++) {
                b.append(i == 0 ? "\n  " + c.name() + ": " : "\n    ").append(lines.get(i));
            }
        }
        return b.toString();
    }

    /** End of test: every component's final checks (e.g. scoreboards with items never observed). */
    public void finish() {
        try {
            for (Component c : active) {
                c.finish();
            }
        } catch (TestbenchFailure f) {
            throw failed(f);
        }
    }

    /** Fails the run from the test itself (not a component); declared to return so callers can {@code throw tb.fail(..)}. */
    public TestbenchFailure fail(String detail) {
        throw fail("testbench", detail);
    }

    /** Fails the run from the test itself, naming the check that failed ({@code "latency"}) as the component. */
    public TestbenchFailure fail(String check, String detail) {
        throw failed(new TestbenchFailure(cycle(), check, detail, seed()));
    }

    /** Remembers the first failure: the save file opens on it. */
    private TestbenchFailure failed(TestbenchFailure f) {
        failedAt(f.cycle());
        return f;
    }

    private SimAssertionError failed(SimAssertionError e) {
        failedAt(e.cycle());
        return e;
    }

    private void failedAt(long cycle) {
        if (failureCycle < 0) {
            failureCycle = cycle;
        }
    }

    /** The outcome to report: cycles, time and the compile statistics, without counts yet. */
    public ScenarioResult result() {
        return new ScenarioResult(cycle(), simSeconds(), buildSeconds, sim.stats(), config.vcd(),
                config.vcd() != null && !traces.isEmpty() ? config.gtkw() : null, Map.of());
    }

    /** Stops the VCD (flushing it, also after a failure) and writes the GTKWave save file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (vcdWriter != null && failureCycle >= 0) {
            // the failing cycle's values hold until the clock edge that never came
            vcdWriter.endTime((failureCycle + 1) * vcdPeriod);
        }
        sim.stopVcd();
        if (config.vcd() != null && !traces.isEmpty()) {
            saveFile().write(config.gtkw());
        }
    }

    /** The traces, grouped by instance, and the window: after reset, or before the failure with the marker on it. */
    private GtkwSaveFile saveFile() {
        String top = dut.instanceName();
        GtkwSaveFile save = new GtkwSaveFile(config.vcd(), vcdTimescale).trace(top + ".clk", 1).trace(top + ".reset", 1);
        // signals with a translate filter (every Fsm's state) show their value names, and are shown even if not traced
        Map<Bits, String> filters = new java.util.LinkedHashMap<>();
        for (Module m : sim.circuit().modules()) {
            m.waveFilters().forEach(f -> filters.put(f.signal(), f.gtkwaveFilter()));
        }
        for (Bits b : traces) {
            String filter = filters.remove(b);
            if (filter != null) {
                save.trace(b.path(), b.width(), filter);
            } else {
                save.trace(b.path(), b.width());
            }
        }
        filters.forEach((b, filter) -> save.trace(b.path(), b.width(), filter));
        long p = vcdPeriod;
        if (failureCycle >= 0) {
            // The marker goes where the failing cycle's inputs and outputs are all in the dump, its falling
            // edge. GTKWave opens a window that reaches the last timestamp of the dump at 0 instead, so the
            // view stops one tick before the end of the failing cycle, where the dump ends.
            long c = failureCycle;
            return save.window(Math.max(0, c - FAILURE_VIEW_CYCLES) * p, (c + 1) * p - 1).marker(c * p + p / 2);
        }
        // a shorter run is shown whole: its dump ends at the current cycle's falling edge
        long from = Math.max(0, resetEnd);
        return save.window(from * p, Math.min((from + VIEW_CYCLES) * p, cycle() * p + p / 2 - 1));
    }
}
