package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Values wider than a long, passed as little-endian limbs, must survive a write/read round trip. */
class VcdWriterWideValuesTest {

    @ParameterizedTest(name = "{0} bits")
    @ValueSource(ints = {1, 2, 63, 64, 65, 127, 128, 198, 512, 1000})
    void randomValuesRoundTripThroughTheReader(int width) {
        Random random = new Random(width);
        List<BigInteger> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            expected.add(new BigInteger(width, random));
        }
        expected.set(1, BigInteger.ZERO);
        expected.set(2, BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE)); // all ones

        VcdReader dump = VcdText.read(w -> {
            int bus = w.root("top").wire("bus", width);
            long[] limbs = new long[1 + (width + 63) / 64]; // limbs start at offset 1
            for (int t = 0; t < expected.size(); t++) {
                w.time(t);
                toLimbs(expected.get(t), limbs, 1);
                w.value(bus, limbs, 1);
            }
        });

        VcdReader.Signal bus = dump.signal("top.bus");
        assertThat(bus.width()).isEqualTo(width);
        for (int t = 0; t < expected.size(); t++) {
            assertThat(bus.valueAt(t)).as("value at %d", t).isEqualTo(expected.get(t));
        }
    }

    @ParameterizedTest(name = "{0} bits")
    @ValueSource(ints = {198, 512})
    void longSetterClearsUpperLimbsOfWideSignals(int width) {
        BigInteger allOnes = BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);

        VcdReader dump = VcdText.read(w -> {
            int bus = w.root("top").wire("bus", width);
            w.time(0);
            w.value(bus, new long[] {-1, -1, -1, -1, -1, -1, -1, -1}, 0);
            w.time(1);
            w.value(bus, 0x5A);
        });

        assertThat(dump.signal("top.bus").valueAt(0)).isEqualTo(allOnes);
        assertThat(dump.signal("top.bus").valueAt(1)).isEqualTo(BigInteger.valueOf(0x5A));
    }

    /** Little-endian 64-bit limbs of a non-negative value, as a simulator would hold them. */
    static void toLimbs(BigInteger value, long[] limbs, int offset) {
        for (int i = offset; i < limbs.length; i++) {
            limbs[i] = value.shiftRight(64 * (i - offset)).longValue();
        }
    }
}
