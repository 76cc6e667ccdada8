package org.flitkit.fabric;

import org.flitkit.hdl.Bits;

/**
 * A chip's ready/valid output as a channel sees it: {@code valid} and {@code bits} sampled when the chip
 * is evaluated (they hold while it sleeps, since a sleeping chip's outputs do not change), {@code ready}
 * driven by the channel and poked only when it changes.
 */
final class ChipOutput {
    final Chip chip;
    final Bits valid;
    final Bits bits;
    final Bits ready;
    /** sampled: the chip offers {@link #flit} this cycle */
    boolean offered;
    final long[] flit;
    /** the ready value the chip sees (null before the first drive) */
    private Boolean readyNow;

    ChipOutput(Chip chip, Bits valid, Bits bits, Bits ready) {
        this.chip = chip;
        this.valid = valid;
        this.bits = bits;
        this.ready = ready;
        this.flit = new long[(bits.width() + 63) >>> 6];
    }

    void sample() {
        offered = chip.sim.peek(valid) != 0;
        if (offered) {
            chip.sim.peekInto(bits, flit);
        }
    }

    void setReady(boolean r) {
        if (readyNow == null || readyNow != r) {
            chip.wake();
            chip.sim.poke(ready, r ? 1 : 0);
            readyNow = r;
        }
    }

    boolean ready() {
        return readyNow != null && readyNow;
    }

    /** A flit leaves the chip at this cycle's edge. */
    boolean fires() {
        return offered && ready();
    }
}
