package org.flitkit.testbench.stream;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Hex;

/**
 * Watches a stream port without driving it: reports every beat that transfers ({@code valid && ready}
 * at a clock edge) to its subscribers, and checks the valid/ready rule on the way: once valid is high,
 * valid and bits must hold until the beat is taken.
 */
public final class StreamMonitor extends Component {
    private final StreamPort port;
    private final List<Consumer<BigInteger>> subscribers = new ArrayList<>();
    private boolean checkProtocol = true;
    private BigInteger stalled;
    private long stalledSince;
    private long beats;

    public StreamMonitor(String name, StreamPort port) {
        super(name);
        this.port = port;
    }

    /** Calls {@code s} with every transferred beat, in order. */
    public StreamMonitor subscribe(Consumer<BigInteger> s) {
        subscribers.add(s);
        return this;
    }

    /** Turns off the hold-while-stalled check (for ports that are allowed to retract valid). */
    public StreamMonitor noProtocolCheck() {
        checkProtocol = false;
        return this;
    }

    /** Beats seen so far. */
    public long beats() {
        return beats;
    }

    @Override
    protected void reset() {
        stalled = null;
    }

    @Override
    protected void sample() {
        boolean valid = sim().peek(port.valid()) != 0;
        if (checkProtocol && stalled != null) {
            if (!valid) {
                throw fail(port.name() + ": valid dropped while stalled; the beat " + hex(stalled) + " offered since cycle "
                        + stalledSince + " was never taken");
            }
            BigInteger now = sim().peekBig(port.bits());
            if (!now.equals(stalled)) {
                throw fail(port.name() + ": bits changed while valid was waiting for ready (offered since cycle "
                        + stalledSince + ")\n  held:    " + hex(stalled) + "\n  now:     " + hex(now));
            }
        }
        if (!valid) {
            return;
        }
        if (sim().peek(port.ready()) == 0) {
            if (checkProtocol && stalled == null) {
                stalled = sim().peekBig(port.bits());
                stalledSince = cycle();
            }
            return;
        }
        stalled = null;
        beats++;
        BigInteger beat = sim().peekBig(port.bits());
        for (Consumer<BigInteger> s : subscribers) {
            s.accept(beat);
        }
    }

    private String hex(BigInteger v) {
        return Hex.of(v, port.width());
    }
}
