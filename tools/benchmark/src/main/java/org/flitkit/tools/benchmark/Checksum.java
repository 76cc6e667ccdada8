package org.flitkit.tools.benchmark;

import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * The 64-bit {@code checksum} of a closed benchmark design: signals folded to one word per cycle
 * ({@link #fold}) and accumulated into a rotate-and-XOR register ({@link #accumulate}), so a wrong bit
 * in any folded signal on any cycle changes the final value.
 */
public final class Checksum {
    public static final int WIDTH = 64;

    private Checksum() {
    }

    /**
     * XOR of the 64-bit slices of every signal, signal i rotated left by i mod 64 first, so two signals
     * wrong in the same way do not cancel.
     */
    public static UInt fold(List<? extends Bits> signals) {
        if (signals.isEmpty()) {
            throw new HdlException("Checksum.fold needs at least one signal");
        }
        UInt word = null;
        for (int i = 0; i < signals.size(); i++) {
            UInt w = rotl(slices(signals.get(i).asUInt()), i % WIDTH);
            word = word == null ? w : word.xor(w);
        }
        return word;
    }

    /** A register starting at 0 that takes {@code rotl(sum, 1) ^ word} every cycle; returns the register. */
    public static UInt accumulate(UInt word) {
        if (word.width() != WIDTH) {
            throw new HdlException("Checksum.accumulate takes a " + WIDTH + "-bit word, got " + word.width() + " bits");
        }
        UInt runningChecksum = regInit(UInt(WIDTH), 0).named("runningChecksum");
        runningChecksum.assign(rotl(runningChecksum, 1).xor(word));
        return runningChecksum;
    }

    /** {@code x} (at most 64 bits) rotated left by {@code n} within 64 bits. */
    private static UInt rotl(UInt x, int n) {
        return n == 0 ? x : cat(x.bits(WIDTH - 1 - n, 0), x.bits(WIDTH - 1, WIDTH - n));
    }

    /** The 64-bit slices of {@code x} XORed together, zero-extended to 64 bits. */
    private static UInt slices(UInt x) {
        UInt word = null;
        for (int lo = 0; lo < x.width(); lo += WIDTH) {
            UInt s = x.bits(Math.min(x.width(), lo + WIDTH) - 1, lo).pad(WIDTH);
            word = word == null ? s : word.xor(s);
        }
        return word;
    }
}
