package org.flitkit.hdl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A hardware block. Subclasses declare ports with {@link Hdl#input}/{@link Hdl#output} and build their
 * logic in the constructor, parameterised by ordinary constructor arguments; a parent adds a child with
 * {@code instance(new Child(...))}. Fields give names: a field {@code count} becomes {@code top.fifo.count}.
 *
 * <p>Imports: {@code java.lang.Module} (Java 9+) is imported implicitly, so {@code import org.flitkit.hdl.*}
 * leaves {@code Module} ambiguous. Import the vocabulary statically and the types by name:
 * <pre>{@code
 * import static org.flitkit.hdl.Hdl.*;
 *
 * import org.flitkit.hdl.Module;
 * import org.flitkit.hdl.UInt;
 * }</pre>
 */
public abstract class Module {
    String instName;
    Module parent;
    final SrcLoc loc = SrcLoc.ofModuleCreation(getClass());
    final List<Module> children = new ArrayList<>();
    final List<Bits> ports = new ArrayList<>();
    final List<Bits> wires = new ArrayList<>();
    final List<Bits> regs = new ArrayList<>();
    final List<Bits> syncReads = new ArrayList<>();
    final List<Mem<?>> mems = new ArrayList<>();
    final List<Bits> namedOps = new ArrayList<>();
    final List<Check> checks = new ArrayList<>();
    final List<Rename> renames = new ArrayList<>();
    final List<WaveFilter> waveFilters = new ArrayList<>();
    final Stmt.Block body = new Stmt.Block();
    final Deque<Stmt.Block> blocks = new ArrayDeque<>();
    /** enable condition of the enclosing when-branches (null: unconditional) */
    final Deque<Bool> conds = new ArrayDeque<>();
    /** after elaboration: the driver of every output, wire, child input; next value of every register */
    final java.util.Map<Bits, Bits> drivers = new java.util.LinkedHashMap<>();
    boolean closed;
    /** after elaboration: signals and memories whose value reaches nothing that is observed */
    final java.util.Set<Bits> dead = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    final java.util.Set<Mem<?>> deadMems = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    protected Module() {
        Builder b = Builder.peek();
        if (b == null) {
            throw new HdlException("module " + getClass().getSimpleName() + " created at " + loc
                    + " outside elaboration: build the top with Circuit.elaborate(() -> new Top())");
        }
        parent = b.stack.peek();
        if (parent != null) {
            parent.children.add(this);
        } else {
            // provisional until construction ends: definitionName() may depend on subclass fields
            instName = b.topName != null ? b.topName : decapitalize(classBasedName());
        }
        blocks.push(body);
        b.stack.push(this);
        b.all.add(this);
    }

    /** Name of the Verilog module definition; defaults to the Java class name. */
    public String definitionName() {
        return classBasedName();
    }

    static String decapitalize(String n) {
        return Character.toLowerCase(n.charAt(0)) + n.substring(1);
    }

    private String classBasedName() {
        String n = getClass().getSimpleName();
        if (n.isEmpty()) {
            n = getClass().getName();
            n = n.substring(n.lastIndexOf('.') + 1).replace('$', '_');
        }
        return n;
    }

    /** The instance name in the parent ({@code fifo}). */
    public String instanceName() {
        return instName;
    }

    /** Hierarchical instance path, e.g. {@code top.ser.fifo}. */
    public String path() {
        String n = instName != null ? instName : "<" + getClass().getSimpleName() + ">";
        return parent == null ? n : parent.path() + "." + n;
    }

    public Module parent() {
        return parent;
    }

    public List<Module> children() {
        return List.copyOf(children);
    }

    public List<Bits> ports() {
        return List.copyOf(ports);
    }

    public List<Bits> wires() {
        return List.copyOf(wires);
    }

    public List<Bits> regs() {
        return List.copyOf(regs);
    }

    public List<Mem<?>> mems() {
        return List.copyOf(mems);
    }

    /** Registered memory read ports, clocked like registers. */
    public List<Bits> syncReads() {
        return List.copyOf(syncReads);
    }

    /** Expressions the user gave a name (fields holding an expression): shown as wires. */
    public List<Bits> namedExpressions() {
        return List.copyOf(namedOps);
    }

    /** After elaboration: what drives each output, wire and child input, and each register's next value. */
    public java.util.Map<Bits, Bits> drivers() {
        return java.util.Collections.unmodifiableMap(drivers);
    }

    /** The assertions and prints of this module ({@link Hdl#check}, {@link Hdl#printf}), in program order. */
    public List<Check> checks() {
        return List.copyOf(checks);
    }

    /**
     * After elaboration: whether a register, wire, named expression or registered memory read of this
     * module drives nothing (see {@link Circuit#warnings()}). Dead logic is simulated but not emitted.
     */
    public boolean isDead(Bits signal) {
        return dead.contains(signal);
    }

    /** After elaboration: whether nothing live reads this memory of this module. */
    public boolean isDead(Mem<?> mem) {
        return deadMems.contains(mem);
    }

    /**
     * A name the Java code gave that is a Verilog keyword or one of the implicit ports {@code clk} and
     * {@code reset}, and the name used instead in waves, peeks and Verilog ({@code buf} becomes {@code buf_}).
     */
    public record Rename(String javaName, String name, SrcLoc loc) {
    }

    /** After naming: the signals, memories and child instances of this module renamed as {@link Rename} says. */
    public List<Rename> renames() {
        return List.copyOf(renames);
    }

    /**
     * A GTKWave translate filter for a signal of this module: the text of a filter file (one line per value,
     * the value as GTKWave shows it in hex, then the name shown instead). Registered with
     * {@link Hdl#waveFilter}, e.g. by every {@code lib.Fsm} for its state register.
     */
    public record WaveFilter(Bits signal, String gtkwaveFilter) {
    }

    /** The translate filters registered for signals of this module, in registration order. */
    public List<WaveFilter> waveFilters() {
        return List.copyOf(waveFilters);
    }

    /** Source line where this instance was created (the {@code new} expression). */
    public SrcLoc loc() {
        return loc;
    }

    @Override
    public String toString() {
        return path();
    }
}
