package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RngTest {
    @Test
    void sameSeedSameStream() {
        assertThat(LongStream.generate(new Rng(7)::nextLong).limit(100).toArray())
                .isEqualTo(LongStream.generate(new Rng(7)::nextLong).limit(100).toArray())
                .isNotEqualTo(LongStream.generate(new Rng(8)::nextLong).limit(100).toArray());
    }

    @Test
    void forksDependOnTheSeedAndNameOnly() {
        Rng a = new Rng(3);
        Rng b = new Rng(3);
        b.nextLong(); // drawing from the parent does not change what a fork produces
        assertThat(a.fork("sink").nextLong()).isEqualTo(b.fork("sink").nextLong());
        assertThat(a.fork("sink").nextLong()).isNotEqualTo(a.fork("source").nextLong());
        assertThat(new Rng(4).fork("sink").nextLong()).isNotEqualTo(a.fork("sink").nextLong());
    }

    @Test
    void bitsStayWithinTheirWidthAndUseTheTopBit() {
        Rng r = new Rng(1);
        for (int width : new int[] {1, 7, 8, 20, 64, 65, 198}) {
            boolean topSeen = false;
            for (int i = 0; i < 200; i++) {
                BigInteger v = r.bits(width);
                assertThat(v.signum()).isNotNegative();
                assertThat(v.bitLength()).isLessThanOrEqualTo(width);
                topSeen |= v.testBit(width - 1);
            }
            assertThat(topSeen).as("top bit of %d-bit values", width).isTrue();
        }
    }

    @Test
    void chanceHonoursItsBounds() {
        Rng r = new Rng(5);
        int hits = 0;
        for (int i = 0; i < 10_000; i++) {
            assertThat(r.chance(0)).isFalse();
            assertThat(r.chance(1)).isTrue();
            hits += r.chance(0.25) ? 1 : 0;
        }
        assertThat(hits).isBetween(2_200, 2_800);
    }
}
