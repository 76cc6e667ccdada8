package org.flitkit.fabric;

import java.util.Arrays;
import org.flitkit.hdl.Bits;

/**
 * A chip's ready/valid input as a channel sees it: {@code valid} and {@code bits} driven by the channel
 * (poked only when they change, so an unchanged offer costs nothing and does not wake the chip),
 * {@code ready} sampled when the chip is evaluated. While nothing is offered {@code bits} keeps the last
 * flit.
 */
final class ChipInput {
    final Chip chip;
    final Bits valid;
    final Bits bits;
    final Bits ready;
    /** sampled: the chip takes an offered flit this cycle */
    boolean accepting;
    private Boolean validNow;
    private final long[] bitsNow;
    private boolean bitsKnown;

    ChipInput(Chip chip, Bits valid, Bits bits, Bits ready) {
        this.chip = chip;
        this.valid = valid;
        this.bits = bits;
        this.ready = ready;
        this.bitsNow = new long[(bits.width() + 63) >>> 6];
    }

    void sample() {
        accepting = chip.sim.peek(ready) != 0;
    }

    void offer(long[] flit) {
        if (!bitsKnown || !Arrays.equals(bitsNow, flit)) {
            chip.wake();
            chip.sim.poke(bits, flit);
            System.arraycopy(flit, 0, bitsNow, 0, bitsNow.length);
            bitsKnown = true;
        }
        setValid(true);
    }

    void idle() {
        setValid(false);
    }

    private void setValid(boolean v) {
        if (validNow == null || validNow != v) {
            chip.wake();
            chip.sim.poke(valid, v ? 1 : 0);
            validNow = v;
        }
    }

    long[] bitsNow() {
        return bitsNow;
    }

    boolean validNow() {
        return validNow != null && validNow;
    }

    /** Whether the chip sees exactly {@code flit} offered now. */
    boolean offering(long[] flit) {
        return validNow() && Arrays.equals(bitsNow, flit);
    }

    /** A flit enters the chip at this cycle's edge. */
    boolean fires() {
        return validNow() && accepting;
    }
}
