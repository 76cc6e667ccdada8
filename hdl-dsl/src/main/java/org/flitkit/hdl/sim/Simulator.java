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
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.waves.Scope;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdWriter;

/**
 * A compiled, cycle-based, two-state simulation of a circuit: poke inputs, step the clock, peek any
 * named signal, dump VCD. One clock; {@link #step()} settles combinational logic, then updates every
 * register and memory at once, as Verilog nonblocking assignments do. At each edge out of reset the
 * design's {@code Hdl.check}s are checked (a failure throws {@link SimAssertionError}) and its
 * {@code Hdl.printf}s print to the {@link #setPrintSink print sink}. Dead logic (see
 * {@link Circuit#warnings()}) is simulated and dumped like the rest.
 */
public final class Simulator {
    private final Circuit circuit;
    private final CodeGen gen;
    private final SimModel model;
    private final CompileStats stats;
    private final String source;
    private final Map<String, Bits> byPath = new HashMap<>();
    /** top-level inputs and their slots: poke checks and stores with one lookup */
    private final Map<Bits, Integer> inputs = new IdentityHashMap<>();
    /** slot of each signal peeked so far (resolving a wire to its driver's storage is done once) */
    private final Map<Bits, Integer> slots = new IdentityHashMap<>();
    private boolean dirty = true;
    private boolean reset;
    private long cycle;
    private Vcd vcd;
    private Consumer<String> printSink = text -> System.out.print(text);

    private Simulator(Circuit circuit, SimCompiler.Result r) {
        this.circuit = circuit;
        this.gen = r.gen();
        this.stats = r.stats();
        this.source = r.source();
        try {
            this.model = r.type().getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < gen.wideConsts.size(); i++) {
            long[] c = gen.wideConsts.get(i);
            System.arraycopy(c, 0, model.w, gen.wideConstOffsets.get(i), c.length);
        }
        for (long[] c : gen.narrowConsts) {
            model.v[(int) c[0]] = c[1];
        }
        List<Mem<?>> mems = circuit.netlist().mems();
        for (int i = 0; i < mems.size(); i++) {
            BigInteger[] init = mems.get(i).initContents();
            if (init != null) {
                int l = mems.get(i).width() > 64 ? CodeGen.limbs(mems.get(i).width()) : 1;
                for (int a = 0; a < init.length; a++) {
                    long[] limbs = CodeGen.limbsOf(init[a], mems.get(i).width());
                    System.arraycopy(limbs, 0, model.m[i], a * l, l);
                }
            }
        }
        for (Bits b : circuit.netlist().namedSignals()) {
            byPath.put(b.path(), b);
        }
        for (Bits b : circuit.netlist().inputs()) {
            inputs.put(b, gen.off(b));
        }
        if (!circuit.netlist().checks().isEmpty()) {
            model.events = this::fire;
        }
    }

    /**
     * Generates, compiles (or reuses from the cache) and instantiates the simulator for a circuit; the
     * circuit's warnings go to standard error if nobody reported them yet ({@link Circuit#reportWarnings()}).
     */
    public static Simulator of(Circuit circuit) {
        circuit.reportWarnings();
        return new Simulator(circuit, SimCompiler.compile(circuit.netlist()));
    }

    /** Elaborates and compiles in one go. */
    public static Simulator of(Supplier<? extends Module> top) {
        return of(Circuit.elaborate(top));
    }

    public Circuit circuit() {
        return circuit;
    }

    public CompileStats stats() {
        return stats;
    }

    /** The generated Java source (for debugging the simulator itself). */
    public String generatedSource() {
        return source;
    }

    /** Every peekable hierarchical name, sorted. */
    public List<String> signalNames() {
        return List.copyOf(new TreeSet<>(byPath.keySet()));
    }

    public Bits signal(String path) {
        Bits b = byPath.get(path);
        if (b == null) {
            List<String> close = new ArrayList<>();
            String leaf = path.substring(path.lastIndexOf('.') + 1);
            for (String p : byPath.keySet()) {
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
        if (CodeGen.wide(input)) {
            Wide.fromLong(model.w, slot, input.width(), value, 64, input.isSigned());
        } else {
            model.v[slot] = value & CodeGen.maskOf(input.width());
        }
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
        if (CodeGen.wide(input)) {
            Wide.fromBigInteger(model.w, slot, input.width(), value);
        } else {
            model.v[slot] = value.longValue() & CodeGen.maskOf(input.width());
        }
        dirty = true;
    }

    public void poke(Bits input, boolean value) {
        poke(input, value ? 1 : 0);
    }

    public void poke(String path, long value) {
        poke(signal(path), value);
    }

    private int inputSlot(Bits b) {
        Integer slot = inputs.get(b);
        if (slot == null) {
            throw new IllegalArgumentException(b.path() + " is not an input of the top module; only top-level inputs can be poked"
                    + " (inputs: " + circuit.netlist().inputs().stream().map(Bits::path).toList() + ")");
        }
        return slot;
    }

    private void settle() {
        if (dirty) {
            model.evalComb();
            dirty = false;
        }
    }

    /** The value of any named signal or expression; SInt values come back sign-extended. Up to 64 bits. */
    public long peek(Bits s) {
        if (CodeGen.wide(s)) {
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
        if (!CodeGen.wide(s)) {
            long raw = model.v[slotOf(s)];
            BigInteger u = new BigInteger(Long.toUnsignedString(raw));
            return s.isSigned() && u.testBit(s.width() - 1) ? u.subtract(BigInteger.ONE.shiftLeft(s.width())) : u;
        }
        return Wide.toBigInteger(model.w, slotOf(s), s.width(), s.isSigned());
    }

    public BigInteger peekBig(String path) {
        return peekBig(signal(path));
    }

    private int slotOf(Bits s) {
        Integer cached = slots.get(s);
        if (cached != null) {
            return cached;
        }
        try {
            int slot = gen.off(s);
            slots.put(s, slot);
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
            vcd.sample(cycle, false);
        }
        model.commit();
        cycle++;
        dirty = true;
        if (vcd != null) {
            settle();
            vcd.sample(cycle, true);
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
            for (long i = 1; i < n; i++) {
                mdl.commit();
                cycle++;
                mdl.evalFast();
                if ((i & ACTIVITY_WINDOW_MASK) == 0) {
                    adaptActivity(mdl);
                }
            }
            if (n > 0) {
                mdl.commit();
                cycle++;
            }
        } else {
            for (long i = 0; i < n; i++) {
                step();
            }
        }
    }

    private static final long ACTIVITY_WINDOW_MASK = 4095;
    private long activityPause;

    /**
     * Skipping idle chunks costs a comparison per input; where few chunks are idle it does not pay.
     * Every 4096 cycles: too few skips switch it off for a while, after which it is sampled again.
     */
    private void adaptActivity(SimModel mdl) {
        if (mdl.skippableChunks == 0) {
            return;
        }
        if (mdl.act[0] == 0) {
            if (--activityPause <= 0) {
                mdl.act[0] = 1;
                mdl.act[1] = 0;
            }
            return;
        }
        long skips = mdl.act[1];
        mdl.act[1] = 0;
        if (skips < (ACTIVITY_WINDOW_MASK + 1) * mdl.skippableChunks / 4) {
            mdl.act[0] = 0;
            activityPause = 256;
        }
    }

    /** Whether idle chunks are currently being skipped in {@link #step(long)}. */
    public boolean activitySkipping() {
        return model.act[0] != 0;
    }

    /**
     * Turns activity-aware evaluation off for good ({@code false}) or back to automatic ({@code true}).
     * Results never depend on it; only speed does.
     */
    public void setActivitySkipping(boolean auto) {
        model.act[0] = auto ? 1 : 0;
        activityPause = auto ? 0 : Long.MAX_VALUE;
    }

    /** Chunk evaluations skipped as idle since the last adaptation window (for tests and benchmarks). */
    public long skippedChunks() {
        return model.act[1];
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
        Check c = circuit.netlist().checks().get(id);
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
        vcd = new Vcd(out, periodPs);
        settle();
        vcd.sample(cycle, true);
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
            vcd.sample(cycle, false);
            vcd.close();
            vcd = null;
        }
    }

    /** Per-signal VCD handles and the slot each one samples. */
    private final class Vcd {
        final VcdWriter out;
        final long period;
        final int clk;
        final int[] ids;
        final Bits[] sigs;
        final int[] slots;
        final Timescale ts;

        Vcd(VcdWriter out, long periodPs) {
            this.out = out;
            this.ts = out.timescale();
            this.period = ts.ticks(periodPs, "ps");
            Map<Module, Scope> scopes = new IdentityHashMap<>();
            Module top = circuit.top();
            Scope root = out.root(top.instanceName());
            scopes.put(top, root);
            clk = root.wire("clk", 1);
            root.wire("reset", 1);
            List<Bits> named = circuit.netlist().namedSignals();
            ids = new int[named.size()];
            sigs = named.toArray(new Bits[0]);
            slots = new int[named.size()];
            for (int i = 0; i < sigs.length; i++) {
                Bits b = sigs[i];
                Scope sc = scope(b.owner(), scopes);
                ids[i] = b.kind() == Kind.REG ? sc.reg(b.name(), b.width()) : sc.wire(b.name(), b.width());
                slots[i] = gen.off(b);
            }
        }

        private Scope scope(Module m, Map<Module, Scope> scopes) {
            Scope s = scopes.get(m);
            if (s == null) {
                s = scope(m.parent(), scopes).child(m.instanceName());
                scopes.put(m, s);
            }
            return s;
        }

        /** Rising edge of cycle c at c*period; the falling edge half a period later. */
        void sample(long c, boolean rising) {
            out.time(c * period + (rising ? 0 : period / 2));
            out.value(clk, rising ? 1 : 0);
            out.value(clk + 1, reset ? 1 : 0);
            long[] v = model.v;
            long[] w = model.w;
            for (int i = 0; i < ids.length; i++) {
                if (sigs[i].width() > 64) {
                    out.value(ids[i], w, slots[i]);
                } else {
                    out.value(ids[i], v[slots[i]]);
                }
            }
        }

        void close() {
            out.close();
        }
    }
}
