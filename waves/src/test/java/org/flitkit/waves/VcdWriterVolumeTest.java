package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import org.junit.jupiter.api.Test;

/** A million changes must go through without trouble; speed is measured by {@link VcdWriterThroughput}. */
class VcdWriterVolumeTest {

    @Test
    void writesOverAMillionChanges() {
        VcdWriterThroughput.CountingStream sink = new VcdWriterThroughput.CountingStream();

        writeCounterDesign(sink, 250_000);

        // Per cycle: two timestamps, clk twice, counter, toggle, and the shifter twice.
        assertThat(sink.lines).isGreaterThan(250_000L * 7);
    }

    /** A clock, a 32-bit counter, a toggle and a 198-bit shifter, all reported on both clock edges. */
    static void writeCounterDesign(OutputStream out, long cycles) {
        try (VcdWriter w = new VcdWriter(out, new Timescale(1, "ns"))) {
            Scope top = w.root("top");
            int clk = top.wire("clk", 1);
            int counter = top.reg("counter", 32);
            int toggle = top.reg("toggle", 1);
            int shifter = top.child("dp").wire("shifter", 198);
            long[] limbs = new long[4];
            for (long cycle = 0; cycle < cycles; cycle++) {
                w.time(10 * cycle);
                w.value(clk, 0);
                w.value(counter, cycle);
                w.value(toggle, cycle & 1);
                limbs[(int) (cycle % 3)] ^= 1L << (cycle & 63);
                w.value(shifter, limbs, 0);
                w.time(10 * cycle + 5);
                w.value(clk, 1);
                w.value(counter, cycle); // unchanged: must cost nothing in the file
                limbs[3] ^= 1L << (cycle % 6);
                w.value(shifter, limbs, 0);
            }
        }
    }
}
