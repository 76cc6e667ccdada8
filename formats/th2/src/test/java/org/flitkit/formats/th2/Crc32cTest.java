package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cTest {

    @Test
    void knownAnswerCheckValue() {
        assertThat(Crc32c.compute("123456789".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0xE3069283);
        assertThat(Crc32c.CHECK).isEqualTo(0xE3069283);
    }

    @Test
    void matchesTheJdkCrc32c() {
        Random r = new Random(11);
        for (int n = 0; n < 200; n += 7) {
            byte[] data = new byte[n];
            r.nextBytes(data);
            CRC32C jdk = new CRC32C();
            jdk.update(data);
            assertThat(Crc32c.compute(data)).isEqualTo((int) jdk.getValue());
        }
    }

    @Test
    void bitVectorInputIsLittleEndianBytes() {
        BitVector v = BitVector.fromBytesLE(72, "123456789".getBytes(StandardCharsets.US_ASCII));
        assertThat(Crc32c.compute(v)).isEqualTo(0xE3069283);
    }
}
