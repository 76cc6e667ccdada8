package org.flitkit.rtl.xud;

import org.flitkit.formats.xud.XudFormat;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link CqWriter}: entry i to {@code base + (i mod depth) * 32}, 32 bytes, its owner bit the ring's phase
 * (1 on the first pass, flipped at each wrap), the other 255 bits as given (docs/xud.md, "Completions").
 */
@ExtendWith(TestbenchExtension.class)
class CqWriterTest {
    static final long BASE = 0x2000_0000L;

    /** The DMA write the writer must issue for entry {@code i} of a ring of {@code depth} (DmaWrite packs addr | data | len). */
    static BigInteger write(long base, int depth, long i, BigInteger cqe) {
        long owner = (i / depth) % 2 == 0 ? 1 : 0;
        BigInteger data = XudFormat.CQE_OWNER.set(cqe, owner);
        return XudWork.dma(base + (i % depth) * XudFormat.CQE_BYTES, data, XudFormat.CQE_BYTES);
    }

    /** {@code count} random entries through a ring of {@code depth} under random gaps and backpressure. */
    private static void ring(RunConfig cfg, int depth, int count) {
        try (Testbench<CqWriter> tb = Testbench.create(() -> new CqWriter(BASE, depth), cfg)) {
            StreamPort in = StreamPort.of(tb.dut().in);
            StreamPort out = StreamPort.of(tb.dut().out);
            StreamSource source = tb.add(new StreamSource("cqes", in).gaps(Throttle.busy(0.3)));
            tb.add(new StreamSink("host", out).backpressure(Throttle.busy(0.4)));
            InOrderScoreboard<BigInteger> writes = tb.add(new InOrderScoreboard<>("writes"));
            long[] taken = {0};
            tb.add(new StreamMonitor("cqes_monitor", in).subscribe(c -> writes.expect(write(BASE, depth, taken[0]++, c))));
            tb.add(new StreamMonitor("host_monitor", out).checkHoldEveryCycle().subscribe(writes::observe));
            Rng rnd = tb.rng("cqes");
            for (int i = 0; i < count; i++) {
                source.send(rnd.bits(XudFormat.CQE_BITS)); // owner bits of both values: the writer overrides it
            }
            tb.reset(1);
            tb.runUntil(count + " completion writes", () -> writes.matched() == count, 20 * count);
            tb.finish();
            assertThat(writes.expected()).isEqualTo(count);
        }
    }

    @Test
    void entriesWrapAroundTheRingAndTheOwnerBitFlipsAtEachWrap(RunConfig cfg) {
        ring(cfg, 4, 37);
    }

    @Test
    void aOneEntryRingFlipsTheOwnerBitEveryEntry(RunConfig cfg) {
        ring(cfg, 1, 9);
    }

    @Test
    void theWriteLeavesInTheCycleTheEntryArrives(RunConfig cfg) {
        try (Testbench<CqWriter> tb = Testbench.create(() -> new CqWriter(BASE, 2), cfg)) {
            StreamPort in = StreamPort.of(tb.dut().in);
            StreamPort out = StreamPort.of(tb.dut().out);
            StreamSource source = tb.add(new StreamSource("cqes", in));
            tb.add(new StreamSink("host", out));
            Recorder<BigInteger> taken = new Recorder<>(tb);
            Recorder<BigInteger> written = new Recorder<>(tb);
            tb.add(new StreamMonitor("cqes_monitor", in).subscribe(taken));
            tb.add(new StreamMonitor("host_monitor", out).subscribe(written));
            BigInteger ones = BigInteger.ONE.shiftLeft(XudFormat.CQE_BITS).subtract(BigInteger.ONE);
            for (int i = 0; i < 3; i++) {
                source.send(ones);
            }
            tb.reset(1);
            tb.runUntil("three writes", () -> written.size() == 3, 20);
            assertThat(written.items()).isEqualTo(List.of(write(BASE, 2, 0, ones), write(BASE, 2, 1, ones), write(BASE, 2, 2, ones)));
            // addresses base, base + 32, base again with owner 0
            assertThat(XudFormat.CQE_OWNER.get(written.get(2).shiftRight(6))).isZero();
            for (int i = 0; i < 3; i++) {
                assertThat(written.cycle(i)).isEqualTo(taken.cycle(i));
            }
            assertThat(written.cycle(2) - written.cycle(0)).isEqualTo(2);
        }
    }
}
