package org.flitkit.testbench.scoreboard;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.flitkit.testbench.Component;

/**
 * Compares what the design produced with what a reference says it should: feed {@link #expect} from
 * the input side (a monitor or a model) and {@link #observe} from the output monitor. A mismatch fails
 * at once with the cycle, the item number and both transactions (integers in hex, with the bits that
 * differ); {@link #finish()} fails if anything
 * expected never arrived, and a timeout lists what is still outstanding ({@link #describeState()}).
 * Subclasses decide which outstanding item an observation is matched against.
 *
 * @param <T> the transaction type; compared with {@code equals}
 */
public abstract class Scoreboard<T> extends Component {
    /** An outstanding expectation: the item, its number in expect order, and the cycle it was expected at. */
    protected record Expected<T>(T item, long index, long cycle) {
    }

    /** At most this many outstanding items are listed by {@link #describeState()}. */
    public static final int DESCRIBED_ITEMS = 10;

    private Function<? super T, String> format = BitDiff::show;
    private long expected;
    private long matched;

    protected Scoreboard(String name) {
        super(name);
    }

    /**
     * How to print items in failure messages (default: integers and lists of them in hex, anything else by
     * {@code toString}); a mismatch of integers also names the differing bits whatever the format.
     */
    public Scoreboard<T> format(Function<? super T, String> f) {
        format = f;
        return this;
    }

    /** The design should produce {@code item}. */
    public final void expect(T item) {
        store(new Expected<>(item, expected++, cycle()));
    }

    /** The design produced {@code item}: matched against the outstanding expectations, failing on a mismatch. */
    public final void observe(T item) {
        match(item);
        matched++;
    }

    /** Items expected and then observed correctly. */
    public final long matched() {
        return matched;
    }

    /** Items expected so far. */
    public final long expected() {
        return expected;
    }

    /** Items expected but not yet observed. */
    public abstract int outstanding();

    public final boolean isEmpty() {
        return outstanding() == 0;
    }

    @Override
    protected void finish() {
        if (outstanding() > 0) {
            Expected<T> e = pendingOldestFirst().get(0);
            throw fail(outstanding() + " expected item(s) never observed (" + matched + " matched); the oldest is #" + e.index()
                    + ", expected since cycle " + e.cycle() + ":\n  expected: " + show(e.item()));
        }
    }

    /** The outstanding items, oldest first, each with its number and the cycle it was expected at. */
    @Override
    public List<String> describeState() {
        if (outstanding() == 0) {
            return List.of();
        }
        return describe(outstanding() + " expected item(s) not observed (" + matched + " matched), oldest first:",
                pendingOldestFirst(), DESCRIBED_ITEMS, e -> "#" + e.index() + " expected at cycle " + e.cycle() + ": " + show(e.item()));
    }

    protected abstract void store(Expected<T> e);

    /** Removes the expectation {@code observed} matches, or fails. */
    protected abstract void match(T observed);

    /** Every outstanding expectation, in any order. */
    protected abstract Stream<Expected<T>> pending();

    private List<Expected<T>> pendingOldestFirst() {
        return pending().sorted(Comparator.comparingLong(Expected::index)).toList();
    }

    protected final String show(T item) {
        return format.apply(item);
    }

    /** The lines of a mismatch: both items and, for integers, the bits that differ. */
    protected final String mismatch(T expected, T observed) {
        return "\n  expected: " + show(expected) + "\n  observed: " + show(observed) + BitDiff.describe(expected, observed);
    }
}
