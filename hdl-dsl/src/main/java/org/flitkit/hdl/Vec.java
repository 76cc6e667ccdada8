package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * A fixed-size vector of one element type, indexable by a constant or by a hardware index. Created as a
 * type with {@link Hdl#Vec(int, Supplier)} or from existing hardware with {@link Hdl#vecOf}.
 */
public final class Vec<T extends Data> extends Data implements Iterable<T> {
    private final List<T> elems;
    private final Supplier<T> type;

    Vec(List<T> elems, Supplier<T> type) {
        if (elems.isEmpty()) {
            throw new HdlException("empty Vec at " + SrcLoc.here());
        }
        this.elems = Collections.unmodifiableList(new ArrayList<>(elems));
        this.type = type;
        if (type != null) {
            for (int i = 0; i < elems.size(); i++) {
                T e = elems.get(i);
                e.aggParent = this;
                e.localName = Integer.toString(i);
            }
        }
    }

    public int size() {
        return elems.size();
    }

    /** Element {@code i} (constant index, checked). */
    public T get(int i) {
        if (i < 0 || i >= elems.size()) {
            throw new HdlException("index " + i + " at " + SrcLoc.here() + " is out of range for Vec of " + elems.size()
                    + " (" + path() + ")");
        }
        return elems.get(i);
    }

    /** Reads the element chosen by a hardware index (element 0's type; all zeros when out of range). */
    @SuppressWarnings("unchecked")
    public T at(UInt index) {
        T first = elems.get(0);
        if (first instanceof Bits b) {
            Bits[] args = new Bits[elems.size() + 1];
            args[0] = index;
            for (int i = 0; i < elems.size(); i++) {
                args[i + 1] = (Bits) elems.get(i);
            }
            return (T) Bits.node(b.cloneType(), Op.SEL, 0, 0, args);
        }
        if (type == null) {
            throw new HdlException("hardware index into a Vec of " + first.shape() + " at " + SrcLoc.here()
                    + " needs a Vec created with a type supplier (Hdl.Vec(n, () -> new MyBundle()))");
        }
        T out = Hdl.wire(type.get());
        List<Bits> outLeaves = out.leaves();
        for (int j = 0; j < outLeaves.size(); j++) {
            Bits[] args = new Bits[elems.size() + 1];
            args[0] = index;
            for (int i = 0; i < elems.size(); i++) {
                args[i + 1] = elems.get(i).leaves().get(j);
            }
            outLeaves.get(j).assign(Bits.node(outLeaves.get(j).cloneType(), Op.SEL, 0, 0, args));
        }
        return out;
    }

    /** Drives the element chosen by a hardware index (the others keep their other drivers). */
    public void write(UInt index, Data value) {
        // elements past what the index can reach are never written by it
        long reach = Math.min(elems.size(), 1L << Math.min(index.width, 62));
        for (int i = 0; i < reach; i++) {
            T e = elems.get(i);
            Hdl.when(index.eq(i), () -> e.assign(value));
        }
    }

    @Override
    public Iterator<T> iterator() {
        return elems.iterator();
    }

    public List<T> asList() {
        return elems;
    }

    @Override
    public List<Bits> leaves() {
        return collect(elems);
    }

    @Override
    String shape() {
        return "Vec<" + elems.size() + " x " + elems.get(0).shape() + ">";
    }
}
