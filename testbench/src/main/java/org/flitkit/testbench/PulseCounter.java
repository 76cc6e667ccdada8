package org.flitkit.testbench;

import org.flitkit.hdl.Bits;

/**
 * Counts the clock edges at which a 1-bit event signal is
 * high, such as a drop or dispatch pulse that no register accumulates.
 */
public final class PulseCounter extends Component {
    private final Bits signal;
    private long count;

    public PulseCounter(String name, Bits signal) {
        super(name);
        if (signal.width() != 1) {
            throw new IllegalArgumentException("pulse counter '" + name + "' needs a 1-bit signal, " + signal.path() + " is "
                    + signal.width() + " bits");
        }
        this.signal = signal;
    }

    /** Clock edges so far at which the signal was high. */
    public long count() {
        return count;
    }

    @Override
    protected void sample() {
        if (sim().peek(signal) != 0) {
            count++;
        }
    }
}
