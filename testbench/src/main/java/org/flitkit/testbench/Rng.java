package org.flitkit.testbench;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;

/**
 * The testbench's seeded random source (SplitMix64): fast, allocation-free, and reproducible from one
 * number. Each component gets its own stream with {@link #fork(String)}, so adding a component or
 * changing how often one draws does not disturb the others' stimulus.
 */
public final class Rng implements RandomGenerator {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private final long seed;
    private long state;

    public Rng(long seed) {
        this.seed = seed;
        this.state = seed;
    }

    /** The seed this stream started from. */
    public long seed() {
        return seed;
    }

    /** An independent stream for {@code name}, derived from this stream's seed (not its current state). */
    public Rng fork(String name) {
        long h = 0xCBF29CE484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        return new Rng(mix(seed ^ mix(h)));
    }

    @Override
    public long nextLong() {
        state += GOLDEN;
        return mix(state);
    }

    /** True with probability {@code p} (0 never, 1 always). */
    public boolean chance(double p) {
        return p >= 1.0 || p > 0.0 && nextDouble() < p;
    }

    /** A uniformly random unsigned value of {@code width} bits. */
    public BigInteger bits(int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be at least 1, got " + width);
        }
        byte[] mag = new byte[(width + 7) / 8 + 1];
        for (int i = 1; i < mag.length; i += 8) {
            long r = nextLong();
            for (int j = 0; j < 8 && i + j < mag.length; j++) {
                mag[i + j] = (byte) (r >>> (8 * j));
            }
        }
        int spare = (mag.length - 1) * 8 - width;
        mag[1] &= (byte) (0xFF >>> spare);
        return new BigInteger(mag);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
