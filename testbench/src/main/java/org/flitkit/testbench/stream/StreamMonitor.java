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
 * valid must stay high until the beat is taken (checked every cycle) and the beat taken must be the
 * one first offered (bits compared at the handshake, so a stall costs no wide reads; with
 * {@link #checkHoldEveryCycle()} in every stalled cycle, which also catches bits that change and change
 * back).
 */
public final class StreamMonitor extends Component {
    private final StreamPort port;
    private final List<Consumer<BigInteger>> subscribers = new ArrayList<>();
    private boolean checkProtocol = true;
    private boolean everyCycle;
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

    /** Compares the bits with the offered beat in every cycle of a stall, not only at the handshake. */
    public StreamMonitor checkHoldEveryCycle() {
        everyCycle = true;
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

    /** A beat offered and not taken yet (seen only while the protocol check is on). */
    @Override
    public List<String> describeState() {
        return stalled == null ? List.of() : List.of("beat " + hex(stalled) + " offered since cycle " + stalledSince + ", not taken");
    }

    @Override
    protected void sample() {
        boolean valid = sim().peek(port.valid()) != 0;
        if (!valid) {
            if (checkProtocol && stalled != null) {
                throw fail(port.name() + ": valid dropped while stalled; the beat " + hex(stalled) + " offered since cycle "
                        + stalledSince + " was never taken");
            }
            return;
        }
        if (sim().peek(port.ready()) == 0) {
            if (checkProtocol && stalled == null) {
                stalled = port.peekBits(sim());
                stalledSince = cycle();
            } else if (checkProtocol && everyCycle) {
                checkHeld(port.peekBits(sim()), "now");
            }
            return;
        }
        BigInteger beat = port.peekBits(sim());
        checkHeld(beat, "taken");
        stalled = null;
        beats++;
        for (Consumer<BigInteger> s : subscribers) {
            s.accept(beat);
        }
    }

    private void checkHeld(BigInteger bits, String when) {
        if (stalled != null && !bits.equals(stalled)) {
            throw fail(port.name() + ": bits changed while valid was waiting for ready (offered since cycle " + stalledSince
                    + ")\n  offered: " + hex(stalled) + "\n  " + when + ":" + " ".repeat(8 - when.length()) + hex(bits));
        }
    }

    private String hex(BigInteger v) {
        return Hex.of(v, port.width());
    }
}
