package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The byte limit: where the dump stops, what the exception says, and that the file stays a valid dump. */
class VcdWriterLimitTest {
    /** Each step after the first writes "#t\n1!\n" or "#t\n0!\n": 6 bytes for single-digit t. */
    private static final int STEP_BYTES = 6;

    @TempDir
    Path dir;

    /** Bytes of header and $dumpvars block, as written before the first value change. */
    private static long headerBytes() {
        VcdWriter w = declare(new VcdWriter(new ByteArrayOutputStream(), new Timescale(1, "ns")));
        w.time(0);
        w.value(0, 0);
        w.time(1);
        return w.written();
    }

    private static VcdWriter declare(VcdWriter w) {
        w.date(VcdText.FIXED_DATE).root("top").wire("a", 1);
        return w;
    }

    @Test
    void stopsAtTheFirstTimestampAfterPassingTheLimitAndLeavesAValidFile() throws Exception {
        Path vcd = dir.resolve("limited.vcd");
        long header = headerBytes();
        VcdWriter w = declare(new VcdWriter(vcd, new Timescale(1, "ns"))).limit(header + 3 * STEP_BYTES).clockPeriod(2);
        w.time(0);
        w.value(0, 0);
        for (int t = 1; t <= 4; t++) {
            w.time(t);
            w.value(0, t & 1);
        }
        // t=1..3 fill the file to exactly the limit, t=4 passes it: the dump stops before t=5
        VcdLimitExceeded e = assertThrows(VcdLimitExceeded.class, () -> w.time(5));
        assertThat(e.limit()).isEqualTo(header + 18);
        assertThat(e.written()).isEqualTo(header + 24);
        assertThat(e.time()).isEqualTo(5);
        assertThat(e.cycle()).hasValue(2);
        assertThat(e).hasMessage("VCD output passed its limit of " + (header + 18) + " bytes (" + (header + 24)
                + " written) at time 5ns, cycle 2");

        // flushed at the stop: a viewer can open it before the simulation closes the writer
        assertThat(Files.size(vcd)).isEqualTo(header + 24);
        VcdReader partial = VcdReader.read(vcd);
        assertThat(partial.endTime()).isEqualTo(4);
        assertThat(partial.signal("top.a").changes()).extracting(VcdReader.Change::time).containsExactly(0L, 1L, 2L, 3L, 4L);

        // later samples are dropped quietly so the simulation can shut down as usual
        w.time(6);
        w.value(0, 0);
        w.flush();
        w.close();
        assertThat(Files.size(vcd)).isEqualTo(header + 24);
        assertThat(VcdReader.read(vcd).endTime()).isEqualTo(4);
    }

    @Test
    void withoutAClockPeriodTheExceptionHasNoCycle() {
        VcdWriter w = declare(new VcdWriter(new ByteArrayOutputStream(), new Timescale(10, "ps"))).limit(1);
        w.time(0);
        // the header alone is past one byte: leaving time 0 stops the dump
        VcdLimitExceeded e = assertThrows(VcdLimitExceeded.class, () -> w.time(3));
        assertThat(e.time()).isEqualTo(3);
        assertThat(e.cycle()).isEmpty();
        assertThat(e.getMessage()).endsWith("at time 30ps");
    }

    @Test
    void limitAndClockPeriodAreDeclarationsAndMustBePositive() {
        VcdWriter w = new VcdWriter(new ByteArrayOutputStream(), new Timescale(1, "ns"));
        assertThatThrownBy(() -> w.limit(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 byte");
        assertThatThrownBy(() -> w.clockPeriod(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 tick");
        w.time(0);
        assertThatThrownBy(() -> w.limit(100)).isInstanceOf(IllegalStateException.class);
    }
}
