package org.flitkit.app.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.ProgressListener;

/**
 * A command's progress on the terminal: one {@link StatusLine} for the whole command, redrawn by
 * me.tongfei:progressbar's update thread every {@link #REDRAW} and never twice within {@link #MIN_GAP}, never
 * from the simulating thread, so a run costs the same at a terminal as piped; first drawn after {@link #DELAY},
 * erased at the end. It counts the cycles of every run and wait since the command began and names what goes on
 * now: the set-up phase, else the run or what a wait waits for. A phase longer than the delay leaves a
 * line, once per name, e.g. {@code mgmt nrc: compiling 2 NRCs of fabric pair and the server's NIC: 31.2s}.
 * README, "The ./hdl command".
 */
final class ProgressBars implements ProgressListener, AutoCloseable {
    static final Duration DELAY = Duration.ofSeconds(2);
    static final Duration REDRAW = Duration.ofMillis(250);
    /** Redraws closer than this are dropped: the bound on how often the line is drawn. */
    static final Duration MIN_GAP = Duration.ofMillis(200);

    /** What one simulating thread is doing: its phase and what it last reported. */
    private static final class Track {
        String what;
        String phase;
        long phaseStart;
        long phaseCycles;
    }

    private final String label;
    private final StatusLine line;
    private final ProgressBar bar;
    private final ThreadLocal<Track> tracks = ThreadLocal.withInitial(Track::new);
    private final PrintStream stdout;
    private final PrintStream stderr;
    private final long delayNanos;
    private volatile String shown;
    /** Cycles counted so far, over all simulating threads; read by the redraws. */
    private final CycleTally cycles = new CycleTally();
    /** Phases that left their line: one each, however many testbenches a scenario builds. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /** The status of a command labelled {@code label} (e.g. the scenario) on stderr, which it shares with stdout. */
    ProgressBars(String label) {
        this(label, System.err, DELAY);
        System.setOut(line.printStream(stdout));
        System.setErr(line.printStream(stderr));
    }

    /** The status on {@code terminal}, first drawn after {@code delay}; System.out and System.err stay as they are. */
    ProgressBars(String label, PrintStream terminal, Duration delay) {
        this.label = label;
        this.delayNanos = delay.toNanos();
        this.stdout = System.out;
        this.stderr = System.err;
        this.line = new StatusLine(terminal, delay.toNanos(), MIN_GAP.toNanos());
        this.bar = new ProgressBarBuilder()
                .setTaskName(label)
                .setInitialMax(-1)
                .setRenderer(new StatusRenderer(label, cycles::total))
                .setConsumer(line)
                .setUpdateIntervalMillis((int) REDRAW.toMillis())
                .continuousUpdate()
                .clearDisplayOnFinish()
                .build();
    }

    @Override
    public void progress(String what, long cycle, long start, long end) {
        Track t = tracks.get();
        t.phaseCycles += cycles.count(cycle, start);
        if (t.phase == null && what != t.what) {
            t.what = what;
            show(what.equals("run") ? "run" : "waiting for " + what);
        }
    }

    @Override
    public void phase(String name) {
        Track t = tracks.get();
        endPhase(t);
        t.phase = name;
        t.phaseStart = System.nanoTime();
        t.phaseCycles = 0;
        t.what = null;
        if (name != null) {
            show(name);
        }
    }

    /** {@code out}, writing above the status line (for output printed while the command runs). */
    PrintWriter guard(PrintWriter out) {
        return new PrintWriter(line.guard((Writer) out), true);
    }

    /** Cycles counted so far. */
    long cycles() {
        return cycles.total();
    }

    /** Times the status line was drawn so far. */
    long redraws() {
        return line.redraws();
    }

    /** Erases the status line and gives System.out and System.err back. */
    @Override
    public void close() {
        bar.close();
        System.setOut(stdout);
        System.setErr(stderr);
    }

    /** The line for the thread's phase that ends now, if it took long enough to be worth one. */
    private void endPhase(Track t) {
        if (t.phase == null) {
            return;
        }
        long nanos = System.nanoTime() - t.phaseStart;
        if (nanos >= delayNanos && reported.add(t.phase)) {
            String cycles = t.phaseCycles > 0 ? String.format(Locale.ROOT, "%,d cycles in ", t.phaseCycles) : "";
            line.println(String.format(Locale.ROOT, "%s: %s: %s%.1fs", label, t.phase, cycles, nanos / 1e9));
        }
    }

    private void show(String doing) {
        if (!doing.equals(shown)) {
            shown = doing;
            bar.setExtraMessage(doing);
        }
    }
}
