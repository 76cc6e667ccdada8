package org.flitkit.hdl.sim;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Check;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdWriter;

/**
 * A compiled, cycle-based, two-state simulation of a circuit: poke inputs, step the clock, peek any
 * named signal, dump VCD. One clock; {@link #step()} settles combinational logic, then updates every
 * register and memory at once, as Verilog nonblocking assignments do. At each edge out of reset the
 * design's {@code Hdl.check}s are checked (a failure throws {@link SimAssertionError}) and its
 * {@code Hdl.printf}s print to the {@link #setPrintSink print sink}. Dead logic (see
 * {@link Circuit#warnings()}) is simulated and dumped like the rest.
 *
 * <p>Over 600 lines because it is the whole public surface of a simulation (poke, peek, step, reset, sleep,
 * profile, waves), each method short; the work is in {@link SimDesign}, {@link VariantPolicy}, {@link VcdTap}
 * and the generated code.
 */
public final class Simulator {
    private final SimPlan plan;
    private final SimModel model;
    private final SimDesign design;
    private boolean dirty = true;
    private boolean reset;
    private long cycle;
    private VcdTap vcd;
    private Consumer<String> printSink = text -> System.out.print(text);
    /** the cycle whose ending edge last fired a check or print (set by the edge, so nothing is reset per cycle) */
    private long firedAt = Long.MIN_VALUE;

    private Simulator(SimDesign design) {
        this(design, true);
    }

    /** {@code initialize}: constants and memory contents in place (false: the caller copies a whole state in). */
    private Simulator(SimDesign design, boolean initialize) {
        this.design = design;
        this.plan = design.compiled.plan();
        this.policy = new VariantPolicy(design.compiled.compiled().verdict());
        try {
            this.model = design.compiled.type().getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        if (!initialize) {
            return;
        }
        for (SimPlan.Constant c : plan.wideConstants()) {
            System.arraycopy(c.limbs(), 0, model.w, c.slot(), c.limbs().length);
        }
        for (SimPlan.Constant c : plan.narrowConstants()) {
            model.v[c.slot()] = c.limbs()[0];
        }
        model.m.share(design.memoryImages());
        bindEvents();
    }

    private void bindEvents() {
        if (!design.circuit.netlist().checks().isEmpty()) {
            model.events = this::fire;
        }
    }

    /**
     * Generates, compiles (or reuses from the cache) and instantiates the simulator for a circuit; the
     * circuit's warnings go to standard error if nobody reported them yet ({@link Circuit#reportWarnings()}).
     */
    public static Simulator of(Circuit circuit) {
        return of(circuit, eagerVariants());
    }

    /** With {@code compileVariantsNow}, as if {@link #compileVariants()} were called right away. */
    static Simulator of(Circuit circuit, boolean compileVariantsNow) {
        circuit.reportWarnings();
        Simulator s = new Simulator(new SimDesign(circuit, SimCompiler.compile(circuit.netlist())));
        if (compileVariantsNow) {
            s.compileVariants();
        }
        return s;
    }

    /**
     * The system property that chooses when the fast and plain variants are compiled: {@code background}
     * (the default; see {@link #compileVariants()}) or {@code eager}, before {@link #of} returns. The
     * test suites run eager, so that every {@code step(n)} in them runs the variants.
     */
    public static final String VARIANTS_PROPERTY = "flitkit.sim.variants";

    private static boolean eagerVariants() {
        String v = System.getProperty(VARIANTS_PROPERTY, "background");
        return switch (v) {
            case "background" -> false;
            case "eager" -> true;
            default -> throw new IllegalArgumentException(
                    "system property " + VARIANTS_PROPERTY + " must be 'background' or 'eager', not '" + v + "'");
        };
    }

    /** Elaborates and compiles in one go. */
    public static Simulator of(Supplier<? extends Module> top) {
        return of(Circuit.elaborate(top));
    }

    /**
     * A new instance of the same compiled design, in its initial state (before reset): no elaboration,
     * code generation or compilation, only a state block. A system of many identical chips makes one
     * simulator per chip this way.
     */
    public Simulator newInstance() {
        return new Simulator(design);
    }

    /**
     * A new instance of the same compiled design in this instance's current state (cycle, reset,
     * registers, memories, inputs, activity flags): what {@link #newInstance()} and the same stimulus would
     * reach, at the cost of copying the state block (memories are shared until either side writes them).
     * A system of identical chips boots one and forks the rest. Not while dumping waves.
     */
    public Simulator fork() {
        if (vcd != null) {
            throw new IllegalStateException("cannot fork a simulator while it dumps waves (stopVcd() first)");
        }
        Simulator s = new Simulator(design, false);
        s.bindEvents();
        SimModel to = s.model;
        System.arraycopy(model.v, 0, to.v, 0, model.v.length);
        System.arraycopy(model.w, 0, to.w, 0, model.w.length);
        System.arraycopy(model.nx, 0, to.nx, 0, model.nx.length);
        System.arraycopy(model.nxw, 0, to.nxw, 0, model.nxw.length);
        System.arraycopy(model.act, 0, to.act, 0, model.act.length);
        to.m.share(model.m);
        to.reset = model.reset;
        s.reset = reset;
        s.cycle = cycle;
        s.dirty = dirty;
        s.firedAt = firedAt;
        s.quietSinceEdge = quietSinceEdge;
        s.plain = plain;
        s.fastVariant = fastVariant;
        s.plainVariant = plainVariant;
        s.policy = policy.fork();
        s.printSink = printSink;
        return s;
    }

    /**
     * Bytes of state this instance holds alone: its value, next-state and activity arrays, and the
     * memories it has written (a memory is stored at its word width and copied on its first write).
     */
    public long stateBytes() {
        long longs = model.v.length + model.w.length + model.nx.length + model.nxw.length + model.act.length;
        return 8 * longs + model.m.arrayBytes(true);
    }

    /**
     * Bytes of memory this instance reads but shares with other instances of its design (initial images,
     * or arrays inherited by {@link #fork()}) because neither side has written them since.
     */
    public long sharedStateBytes() {
        return model.m.arrayBytes(false);
    }

    /** The memories' arrays and copy count, for tests of the sharing. */
    Memories memories() {
        return model.m;
    }

    public Circuit circuit() {
        return design.circuit;
    }

    /** What compiling the design cost; the variants count once both are compiled ({@link #compileVariants()}). */
    public CompileStats stats() {
        return design.compiled.statsNow();
    }

    /** The generated Java source (for debugging the simulator itself). */
    public String generatedSource() {
        return design.compiled.source();
    }

    /** Every peekable hierarchical name, sorted. */
    public List<String> signalNames() {
        return List.copyOf(new TreeSet<>(design.byPath.keySet()));
    }

    public Bits signal(String path) {
        Bits b = design.byPath.get(path);
        if (b == null) {
            List<String> close = new ArrayList<>();
            String leaf = path.substring(path.lastIndexOf('.') + 1);
            for (String p : design.byPath.keySet()) {
                if (p.endsWith("." + leaf)) {
                    close.add(p);
                }
            }
            Collections.sort(close);
            throw new IllegalArgumentException("no signal '" + path + "'" + (close.isEmpty() ? "" : "; did you mean " + close + "?"));
        }
        return b;
    }

    // ------------------------------------------------------------------ poke / peek

    public void poke(Bits input, long value) {
        int slot = inputSlot(input);
        if (input.width() < 64) {
            long lim = 1L << input.width();
            boolean fits = input.isSigned() ? value >= -(lim >> 1) && value < (lim >> 1) : value >= 0 && value < lim;
            if (!fits) {
                throw new IllegalArgumentException("value " + value + " does not fit " + input.width() + "-bit "
                        + (input.isSigned() ? "signed " : "") + "input " + input.path());
            }
        }
        if (SourceText.wide(input)) {
            Wide.fromLong(model.w, slot, input.width(), value, 64, input.isSigned());
            changed(input);
        } else {
            storeNarrow(input, slot, value & Wide.maskOf(input.width()));
        }
    }

    /** A narrow input's new (masked) value; only a change wakes the logic reading it. */
    private void storeNarrow(Bits input, int slot, long v) {
        if (model.v[slot] != v) {
            model.v[slot] = v;
            changed(input);
        }
    }

    /** An input took a new value: the logic reading it runs again. */
    private void changed(Bits input) {
        model.wake(design.readers.get(input));
        dirty = true;
    }

    public void poke(Bits input, BigInteger value) {
        int slot = inputSlot(input);
        BigInteger lim = BigInteger.ONE.shiftLeft(input.width());
        BigInteger min = input.isSigned() ? lim.shiftRight(1).negate() : BigInteger.ZERO;
        BigInteger max = input.isSigned() ? lim.shiftRight(1) : lim;
        if (value.compareTo(min) < 0 || value.compareTo(max) >= 0) {
            throw new IllegalArgumentException("value " + value + " does not fit " + input.width() + "-bit input " + input.path());
        }
        if (SourceText.wide(input)) {
            Wide.fromBigInteger(model.w, slot, input.width(), value);
            changed(input);
        } else {
            storeNarrow(input, slot, value.longValue() & Wide.maskOf(input.width()));
        }
    }

    /**
     * Pokes an input of any width from 64-bit limbs, least significant first (as {@link #peekInto}
     * gives them): the allocation-free way to move wide flits between simulators.
     */
    public void poke(Bits input, long[] limbs) {
        int slot = inputSlot(input);
        int n = Wide.limbs(input.width());
        if (limbs.length < n) {
            throw new IllegalArgumentException(input.path() + " is " + input.width() + " bits: needs " + n + " limbs, got " + limbs.length);
        }
        long top = limbs[n - 1] & ~Wide.maskOf(input.width() - 64 * (n - 1));
        for (int i = n; i < limbs.length; i++) {
            top |= limbs[i];
        }
        if (top != 0) {
            throw new IllegalArgumentException("value does not fit " + input.width() + "-bit input " + input.path());
        }
        if (!SourceText.wide(input)) {
            storeNarrow(input, slot, limbs[0]);
            return;
        }
        if (!java.util.Arrays.equals(model.w, slot, slot + n, limbs, 0, n)) {
            System.arraycopy(limbs, 0, model.w, slot, n);
            changed(input);
        }
    }

    /**
     * Sets a narrow register's current value, as cocotb's deposit or a Verilator public signal write does: the logic
     * sees it from this cycle on and the register follows its own next-state logic from the next edge. For giving
     * forks of one booted design their own configuration (a chip ID each). Everything is evaluated again.
     */
    public void deposit(Bits register, long value) {
        if (register.kind() != org.flitkit.hdl.Kind.REG || SourceText.wide(register)) {
            throw new IllegalArgumentException(register.path() + " is not a narrow register (" + register.kind() + ", " + register.width()
                    + " bits); only those take a deposit");
        }
        if (register.width() < 64 && (value < 0 || value >= 1L << register.width())) {
            throw new IllegalArgumentException("value " + value + " does not fit " + register.width() + "-bit register " + register.path());
        }
        model.v[slotOf(register)] = value;
        model.wakeAll();
        dirty = true;
    }

    public void poke(Bits input, boolean value) {
        poke(input, value ? 1 : 0);
    }

    public void poke(String path, long value) {
        poke(signal(path), value);
    }

    private int inputSlot(Bits b) {
        Integer slot = design.inputs.get(b);
        if (slot == null) {
            throw new IllegalArgumentException(b.path() + " is not an input of the top module; only top-level inputs can be poked"
                    + " (inputs: " + design.circuit.netlist().inputs().stream().map(Bits::path).toList() + ")");
        }
        return slot;
    }

    private void settle() {
        if (dirty) {
            // an evaluation clears the flags it ran: whether it started quiet is known only now (for quiet())
            quietSinceEdge &= restingNow();
            model.evalComb();
            dirty = false;
        }
    }

    /** Every evaluation since the last clock edge (a peek evaluates before the edge does) started at rest. */
    private boolean quietSinceEdge = true;

    private void edgePassed() {
        quietSinceEdge = true;
    }

    /** The value of any named signal or expression; SInt values come back sign-extended. Up to 64 bits. */
    public long peek(Bits s) {
        if (SourceText.wide(s)) {
            throw new IllegalArgumentException(s.path() + " is " + s.width() + " bits wide; use peekBig()");
        }
        settle();
        long raw = model.v[slotOf(s)];
        return s.isSigned() && s.width() < 64 ? (raw << (64 - s.width())) >> (64 - s.width()) : raw;
    }

    public long peek(String path) {
        return peek(signal(path));
    }

    public boolean peekBool(Bits s) {
        return peek(s) != 0;
    }

    /** Any width; SInt values come back negative when their sign bit is set. */
    public BigInteger peekBig(Bits s) {
        settle();
        return valueOf(s);
    }

    /** The value held for {@code s} now, without settling (also read at the clock edge by prints). */
    private BigInteger valueOf(Bits s) {
        if (!SourceText.wide(s)) {
            long raw = model.v[slotOf(s)];
            BigInteger u = new BigInteger(Long.toUnsignedString(raw));
            return s.isSigned() && u.testBit(s.width() - 1) ? u.subtract(BigInteger.ONE.shiftLeft(s.width())) : u;
        }
        return Wide.toBigInteger(model.w, slotOf(s), s.width(), s.isSigned());
    }

    /** The raw bits of {@code s} (any width) into {@code dst} as 64-bit limbs, least significant first; returns {@code dst}. */
    public long[] peekInto(Bits s, long[] dst) {
        settle();
        int n = Wide.limbs(s.width());
        if (SourceText.wide(s)) {
            System.arraycopy(model.w, slotOf(s), dst, 0, n);
        } else {
            dst[0] = model.v[slotOf(s)];
        }
        return dst;
    }

    public BigInteger peekBig(String path) {
        return peekBig(signal(path));
    }

    private int slotOf(Bits s) {
        Integer cached = design.slots.get(s);
        if (cached != null) {
            return cached;
        }
        try {
            int slot = plan.slots().slot(s);
            design.slots.put(s, slot);
            return slot;
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(s + " is not observable (only named signals are kept by the simulator)");
        }
    }

    // ------------------------------------------------------------------ time

    /** One clock cycle. */
    public void step() {
        settle();
        if (vcd != null) {
            vcd.sample(cycle, false, reset, model.v, model.w);
        }
        model.commit();
        cycle++;
        dirty = true;
        edgePassed();
        if (vcd != null) {
            settle();
            vcd.sample(cycle, true, reset, model.v, model.w);
        }
    }

    public void step(long n) {
        if (vcd == null) {
            final SimModel mdl = model;
            if (dirty) {
                mdl.evalComb();
            }
            // from here on the settled values are stale; cycle is exact at every edge, for the checks
            dirty = true;
            if (n > 1) {
                takeVariants();
                if (mdl.act[0] != 0 && n > VariantPolicy.WINDOW_MASK) {
                    // a run of at least a window: open with the variant the design's last comparison chose
                    usePlain(policy.opening(plainVariant != null, plain));
                }
            }
            windowStart = System.nanoTime();
            windowSkips = mdl.act[1];
            for (long i = 1; i < n; i++) {
                // one call site per variant, so that each stays monomorphic for the JIT
                if (plain) {
                    plainVariant.commit(mdl);
                    cycle++;
                    plainVariant.eval(mdl);
                } else {
                    mdl.commit();
                    cycle++;
                    if (fastVariant != null) {
                        fastVariant.eval(mdl);
                    } else {
                        mdl.evalComb();
                    }
                }
                if ((i & VariantPolicy.WINDOW_MASK) == 0) {
                    adapt();
                } else if (policy.probeStartsAt(i)) {
                    // the last cycles of a plain window run with flags, to see whether the design went idle
                    usePlain(false);
                    probeSkips = mdl.act[1];
                }
            }
            if (plain) {
                mdl.wakeAll();
            }
            if (n > 0) {
                mdl.commit();
                cycle++;
            }
            edgePassed();
        } else {
            for (long i = 0; i < n; i++) {
                step();
            }
        }
    }

    private boolean plain;
    /** what {@link #step(long)} runs for unobserved cycles; null until compiled, and evalComb runs instead */
    private SimModel.Variant fastVariant;
    /** null until compiled, and the plain variant is not chosen */
    private SimModel.Variant plainVariant;
    /** chooses the variant of each window of {@link #step(long)} */
    private VariantPolicy policy;
    private long windowStart;
    private long windowSkips;
    private long probeSkips;

    /** The end of a window of {@link #step(long)}: its time and skip counts go to the {@link VariantPolicy}. */
    private void adapt() {
        takeVariants();
        long now = System.nanoTime();
        long dt = now - windowStart;
        windowStart = now;
        long skips = model.act[1] - windowSkips;
        windowSkips = model.act[1];
        if (model.act[0] == 0) {
            return;
        }
        usePlain(policy.windowEnded(dt, skips, model.act[1] - probeSkips, model.chunks, plainVariant != null, plain));
    }

    /** For tests: evaluation variant of {@link #step(long)} pinned to plain ({@code true}) or activity-skipping ({@code false}). */
    void pinVariant(boolean plainVariant) {
        compileVariants();
        setActivitySkipping(true);
        usePlain(plainVariant);
        policy.pin();
    }

    /**
     * Compiles this design's fast and plain variants now and waits for them. Otherwise {@link #step(long)}
     * has them compiled in the background when it first runs and evaluates with the storing variant
     * until they are ready: the same results, slower. For benchmarks (to time the steady state) and for
     * {@link #stats()} of all generated code.
     */
    public void compileVariants() {
        fastVariant = design.compiled.compiled().fast().await().variant();
        plainVariant = design.compiled.compiled().plain().await().variant();
    }

    /** Whether {@link #step(long)} has both compiled variants (for tests). */
    boolean runsCompiledVariants() {
        return fastVariant != null && plainVariant != null;
    }

    /** Starts the variants' compilation if it has not started, and takes those that are ready. */
    private void takeVariants() {
        if (fastVariant == null) {
            fastVariant = design.compiled.compiled().fast().ifReady();
        }
        if (plainVariant == null) {
            plainVariant = design.compiled.compiled().plain().ifReady();
        }
    }

    private void usePlain(boolean p) {
        if (plain && !p) {
            model.wakeAll();
        }
        plain = p;
    }

    /** Whether logic whose inputs did not change is skipped (the default). */
    public boolean activitySkipping() {
        return model.act[0] != 0;
    }

    /**
     * Skips logic whose inputs did not change ({@code true}, the default) or evaluates everything on
     * every cycle ({@code false}). Results never depend on it; only speed does.
     */
    public void setActivitySkipping(boolean on) {
        model.act[0] = on ? 1 : 0;
        plain = false;
        policy.reset();
        model.wakeAll();
        dirty = true;
    }

    /** Chunk evaluations skipped because nothing they read had changed, since the start (for tests and benchmarks). */
    public long skippedChunks() {
        return model.act[1];
    }

    // ------------------------------------------------------------------ profile

    /** One chunk of the generated simulator: the module instances it evaluates, its source size, how often it ran. */
    public record ChunkProfile(int chunk, String modules, int sourceChars, double runsPerCycle) {
    }

    /**
     * Steps {@code cycles} cycles one at a time and counts, per chunk, the cycles in which it ran (its
     * flag was up at the start of the cycle, or was raised during it by a value computed before it): where
     * the time of an activity-skipping run goes. Hottest first.
     */
    public List<ChunkProfile> profileChunks(long cycles) {
        int n = model.chunks;
        long[] runs = new long[n];
        int words = model.flagWords;
        int ran = SimModel.FLAGS + 3 * words;
        java.util.Arrays.fill(model.act, ran, ran + words, 0L);
        for (long c = 0; c < cycles; c++) {
            step();
            for (int w = 0; w < words; w++) {
                long f = model.act[ran + w];
                model.act[ran + w] = 0L;
                while (f != 0) {
                    runs[64 * w + Long.numberOfTrailingZeros(f)]++;
                    f &= f - 1;
                }
            }
        }
        List<ChunkProfile> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ChunkProfile(i, plan.chunkModules().get(i), plan.chunkChars().get(i), runs[i] / (double) Math.max(1, cycles)));
        }
        out.sort((a, b) -> Double.compare(b.runsPerCycle(), a.runsPerCycle()) != 0 ? Double.compare(b.runsPerCycle(), a.runsPerCycle())
                : Integer.compare(a.chunk(), b.chunk()));
        return out;
    }

    // ------------------------------------------------------------------ sleeping

    /**
     * Whether the design is at rest: at the last clock edge nothing changed but free-running counters
     * (registers that add a constant every cycle), no select let a counter reach other logic, no check or
     * print fired, and no input changed since. From here each cycle would only step the counters, so
     * {@link #skipQuiet} can advance time without evaluating anything. Never true while dumping waves.
     */
    public boolean quiet() {
        if (!design.sleepable || reset || vcd != null || firedAt == cycle - 1 || plain || model.act[0] == 0) {
            return false;
        }
        return quietSinceEdge && (!dirty || restingNow());
    }

    /** Evaluating now would run only the counters' chunks and change nothing but their next values. */
    private boolean restingNow() {
        for (int i = 0; i < design.quietMask.length; i++) {
            if ((model.act[SimModel.FLAGS + i] & ~design.quietMask[i]) != 0) {
                return false;
            }
        }
        // a comparison of a counter with a constant that this cycle would change wakes its readers
        for (long[] m : design.counterMatches) {
            if (((model.v[(int) m[1]] == m[2] ? 1L : 0L) ^ m[3]) != model.v[(int) m[0]]) {
                return false;
            }
        }
        return true;
    }

    /**
     * How many cycles a {@link #quiet()} design may skip from now: up to the first cycle where a comparison of a
     * counter with a constant (a timer's tick) changes and wakes its readers; {@link Long#MAX_VALUE} when none
     * ever does. 0 exactly when the design is not quiet (a quiet design may always skip at least one cycle).
     */
    public long quietFor() {
        if (!quiet()) {
            return 0;
        }
        long most = Long.MAX_VALUE;
        for (long[] m : design.counterMatches) {
            most = Math.min(most, cyclesToChange(model.v[(int) m[1]], m[2], m[4], m[5]));
        }
        return most;
    }

    /**
     * Steps after which a counter now at {@code c}, adding {@code step} per cycle modulo {@code mask + 1}, first
     * differs from {@code k} if it equals it, or first equals it if not; {@link Long#MAX_VALUE} for never.
     */
    static long cyclesToChange(long c, long k, long step, long mask) {
        step &= mask;
        if (step == 0) {
            return Long.MAX_VALUE;
        }
        if (c == k) {
            return 1;
        }
        // the least i >= 1 with i * step = k - c modulo 2^bits: step = u * 2^t with u odd
        long d = (k - c) & mask;
        int t = Long.numberOfTrailingZeros(step);
        if ((d & ((1L << t) - 1)) != 0) {
            return Long.MAX_VALUE;
        }
        long u = step >>> t;
        long inverse = u;
        for (int i = 0; i < 6; i++) {
            inverse *= 2 - u * inverse; // Newton: doubles the correct low bits, 64 after six rounds
        }
        int bits = Long.bitCount(mask) - t;
        long i = (d >>> t) * inverse;
        if (bits < 64) {
            i &= (1L << bits) - 1;
        }
        return i < 0 ? Long.MAX_VALUE : i;
    }

    /**
     * Advances a {@link #quiet()} design by {@code n} cycles at the cost of one: the counters move by
     * {@code n} steps, nothing else changes. Exactly what {@code n} calls of {@link #step()} would do; {@code n}
     * at most {@link #quietFor()}.
     */
    public void skipQuiet(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot skip " + n + " cycles");
        }
        long most = quietFor();
        if (most == 0) {
            throw new IllegalStateException("skipQuiet needs a quiet design (see quiet()); at cycle " + cycle + " it is not");
        }
        if (n > most) {
            throw new IllegalStateException("skipQuiet(" + n + ") at cycle " + cycle + " would skip a counter's comparison that wakes the design at cycle "
                    + (cycle + most) + " (see quietFor())");
        }
        for (long[] c : design.counterSteps) {
            int slot = (int) c[0];
            model.v[slot] = (model.v[slot] + n * c[2]) & c[3];
        }
        // the counters' chunks compute their next values and comparisons from the new values (a peek since the
        // last edge may have run them already, on the old ones)
        for (int i = 0; i < design.quietMask.length; i++) {
            model.act[SimModel.FLAGS + i] |= design.quietMask[i];
        }
        edgePassed();
        cycle += n;
        dirty = true;
    }

    /** Holds the synchronous reset high for {@code cycles} clock edges. */
    public void reset(int cycles) {
        setReset(true);
        try {
            step(cycles);
        } finally {
            setReset(false);
        }
    }

    /** The reset input takes part in computing the next state, so changing it unsettles the design. */
    private void setReset(boolean on) {
        reset = on;
        model.reset = on;
        model.wakeAll();
        dirty = true;
    }

    public void reset() {
        reset(1);
    }

    public long cycle() {
        return cycle;
    }

    /**
     * Steps until {@code done} holds (checked before each step) and returns the cycles it took; after
     * {@code maxCycles} cycles without it, fails with a message instead of hanging.
     */
    public long runUntil(BooleanSupplier done, long maxCycles) {
        long start = cycle;
        while (!done.getAsBoolean()) {
            if (cycle - start >= maxCycles) {
                throw new SimTimeoutException("condition not met within " + maxCycles + " cycles (started at cycle " + start
                        + ", now at cycle " + cycle + ")", cycle);
            }
            step();
        }
        return cycle - start;
    }

    // ------------------------------------------------------------------ assertions and prints

    /** Where {@link org.flitkit.hdl.Hdl#printf} output goes (default: {@code System.out}, no newline added). */
    public void setPrintSink(Consumer<String> sink) {
        printSink = java.util.Objects.requireNonNull(sink, "sink");
    }

    /** Check {@code id} of the netlist fired at the edge ending the current cycle. */
    private void fire(int id) {
        firedAt = cycle;
        Check c = design.circuit.netlist().checks().get(id);
        List<BigInteger> values = new ArrayList<>();
        for (Bits a : c.format().args()) {
            values.add(valueOf(a));
        }
        String text = c.format().render(values);
        if (c.isAssertion()) {
            throw new SimAssertionError(cycle, c.owner().path(), c.loc(), text);
        }
        printSink.accept(text);
    }

    // ------------------------------------------------------------------ waves

    /**
     * Starts dumping every named signal to a VCD file: one scope per instance, the clock with both
     * edges. {@code periodPs} is the clock period in picoseconds.
     */
    public void startVcd(Path file, long periodPs) {
        startVcd(new VcdWriter(file, Timescale.forPeriod(periodPs, "ps")), periodPs);
    }

    /**
     * Like {@link #startVcd(Path, long)} into a writer the caller has set up (size limit, date); its
     * timescale must divide half of {@code periodPs}, as {@link Timescale#forPeriod} does.
     */
    public void startVcd(VcdWriter out, long periodPs) {
        stopVcd();
        vcd = new VcdTap(out, periodPs, design.circuit, plan.slots());
        settle();
        vcd.sample(cycle, true, reset, model.v, model.w);
    }

    /** The clock period {@link #startVcd(Path)} dumps with: 10 ns, a 100 MHz clock. */
    public static final long DEFAULT_VCD_PERIOD_PS = 10_000;

    public void startVcd(Path file) {
        startVcd(file, DEFAULT_VCD_PERIOD_PS);
    }

    /** Ends the dump; the current (settled) values go in as the last sample, so a failing cycle's inputs are visible. */
    public void stopVcd() {
        if (vcd != null) {
            settle();
            vcd.sample(cycle, false, reset, model.v, model.w);
            vcd.close();
            vcd = null;
        }
    }
}
