package org.flitkit.formats.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BitVectorTest {

    @Test
    void fieldsAcrossLimbBoundaries() {
        Field f = new Field("F", 60, 10);
        BitVector v = BitVector.zero(128).with(f, 0x3FF);
        assertThat(v.limbs()).containsExactly(0xF000_0000_0000_0000L, 0x3FL);
        assertThat(v.get(f)).isEqualTo(0x3FF);
        assertThat(v.with(f, 0).isZero()).isTrue();
    }

    @Test
    void sixtyFourBitFieldsTakeAnyLong() {
        Field f = new Field("D", 70, 64);
        BitVector v = BitVector.zero(198).with(f, -2L);
        assertThat(v.get(f)).isEqualTo(-2L);
        assertThat(v.getBig(f)).isEqualTo(new BigInteger("fffffffffffffffe", 16));
    }

    @Test
    void bigIntegerAndLimbsAgree() {
        Random r = new Random(7);
        for (int i = 0; i < 50; i++) {
            BigInteger b = new BigInteger(792, r);
            BitVector v = BitVector.of(792, b);
            assertThat(v.toBigInteger()).isEqualTo(b);
            assertThat(BitVector.fromLimbs(792, v.limbs())).isEqualTo(v);
            assertThat(BitVector.fromBytesLE(792, v.toBytesLE())).isEqualTo(v);
            Field wide = new Field("W", 300, 105);
            assertThat(v.getBig(wide)).isEqualTo(b.shiftRight(300).and(BigInteger.ONE.shiftLeft(105).subtract(BigInteger.ONE)));
            assertThat(v.with(wide, v.slice(wide))).isEqualTo(v);
        }
    }

    @Test
    void valuesThatDoNotFitAreRejected() {
        Field f = new Field("HopPtr", 105, 5);
        assertThatThrownBy(() -> BitVector.zero(198).with(f, 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit field HopPtr (5 bits)");
        assertThatThrownBy(() -> BitVector.zero(198).with(f, -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitVector.of(8, BigInteger.valueOf(256))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitVector.fromLimbs(70, 0, 1L << 6)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitVector.zero(10).get(new Field("X", 8, 4)))
                .hasMessageContaining("outside a 10-bit vector");
    }

    @Test
    void splitAndConcatAreInverse() {
        BitVector v = BitVector.of(792, new BigInteger(792, new Random(3)));
        List<BitVector> flits = v.split(198);
        assertThat(flits).hasSize(4);
        assertThat(flits.get(1)).isEqualTo(v.slice(198, 198));
        assertThat(BitVector.concat(flits)).isEqualTo(v);
    }

    @Test
    void hexIsPaddedToWidth() {
        assertThat(BitVector.ofLong(12, 0xAB).toHex()).isEqualTo("0ab");
        assertThat(BitVector.ofLong(12, 0xAB).toString()).isEqualTo("12'h0ab");
    }
}
