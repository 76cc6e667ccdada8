package org.flitkit.env.nrc;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.testbench.Component;

/**
 * Drives the NRC's fault inputs: {@link #pulse} raises input N for a few cycles (a fault that comes and
 * goes), {@link #set} holds a level. Spec: 20-th2-management.md, function 3 (active fault reporting).
 */
public final class FaultDriver extends Component {
    private final Bits faults;
    private BigInteger level = BigInteger.ZERO;
    private final Map<Integer, Long> until = new HashMap<>();
    private boolean dirty = true;

    public FaultDriver(String name, Bits faults) {
        super(name);
        this.faults = faults;
    }

    /** Raises fault input {@code n} for {@code cycles} cycles from the next cycle. */
    public void pulse(int n, int cycles) {
        check(n);
        level = level.setBit(n);
        until.put(n, cycle() + cycles);
        dirty = true;
    }

    /** Holds fault input {@code n} at {@code on}. */
    public void set(int n, boolean on) {
        check(n);
        level = on ? level.setBit(n) : level.clearBit(n);
        until.remove(n);
        dirty = true;
    }

    @Override
    protected void reset() {
        dirty = true;
        drive();
    }

    @Override
    protected void drive() {
        until.entrySet().removeIf(e -> {
            if (cycle() >= e.getValue()) {
                level = level.clearBit(e.getKey());
                dirty = true;
                return true;
            }
            return false;
        });
        if (dirty) {
            sim().poke(faults, level);
            dirty = false;
        }
    }

    private void check(int n) {
        if (n < 0 || n >= faults.width()) {
            throw new IllegalArgumentException("fault input " + n + " outside 0.." + (faults.width() - 1));
        }
    }
}
