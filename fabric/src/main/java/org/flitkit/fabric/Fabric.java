package org.flitkit.fabric;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.SimTimeoutException;
import org.flitkit.hdl.sim.Simulator;

/**
 * A system of many top-level chips (each its own {@link Simulator}, typically {@link Simulator#newInstance()}
 * or {@link Simulator#fork()} of one compiled chip) joined by {@link CableChannel}s, with host models
 * ({@link Host}) feeding {@link Source}s and draining {@link Sink}s. Every chip steps on one global clock;
 * a cycle is: channels drive their pins, hosts tick, the chips settle and step, handshakes complete.
 *
 * <p>Results are exactly those of stepping every chip every cycle ({@link #exhaustive}), but a chip that
 * is {@link Simulator#quiet()} and whose inputs do not change is not evaluated, and when every chip
 * sleeps, time jumps to the next link arrival, credit return, timer tick of a chip or host event. Links have a latency of at
 * least one cycle, so the chips of one cycle are independent: with {@link #threads} above one they are
 * evaluated in parallel, while channels and hosts run in a fixed order, so traces do not depend on the
 * thread count. A sleeping chip's channel outputs are the ones sampled when it was last evaluated, so
 * a stream's valid, ready and bits must not come straight from a free-running counter (the only state
 * {@link Simulator#skipQuiet} moves); hosts peeking any signal see it caught up.
 */
public final class Fabric implements AutoCloseable {
    /** Sees every flit crossing a chip boundary, in a fixed order; {@code flit} is only valid during the call. */
    @FunctionalInterface
    public interface Observer {
        /** {@code intoChip}: the flit entered a chip (false: it left one). */
        void transfer(long cycle, Channel channel, boolean intoChip, long[] flit);
    }

    private final List<Chip> chips = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    private final List<Host> hosts = new ArrayList<>();
    final BitSet awake = new BitSet();
    /** sleeping chips by alarm: {cycle, chip index}; an entry whose chip woke or set another alarm since is skipped */
    private final java.util.PriorityQueue<long[]> alarms = new java.util.PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    /** channels with a wake cycle */
    private final BitSet pending = new BitSet();
    private final BitSet active = new BitSet();
    private final List<Channel> lateDrive = new ArrayList<>();
    private boolean ticking;
    private long now;
    /** the cycle whose inputs pokes set now: this cycle until the chips step, then the next one */
    long inputCycle;
    private boolean started;
    private boolean exhaustive;
    private int threads = 1;
    private int parallelMin = 16;
    private ExecutorService pool;
    private Observer observer;
    private int[] evalList = new int[0];
    private long processedCycles;

    /** Every chip evaluated every cycle, no jumps (the reference the sleeping mode must equal). */
    public Fabric exhaustive(boolean on) {
        checkNotStarted("change the mode");
        exhaustive = on;
        return this;
    }

    /**
     * Evaluates the awake chips of a cycle on {@code n} threads (the caller's and n - 1 workers) when at
     * least {@code minChips} are awake; below that one thread is faster than the hand-off.
     */
    public Fabric threads(int n, int minChips) {
        checkNotStarted("change the thread count");
        if (n < 1 || minChips < 1) {
            throw new IllegalArgumentException("threads and minChips must be at least 1, got " + n + " and " + minChips);
        }
        threads = n;
        parallelMin = minChips;
        return this;
    }

    public Fabric observe(Observer o) {
        observer = o;
        return this;
    }

    // ------------------------------------------------------------------ building

    /** Adds a chip; every chip must be at the same cycle (reset them, or fork them from one reset chip). */
    public Chip chip(String name, Simulator sim) {
        checkNotStarted("add a chip");
        if (chips.isEmpty()) {
            now = sim.cycle();
            inputCycle = now;
        } else if (sim.cycle() != now) {
            throw new IllegalArgumentException("chip " + name + " is at cycle " + sim.cycle() + " but the fabric's chips are at cycle " + now
                    + "; every chip steps on one clock");
        }
        Chip c = new Chip(this, chips.size(), name, sim);
        chips.add(c);
        awake.set(c.index);
        return c;
    }

    /** A cable direction from {@code from}'s ready/valid output {@code out} to {@code to}'s input {@code in}. */
    public CableChannel link(Chip from, Decoupled<?> out, Chip to, Decoupled<?> in) {
        ChipOutput o = output(from, out);
        ChipInput i = input(to, in);
        if (o.bits.width() != i.bits.width()) {
            throw new IllegalArgumentException("cannot link " + out.bits.path() + " (" + o.bits.width() + " bits) of " + from + " to " + in.bits.path()
                    + " (" + i.bits.width() + " bits) of " + to);
        }
        CableChannel l = new CableChannel(this, from + "." + out.valid.path().replaceAll("\\.valid$", "") + "->" + to + "." + in.valid.path().replaceAll("\\.valid$", ""),
                channels.size(), o, i);
        return add(l);
    }

    /**
     * A wire from {@code from}'s output {@code out} to {@code to}'s input {@code in} (equal widths): a cable direction
     * between two link layers. A wire output must be computed by the chip's logic, not be a free-running counter
     * itself (a sleeping chip's counters move without it being evaluated).
     */
    public WireChannel wire(Chip from, Bits out, Chip to, Bits in) {
        checkOwn(from);
        checkOwn(to);
        port(from, out, Kind.OUTPUT);
        claim(to, in, Kind.INPUT);
        if (out.width() != in.width()) {
            throw new IllegalArgumentException("cannot wire " + out.path() + " (" + out.width() + " bits) of " + from + " to " + in.path() + " ("
                    + in.width() + " bits) of " + to);
        }
        WireChannel w = add(new WireChannel(this, from + "." + out.path() + "->" + to + "." + in.path(), channels.size(), from, out, to, in));
        from.wireOuts.add(w);
        return w;
    }

    /** A host's queue of flits into {@code to}'s ready/valid input {@code in}. */
    public Source source(Chip to, Decoupled<?> in) {
        return add(new Source(this, "host->" + to + "." + in.valid.path().replaceAll("\\.valid$", ""), channels.size(), input(to, in)));
    }

    /** A host's end of {@code from}'s ready/valid output {@code out}. */
    public Sink sink(Chip from, Decoupled<?> out, Sink.Listener listener) {
        return add(new Sink(this, from + "." + out.valid.path().replaceAll("\\.valid$", "") + "->host", channels.size(), output(from, out), listener));
    }

    public Fabric host(Host h) {
        hosts.add(h);
        return this;
    }

    private <C extends Channel> C add(C c) {
        checkNotStarted("add a channel");
        channels.add(c);
        for (Chip chip : c.chips()) {
            chip.channels.add(c);
        }
        return c;
    }

    private ChipOutput output(Chip chip, Decoupled<?> port) {
        checkOwn(chip);
        Bits bits = leaf(port);
        port(chip, port.valid, Kind.OUTPUT);
        port(chip, bits, Kind.OUTPUT);
        claim(chip, port.ready, Kind.INPUT);
        ChipOutput o = new ChipOutput(chip, port.valid, bits, port.ready);
        chip.outputs.add(o);
        return o;
    }

    private ChipInput input(Chip chip, Decoupled<?> port) {
        checkOwn(chip);
        Bits bits = leaf(port);
        claim(chip, port.valid, Kind.INPUT);
        claim(chip, bits, Kind.INPUT);
        port(chip, port.ready, Kind.OUTPUT);
        ChipInput i = new ChipInput(chip, port.valid, bits, port.ready);
        chip.inputs.add(i);
        return i;
    }

    private static Bits leaf(Decoupled<?> port) {
        if (!(port.bits instanceof Bits b)) {
            throw new IllegalArgumentException(port.valid.path() + ": a fabric channel carries one bit vector; bundle payloads are not supported");
        }
        return b;
    }

    private void checkOwn(Chip chip) {
        if (chip.fabric != this) {
            throw new IllegalArgumentException("chip " + chip + " belongs to another fabric");
        }
    }

    private static void port(Chip chip, Bits b, Kind kind) {
        if (b.kind() != kind || b.owner() != chip.sim.circuit().top()) {
            throw new IllegalArgumentException(b.path() + " is not a top-level " + kind.name().toLowerCase() + " of chip " + chip
                    + " (" + chip.sim.circuit().top().definitionName() + ")");
        }
    }

    private static void claim(Chip chip, Bits b, Kind kind) {
        port(chip, b, kind);
        if (!chip.driven.add(b)) {
            throw new IllegalArgumentException("input " + b.path() + " of chip " + chip + " is already driven by another channel");
        }
    }

    void checkNotStarted(String what) {
        if (started) {
            throw new IllegalStateException("cannot " + what + " once the fabric has run");
        }
    }

    // ------------------------------------------------------------------ host access

    /** Pokes a top-level input of {@code chip} (not one a channel drives); an unchanged value does not wake it. */
    public void poke(Chip chip, Bits input, long value) {
        checkHostInput(chip, input);
        Long prev = chip.hostPokes.get(input);
        if (prev == null || prev != value) {
            chip.wake();
            chip.sim.poke(input, value);
            chip.hostPokes.put(input, value);
        }
    }

    /** Pokes a wide top-level input of {@code chip} as 64-bit limbs (not one a channel drives); an unchanged value does not wake it. */
    public void poke(Chip chip, Bits input, long[] limbs) {
        checkHostInput(chip, input);
        long[] prev = chip.hostWidePokes.get(input);
        if (prev == null || !java.util.Arrays.equals(prev, limbs)) {
            chip.wake();
            chip.sim.poke(input, limbs);
            chip.hostWidePokes.put(input, limbs.clone());
        }
    }

    private static void checkHostInput(Chip chip, Bits input) {
        if (chip.driven.contains(input)) {
            throw new IllegalArgumentException("input " + input.path() + " of chip " + chip + " is driven by a channel; hosts cannot poke it");
        }
    }

    /** The current value of a wide signal of {@code chip} into {@code dst} as limbs (a sleeping chip catches up and wakes first). */
    public long[] peekInto(Chip chip, Bits signal, long[] dst) {
        chip.wake();
        return chip.sim.peekInto(signal, dst);
    }

    /** The current value of any signal of {@code chip} (a sleeping chip catches up and wakes first). */
    public long peek(Chip chip, Bits signal) {
        chip.wake();
        return chip.sim.peek(signal);
    }

    /** Dumps {@code chip}'s waves from now on; such a chip never sleeps. {@link #close()} ends the dump. */
    public void startVcd(Chip chip, Path file, long periodPs) {
        chip.wake();
        chip.keepAwake = true;
        chip.sim.startVcd(file, periodPs);
    }

    /** A source or sink changed: process it at the next cycle whose inputs are set. */
    void schedule(Channel c) {
        c.wake = Math.min(c.wake, inputCycle);
        pending.set(c.index);
        if (ticking) {
            lateDrive.add(c);
        }
    }

    void observe(long cycle, Channel c, boolean intoChip, long[] flit) {
        if (observer != null) {
            observer.transfer(cycle, c, intoChip, flit);
        }
    }

    // ------------------------------------------------------------------ time

    public long now() {
        return now;
    }

    /** Runs {@code cycles} cycles. */
    public void run(long cycles) {
        long limit = now + cycles;
        while (now < limit) {
            step(limit);
        }
    }

    /**
     * Runs until {@code done} holds (checked before every processed cycle; it can only change in host
     * code) and returns the cycles it took; fails after {@code maxCycles}.
     */
    public long runUntil(BooleanSupplier done, long maxCycles) {
        long start = now;
        long limit = now + maxCycles;
        while (!done.getAsBoolean()) {
            if (now >= limit) {
                throw new SimTimeoutException("fabric: condition not met within " + maxCycles + " cycles (started at cycle " + start + ")", now);
            }
            step(limit);
        }
        return now - start;
    }

    /** Brings every sleeping chip's simulator to the current cycle (to read its state); they keep sleeping. */
    public void sync() {
        for (Chip c : chips) {
            if (!c.awake && c.sim.cycle() < now) {
                c.sim.skipQuiet(now - c.sim.cycle());
            }
        }
    }

    private void start() {
        started = true;
        for (Channel c : channels) {
            if (c instanceof CableChannel l) {
                l.start();
            }
            c.wake = now;
            pending.set(c.index);
        }
        if (threads > 1) {
            pool = Executors.newFixedThreadPool(threads - 1, r -> {
                Thread t = new Thread(r, "fabric-worker");
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** One cycle, then a jump over cycles where nothing can happen (not beyond {@code limit}). */
    private void step(long limit) {
        if (!started) {
            start();
        }
        long t = now;
        inputCycle = t;
        while (!alarms.isEmpty() && alarms.peek()[0] <= t) {
            long[] a = alarms.poll();
            Chip c = chips.get((int) a[1]);
            if (!c.awake && c.alarm == a[0]) {
                c.wake();
            }
        }
        // drive
        for (int i = exhaustive ? 0 : pending.nextSetBit(0); i >= 0 && i < channels.size(); i = exhaustive ? i + 1 : pending.nextSetBit(i + 1)) {
            Channel c = channels.get(i);
            if (exhaustive || c.wake <= t) {
                c.drive(t);
            }
        }
        ticking = true;
        for (Host h : hosts) {
            if (h.nextEvent() <= t) {
                h.tick(t);
            }
        }
        ticking = false;
        for (Channel c : lateDrive) {
            c.drive(t);
        }
        lateDrive.clear();
        // evaluate
        int n = 0;
        if (evalList.length < chips.size()) {
            evalList = new int[chips.size()];
        }
        for (int i = awake.nextSetBit(0); i >= 0; i = awake.nextSetBit(i + 1)) {
            evalList[n++] = i;
        }
        evaluate(n);
        inputCycle = t + 1;
        active.clear();
        for (int k = 0; k < n; k++) {
            Chip c = chips.get(evalList[k]);
            if (c.quietAfterStep) {
                c.awake = false;
                awake.clear(c.index);
                if (c.alarm != Host.NEVER) {
                    alarms.add(new long[] {c.alarm, c.index});
                }
            }
            for (Channel ch : c.channels) {
                active.set(ch.index);
            }
        }
        // handshakes
        for (int i = pending.nextSetBit(0); i >= 0; i = pending.nextSetBit(i + 1)) {
            if (channels.get(i).wake <= t) {
                active.set(i);
            }
        }
        for (int i = exhaustive ? 0 : active.nextSetBit(0); i >= 0 && i < channels.size(); i = exhaustive ? i + 1 : active.nextSetBit(i + 1)) {
            Channel c = channels.get(i);
            c.transfer(t);
        }
        for (int i = exhaustive ? 0 : active.nextSetBit(0); i >= 0 && i < channels.size(); i = exhaustive ? i + 1 : active.nextSetBit(i + 1)) {
            Channel c = channels.get(i);
            // a listener may have scheduled a channel for the next cycle already
            c.wake = Math.min(c.nextWake(t), c.wake > t ? c.wake : Host.NEVER);
            pending.set(i, c.wake != Host.NEVER);
        }
        processedCycles++;
        now = t + 1;
        if (!exhaustive && awake.isEmpty()) {
            long next = limit;
            for (int i = pending.nextSetBit(0); i >= 0; i = pending.nextSetBit(i + 1)) {
                next = Math.min(next, channels.get(i).wake);
            }
            for (Host h : hosts) {
                next = Math.min(next, h.nextEvent());
            }
            if (!alarms.isEmpty()) {
                next = Math.min(next, alarms.peek()[0]);
            }
            if (next > now) {
                now = next;
                inputCycle = next;
            }
        }
    }

    private void evaluate(int n) {
        boolean maySleep = !exhaustive;
        if (pool == null || n < parallelMin) {
            for (int k = 0; k < n; k++) {
                chips.get(evalList[k]).evaluate(maySleep);
            }
            return;
        }
        int slices = threads;
        List<Future<?>> futures = new ArrayList<>(slices - 1);
        for (int s = 1; s < slices; s++) {
            int lo = n * s / slices;
            int hi = n * (s + 1) / slices;
            futures.add(pool.submit(() -> {
                for (int k = lo; k < hi; k++) {
                    chips.get(evalList[k]).evaluate(maySleep);
                }
            }));
        }
        for (int k = 0; k < n / slices; k++) {
            chips.get(evalList[k]).evaluate(maySleep);
        }
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while evaluating chips", e);
            }
        }
    }

    // ------------------------------------------------------------------ figures

    public List<Chip> chips() {
        return List.copyOf(chips);
    }

    public List<Channel> channels() {
        return List.copyOf(channels);
    }

    /** Chip evaluations so far (chip-cycles actually simulated). */
    public long chipEvaluations() {
        long s = 0;
        for (Chip c : chips) {
            s += c.evaluations;
        }
        return s;
    }

    /** Cycles processed one by one (the rest were jumped over). */
    public long processedCycles() {
        return processedCycles;
    }

    /** Chips awake now. */
    public int awakeChips() {
        return awake.cardinality();
    }

    /**
     * No chip awake and nothing in flight on any channel: only a chip's alarm (a timer's tick) or a host event can
     * wake the fabric. An idle machine whose links are up reaches it once their frames stop changing.
     */
    public boolean settled() {
        return started && awake.isEmpty() && pending.isEmpty();
    }

    /**
     * Runs until {@link #settled()} and returns the cycles it took. Cycle by cycle: a settled fabric jumps to its next
     * alarm or host event, which {@link #runUntil} would count as taken.
     */
    public long runUntilSettled(long maxCycles) {
        long start = now;
        do {
            if (now - start >= maxCycles) {
                throw new SimTimeoutException("fabric: not settled within " + maxCycles + " cycles (started at cycle " + start + ")", now);
            }
            step(now + 1);
        } while (!settled());
        return now - start;
    }

    /** Ends every wave dump and stops the worker threads. */
    @Override
    public void close() {
        for (Chip c : chips) {
            if (c.keepAwake) {
                c.sim.stopVcd();
            }
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
