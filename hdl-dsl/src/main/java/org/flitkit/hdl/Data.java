package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.List;

/**
 * Anything that can be hardware: a ground signal ({@link Bits}) or an aggregate ({@link Bundle},
 * {@link Vec}). Before binding (input/output/wire/reg) a Data is only a type template; binding turns
 * its ground leaves into netlist nodes owned by the module under construction.
 */
public abstract class Data {
    String name;
    boolean explicitName;
    Module owner;
    /** where the type was made; when it becomes hardware, where that happened (the declaration) */
    SrcLoc loc = SrcLoc.here();
    /** set by {@link Hdl#flipped}: this field of a bundle runs against the bundle's direction */
    boolean flipped;
    /** the aggregate this is an element of, and its name there ({@code valid}, {@code 3}) */
    Data aggParent;
    String localName;
    /** the name is final (set when the owning module is finished) */
    boolean frozen;

    Data() {
    }

    /** The ground leaves of this value, in declaration order. */
    public abstract List<Bits> leaves();

    /** Gives this signal its name in waveforms and Verilog (otherwise the Java field name is used). */
    @SuppressWarnings("unchecked")
    public <T extends Data> T named(String n) {
        if (n == null || !n.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new HdlException("invalid signal name '" + n + "' at " + SrcLoc.here()
                    + ": use letters, digits and '_', not starting with a digit");
        }
        NameCheck.check(this, n);
        name = n;
        explicitName = true;
        if (this instanceof Bits b && b.kind == Kind.OP && owner != null && !owner.namedOps.contains(b)) {
            owner.namedOps.add(b);
        }
        return (T) this;
    }

    /** The name inside its module ({@code io_in_valid}), or null while unnamed. */
    public String name() {
        if (aggParent != null && !frozen) {
            String p = aggParent.name();
            return p == null ? null : p + "_" + localName;
        }
        return name;
    }

    /** Hierarchical name, e.g. {@code top.fifo.count}; a readable placeholder while still unnamed. */
    public String path() {
        Namer.nameWhileBuilding(owner);
        String n = name();
        String local = n != null ? n : "<unnamed " + getClass().getSimpleName() + " from " + loc + ">";
        return owner == null ? local : owner.path() + "." + local;
    }

    /** The module this hardware belongs to (null for literals and unbound types). */
    public Module owner() {
        return owner;
    }

    public SrcLoc loc() {
        return loc;
    }

    boolean isBound() {
        for (Bits b : leaves()) {
            if (b.kind == Kind.TYPE) {
                return false;
            }
        }
        return true;
    }

    /** Connects every leaf of this from the matching leaf of {@code other} (Chisel's {@code :=}). */
    public void assign(Data other) {
        List<Bits> mine = leaves();
        List<Bits> theirs = other.leaves();
        requireSameShape(other, mine, theirs);
        for (int i = 0; i < mine.size(); i++) {
            mine.get(i).assign(theirs.get(i));
        }
    }

    /**
     * Bulk connection honouring directions (Chisel's {@code <>}): each pair of leaves is driven from
     * whichever side is the source as seen from the current module; flipped fields run the other way.
     */
    public void connect(Data other) {
        List<Bits> mine = leaves();
        List<Bits> theirs = other.leaves();
        requireSameShape(other, mine, theirs);
        for (int i = 0; i < mine.size(); i++) {
            Bits a = mine.get(i);
            Bits b = theirs.get(i);
            int da = a.sinkSide();
            int db = b.sinkSide();
            boolean aIsSink = da > 0 || db < 0 || (da == 0 && db == 0 && !a.flippedWithin(this));
            if (aIsSink) {
                a.assign(b);
            } else {
                b.assign(a);
            }
        }
    }

    private void requireSameShape(Data other, List<Bits> mine, List<Bits> theirs) {
        if (mine.size() != theirs.size() || !shape().equals(other.shape())) {
            throw new HdlException("cannot connect " + path() + " (" + shape() + ") and " + other.path()
                    + " (" + other.shape() + ") at " + SrcLoc.here() + ": their structures differ");
        }
    }

    /** A short structural description used in error messages. */
    abstract String shape();

    static List<Bits> collect(Iterable<? extends Data> parts) {
        List<Bits> out = new ArrayList<>();
        for (Data d : parts) {
            out.addAll(d.leaves());
        }
        return out;
    }
}
