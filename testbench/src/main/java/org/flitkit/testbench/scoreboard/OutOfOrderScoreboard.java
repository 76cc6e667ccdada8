package org.flitkit.testbench.scoreboard;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Items may complete in any order across ids but in order within one id (like AXI transactions with
 * different IDs, or responses matched to requests by tag). Each observation is matched against the
 * oldest outstanding item with the same key.
 *
 * @param <K> the id type, extracted from items by the key function
 */
public final class OutOfOrderScoreboard<K, T> extends Scoreboard<T> {
    private final Function<? super T, ? extends K> key;
    private final Map<K, ArrayDeque<Expected<T>>> byKey = new HashMap<>();
    private int outstanding;

    public OutOfOrderScoreboard(String name, Function<? super T, ? extends K> key) {
        super(name);
        this.key = key;
    }

    @Override
    public int outstanding() {
        return outstanding;
    }

    @Override
    protected void store(Expected<T> e) {
        byKey.computeIfAbsent(key.apply(e.item()), k -> new ArrayDeque<>()).add(e);
        outstanding++;
    }

    @Override
    protected void match(T observed) {
        K k = key.apply(observed);
        ArrayDeque<Expected<T>> q = byKey.get(k);
        if (q == null || q.isEmpty()) {
            throw fail("unexpected item with id " + k + ": nothing outstanding for that id (" + outstanding
                    + " outstanding with ids " + byKey.keySet()
                    + ")\n  observed: " + show(observed));
        }
        Expected<T> e = q.peek();
        if (!e.item().equals(observed)) {
            throw fail("item #" + e.index() + " with id " + k + " (expected since cycle " + e.cycle() + ") does not match"
                    + mismatch(e.item(), observed));
        }
        q.poll();
        if (q.isEmpty()) {
            byKey.remove(k);
        }
        outstanding--;
    }

    @Override
    protected Stream<Expected<T>> pending() {
        return byKey.values().stream().flatMap(ArrayDeque::stream);
    }
}
