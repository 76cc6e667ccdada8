package org.flitkit.testbench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * Keeps every item a monitor delivers together with the cycle it arrived in, for checks made at the
 * end of a test (the whole sequence, the cycles between two beats): {@code monitor.subscribe(recorder)}.
 * Use a scoreboard when items can be checked as they arrive.
 */
public final class Recorder<T> implements Consumer<T> {
    private final Testbench<?> tb;
    private final List<T> items = new ArrayList<>();
    private final List<Long> cycles = new ArrayList<>();

    public Recorder(Testbench<?> tb) {
        this.tb = tb;
    }

    @Override
    public void accept(T item) {
        items.add(item);
        cycles.add(tb.cycle());
    }

    /** Everything recorded so far, in arrival order (a read-only view). */
    public List<T> items() {
        return Collections.unmodifiableList(items);
    }

    public int size() {
        return items.size();
    }

    public T get(int i) {
        return items.get(i);
    }

    /** The cycle item {@code i} arrived in (its handshake). */
    public long cycle(int i) {
        return cycles.get(i);
    }
}
