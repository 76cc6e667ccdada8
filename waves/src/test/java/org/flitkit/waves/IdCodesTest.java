package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdCodesTest {

    @Test
    void shortestCodesComeFirst() {
        assertThat(IdCodes.encode(0)).isEqualTo("!");
        assertThat(IdCodes.encode(93)).isEqualTo("~");
        assertThat(IdCodes.encode(94)).isEqualTo("!!");
        assertThat(IdCodes.encode(94 + 94 * 94 - 1)).isEqualTo("~~");
        assertThat(IdCodes.encode(94 + 94 * 94)).isEqualTo("!!!");
    }

    @Test
    void codesAreUniquePrintableAndCompactForManySignals() {
        int n = 100_000;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String code = IdCodes.encode(i);
            assertThat(seen.add(code)).as("code %s for %d is new", code, i).isTrue();
            assertThat(code.chars()).allMatch(c -> c >= 33 && c <= 126);
            assertThat(code.length()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void writerAssignsDistinctCodesToThousandsOfSignals() {
        int n = 5000;
        VcdReader dump = VcdText.read(w -> {
            Scope top = w.root("top");
            for (int i = 0; i < n; i++) {
                top.wire("s" + i, 1 + i % 3);
            }
            w.time(0);
            for (int i = 0; i < n; i++) {
                w.value(i, i % 2);
            }
        });

        assertThat(dump.signals().values()).extracting(VcdReader.Signal::idCode).doesNotHaveDuplicates().hasSize(n);
        assertThat(dump.signal("top.s4999").valueAt(0)).isEqualTo(BigInteger.ONE);
    }
}
