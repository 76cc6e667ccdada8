package org.flitkit.testbench.scoreboard;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.stream.Stream;

/**
 * Every expected item must be observed exactly once, in the order expected, unchanged. On a mismatch
 * the message also says whether the observed item is a later one (items lost or reordered) or a copy
 * of the previous one (duplicated).
 */
public final class InOrderScoreboard<T> extends Scoreboard<T> {
    private final ArrayDeque<Expected<T>> queue = new ArrayDeque<>();
    private T last;

    public InOrderScoreboard(String name) {
        super(name);
    }

    @Override
    public int outstanding() {
        return queue.size();
    }

    @Override
    protected void store(Expected<T> e) {
        queue.add(e);
    }

    @Override
    protected void match(T observed) {
        Expected<T> e = queue.peek();
        if (e == null) {
            throw fail("unexpected item, nothing outstanding (" + matched() + " matched so far)\n  observed: " + show(observed)
                    + (observed.equals(last) ? "\n  it equals the last matched item: duplicated?" : ""));
        }
        if (!e.item().equals(observed)) {
            throw fail("item #" + e.index() + " (expected since cycle " + e.cycle() + ") does not match"
                    + mismatch(e.item(), observed) + hint(observed));
        }
        queue.poll();
        last = observed;
    }

    private String hint(T observed) {
        if (observed.equals(last)) {
            return "\n  it equals the previous item: duplicated?";
        }
        Iterator<Expected<T>> it = queue.iterator();
        Expected<T> first = it.next();
        while (it.hasNext()) {
            Expected<T> later = it.next();
            if (later.item().equals(observed)) {
                return "\n  it is item #" + later.index() + ": items #" + first.index() + ".." + (later.index() - 1)
                        + " were lost or reordered";
            }
        }
        return "";
    }

    @Override
    protected Stream<Expected<T>> pending() {
        return queue.stream();
    }
}
