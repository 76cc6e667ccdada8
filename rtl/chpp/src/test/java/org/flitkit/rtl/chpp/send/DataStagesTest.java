package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.Circuit;
import org.flitkit.env.host.DmaParams;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieHost.ReadOutcome;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The data stages against the real PcieHost (chpp parameters: 512-byte reads, completions split at the 64-byte RCB
 * and 128-byte MPS, tags interleaved) and the real tag allocator with its scoreboard every cycle: random transfers
 * byte-exact, failing reads, tiny and empty segments, the exact timing of one transfer. docs/chpp-data-stages.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class DataStagesTest {
    static final int TIMEOUT = 1500;
    static final ChppParams P = ChppParams.paper().withCompletionTimeout(TIMEOUT);
    static final SendEngineParams SP = SendEngineParams.defaults();

    /** A transfer of {@code bytes} in 1..maxSegs segments at random unaligned addresses in its own 1 MB region, filled with random bytes. */
    static DataHarness.Transfer randomTransfer(DataHarness b, Rng r, int k, int bytes, int maxSegs) {
        int nseg = 1 + r.nextInt(Math.min(maxSegs, bytes));
        List<DataHarness.Seg> segs = new ArrayList<>();
        int left = bytes;
        long base = 0x1_0000_0000L + (long) k * 0x10_0000L;
        for (int i = 0; i < nseg; i++) {
            int len = i == nseg - 1 ? left : 1 + r.nextInt(left - (nseg - 1 - i));
            left -= len;
            long addr = base + (long) i * 0x4000 + r.nextInt(0x1000);
            byte[] data = new byte[len];
            r.nextBytes(data);
            b.mem.write(addr, data);
            segs.add(new DataHarness.Seg(addr, len));
        }
        return new DataHarness.Transfer(segs);
    }

    /**
     * The packer stalls for 3000 cycles (a network without credits): the reads fill the reorder buffer, all complete
     * and leave their slots; when the stall ends the buffered rows must still go out and the transfer finish.
     */
    @Test
    void aLongStallDownstreamThatFillsTheBufferDoesNotStopTheTransfer(RunConfig cfg) {
        Rng r = new Rng(21);
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 1.0)) {
            b.stallUntil = 3000;
            DataHarness.Transfer t = randomTransfer(b, r, 0, 8192, 1);
            b.send(t);
            b.runToEnd(20_000);
            List<DataHarness.Outcome> out = b.check();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).status()).isEqualTo(CompletionStatus.OK.code());
            assertThat(out.get(0).bytesOut()).isEqualTo(8192);
            assertThat(b.beats.get(0).cycle()).isGreaterThanOrEqualTo(3000);
            assertThat(b.sim.peek(b.d.data.transfersDone)).isEqualTo(1);
        }
    }

    @Test
    void randomUnalignedChainsUnderBackpressureAreHandedOnByteExact(RunConfig cfg) {
        Rng r = new Rng(11);
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 0.6)) {
            int n = 60;
            for (int k = 0; k < n; k++) {
                int bytes = r.chance(0.3) ? 1 + r.nextInt(64) : 1 + r.nextInt(8192);
                b.send(randomTransfer(b, r, k, bytes, r.chance(0.5) ? 1 : 8));
            }
            b.runToEnd(400_000);
            List<DataHarness.Outcome> out = b.check();
            System.out.printf("random chains: %d transfers, %d bytes, %d reads, %d beats in %d cycles%n", n,
                    out.stream().mapToLong(DataHarness.Outcome::bytesOut).sum(), b.reads.size(), b.beats.size(), b.tb.cycle());
            assertThat(out).hasSize(n).allMatch(o -> o.status() == CompletionStatus.OK.code());
            assertThat(b.sim.peek(b.d.data.readsIssued)).isEqualTo(b.reads.size());
            assertThat(b.sim.peek(b.d.data.transfersDone)).isEqualTo(n);
            assertThat(b.sim.peek(b.d.data.strayCompletions)).isZero();
        }
    }

    /**
     * A tenth of the reads fail (UR, CA or lost, seeded): every transfer ends, either with all its bytes or with the
     * error beat its first failed read earned after whole beats of its bytes, no read of it after the failure; the
     * transfers after it go on; all tags free at the end.
     */
    @Test
    void aTenthOfReadsFailingEndsEachTransferAtTheRightPlaceAndFreesEveryTag(RunConfig cfg) {
        Rng r = new Rng(12);
        ReadOutcome[] bad = {ReadOutcome.UR, ReadOutcome.CA, ReadOutcome.LOST};
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 0.7)) {
            b.host.readFaults((addr, len, rng) -> rng.chance(0.1) ? bad[rng.nextInt(3)] : ReadOutcome.OK);
            int n = 60;
            for (int k = 0; k < n; k++) {
                b.send(randomTransfer(b, r, k, 1 + r.nextInt(8192), r.chance(0.5) ? 1 : 8));
            }
            b.runToEnd(600_000);
            List<DataHarness.Outcome> out = b.check();
            int[] outcomes = new int[4];
            b.host.reads().forEach(rd -> outcomes[rd.outcome().ordinal()]++);
            long failed = out.stream().filter(o -> o.status() != CompletionStatus.OK.code()).count();
            long cut = out.stream().filter(o -> o.readsIssued() < o.readsExpected()).count();
            System.out.printf("faults: %d reads (OK %d, UR %d, CA %d, lost %d), %d of %d transfers failed, %d of them cut short, %d cycles%n",
                    b.reads.size(), outcomes[0], outcomes[1], outcomes[2], outcomes[3], failed, n, cut, b.tb.cycle());
            assertThat(outcomes[1] + outcomes[2]).isPositive();
            assertThat(outcomes[3]).isPositive();
            assertThat(out.stream().filter(o -> o.status() == CompletionStatus.PCIE_ERROR.code())).isNotEmpty();
            assertThat(out.stream().filter(o -> o.status() == CompletionStatus.COMPLETION_TIMEOUT.code())).isNotEmpty();
            assertThat(cut).isPositive();
            assertThat(b.sim.peek(b.d.data.transfersDone) + b.sim.peek(b.d.data.transfersFailed)).isEqualTo(n);
            assertThat(b.sim.peek(b.d.data.transfersFailed)).isEqualTo(failed);
            assertThat(b.sim.peek(b.d.data.errorCompletions)).isEqualTo(outcomes[1] + outcomes[2]);
            assertThat(b.sim.peek(b.d.data.timeouts)).isEqualTo(outcomes[3]);
            assertThat(b.sim.peek(b.d.data.strayCompletions)).isZero();
            assertThat(b.sim.peek(b.d.freeTags)).isEqualTo(P.tags());
        }
    }

    /**
     * A completion timeout shorter than the round trip (800 against 1000 cycles; the allocator's quarantine, another
     * 800, outlasts the late data): every read times out before its data comes, so every transfer fails with
     * COMPLETION_TIMEOUT with no bytes, and every late completion is dropped as stray and still reported, so the
     * allocator lets its quarantined tag go.
     */
    @Test
    void lateCompletionsAfterATimeoutAreDroppedAndTheirTagsReleased(RunConfig cfg) {
        Rng r = new Rng(13);
        ChppParams p = ChppParams.paper().withCompletionTimeout(800);
        PcieParams slow = PcieParams.chpp().withDma(new DmaParams(1000, 65, 32, 512, 128, 64));
        try (DataHarness b = new DataHarness(cfg, p, SP, DataReorder.DEFAULT_BYTES, slow, 1.0)) {
            int n = 12;
            for (int k = 0; k < n; k++) {
                b.send(randomTransfer(b, r, k, 1 + r.nextInt(1024), 4));
            }
            b.runToEnd(100_000);
            List<DataHarness.Outcome> out = b.check();
            assertThat(out).allMatch(o -> o.status() == CompletionStatus.COMPLETION_TIMEOUT.code() && o.bytesOut() == 0);
            long cplBeats = b.host.reads().size();
            assertThat(b.sim.peek(b.d.data.timeouts)).isEqualTo(b.reads.size());
            assertThat(b.sim.peek(b.d.data.strayCompletions)).isGreaterThanOrEqualTo(cplBeats);
            assertThat(b.sim.peek(b.d.tags.lateCompletions)).isEqualTo(b.reads.size());
            assertThat(b.sim.peek(b.d.tags.spuriousReleases)).isZero();
        }
    }

    /**
     * Chains of 255 segments (the most a descriptor has) of 1 byte and of 1..40 bytes, each at its own unaligned
     * address, so nearly every beat is stitched from several reads; a 0-byte segment (which the formats forbid) in
     * the middle, at the end and alone: that transfer ends with BAD_DESCRIPTOR after the bytes before it, the rest
     * of it is not read, and the transfers after it go on.
     */
    @Test
    void tinySegmentsAreStitchedAndAnEmptySegmentFailsOnlyItsTransfer(RunConfig cfg) {
        Rng r = new Rng(14);
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 0.8)) {
            int k = 0;
            for (int[] spec : new int[][] {{255, 1}, {255, 40}, {10, 40}, {10, 40}, {1, 0}, {5, 40}}) {
                List<DataHarness.Seg> segs = new ArrayList<>();
                for (int i = 0; i < spec[0]; i++) {
                    int len = spec[1] <= 1 ? spec[1] : 1 + r.nextInt(spec[1]);
                    long addr = 0x2_0000_0000L + k * 0x10_0000L + i * 0x100L + r.nextInt(0x80);
                    byte[] data = new byte[len];
                    r.nextBytes(data);
                    b.mem.write(addr, data);
                    segs.add(new DataHarness.Seg(addr, len));
                }
                if (k == 2) {
                    segs.set(4, new DataHarness.Seg(segs.get(4).addr(), 0));
                } else if (k == 3) {
                    segs.set(9, new DataHarness.Seg(segs.get(9).addr(), 0));
                }
                b.send(new DataHarness.Transfer(segs));
                k++;
            }
            b.runToEnd(100_000);
            List<DataHarness.Outcome> out = b.check();
            assertThat(out).extracting(DataHarness.Outcome::status).containsExactly(CompletionStatus.OK.code(), CompletionStatus.OK.code(),
                    CompletionStatus.BAD_DESCRIPTOR.code(), CompletionStatus.BAD_DESCRIPTOR.code(), CompletionStatus.BAD_DESCRIPTOR.code(), CompletionStatus.OK.code());
            assertThat(out.get(0).bytesOut()).isEqualTo(255);
            assertThat(out.get(2).readsIssued()).isEqualTo(4);
            assertThat(b.sim.peek(b.d.data.emptySegments)).isEqualTo(3);
            assertThat(b.sim.peek(b.d.data.transfersFailed)).isEqualTo(3);
        }
    }

    /**
     * The exact timing of one 64-byte transfer at an aligned address on an idle engine, out always ready: the segment
     * is taken at cycle s, its read leaves at s + 1 (the segment register), the host's 64-byte completion (one TLP,
     * 4 beats) offers its beats at s + 1 + 130 .. s + 134; each whole row goes out the cycle after it is written
     * (s + 132, 133, 134), the final row (it carries last) the cycle the read's end has reached its slot (s + 135).
     */
    @Test
    void oneSixtyFourByteTransferTakesExactlyTheseCycles(RunConfig cfg) {
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 1.0)) {
            byte[] data = new byte[64];
            new Rng(15).nextBytes(data);
            b.mem.write(0x3_0000_2000L, data);
            b.send(new DataHarness.Transfer(List.of(new DataHarness.Seg(0x3_0000_2000L, 64))));
            b.runToEnd(10_000);
            b.check();
            long s = b.feeder.takenAt.get(0);
            assertThat(b.reads.get(0).cycle() - s).isEqualTo(1);
            assertThat(b.beats).extracting(x -> x.cycle() - s).containsExactly(132L, 133L, 134L, 135L);
        }
    }

    /** Bytes per cycle at {@code out} from the first segment taken to the last beat, with {@code out} always ready. */
    static double bytesPerCycle(DataHarness b, long bytes) {
        long cycles = b.beats.get(b.beats.size() - 1).cycle() - b.feeder.takenAt.get(0) + 1;
        return (double) bytes / cycles;
    }

    /**
     * Throughput at {@code out} (always ready) for one 512 KB transfer and for 64 back-to-back 2 KB transfers, each
     * from an address 8 mod 64: the link's 128-byte completions (1 header + 8 data + 1 processing cycle) bound it
     * at 12.8 bytes per cycle, 3.2 GB/s at 250 MHz; the round trip is paid once per run, not per read.
     */
    @Test
    void throughputOfOneLargeAndManyTwoKilobyteTransfersIsNearTheLinkBound(RunConfig cfg) {
        Rng r = new Rng(16);
        double large;
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 1.0)) {
            int len = 512 * 1024;
            byte[] data = new byte[len];
            r.nextBytes(data);
            b.mem.write(0x4_0000_0008L, data);
            b.send(new DataHarness.Transfer(List.of(new DataHarness.Seg(0x4_0000_0008L, len))));
            b.runToEnd(100_000);
            b.check();
            large = bytesPerCycle(b, len);
            System.out.printf("512 KB run: %d cycles simulated in %.2f s (%.0f cycles/s), build %.2f s%n", b.tb.cycle(), b.tb.simSeconds(),
                    b.tb.cycle() / b.tb.simSeconds(), b.tb.buildSeconds());
        }
        double small;
        try (DataHarness b = new DataHarness(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 1.0)) {
            int n = 64;
            for (int k = 0; k < n; k++) {
                byte[] data = new byte[2048];
                r.nextBytes(data);
                long addr = 0x5_0000_0008L + k * 0x1000L;
                b.mem.write(addr, data);
                b.send(new DataHarness.Transfer(List.of(new DataHarness.Seg(addr, 2048))));
            }
            b.runToEnd(100_000);
            b.check();
            small = bytesPerCycle(b, 2048L * n);
        }
        System.out.printf("throughput: 512 KB transfer %.2f B/cycle = %.3f GB/s; 64 x 2 KB %.2f B/cycle = %.3f GB/s (link bound 12.8 = 3.2 GB/s)%n",
                large, large * 0.25, small, small * 0.25);
        assertThat(large).isGreaterThan(12.0).isLessThanOrEqualTo(12.8);
        assertThat(small).isGreaterThan(11.5).isLessThanOrEqualTo(12.8);
    }

    @Test
    void aReorderBufferThatCannotHoldTwoMaxReadsIsRefusedWithTheReason() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Circuit.elaborate(() -> new DataStages(P, SP, 512)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reorder buffer of 512 bytes").hasMessageContaining("twice the max read request (1024)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Circuit.elaborate(() -> new DataRead(P, SP, 3000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Circuit.elaborate(() -> new DataReorder(P, SP, 1 << 17)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65536");
        assertThat(DataReorder.defaultBytes(SP.withMaxReadRequest(4096))).isEqualTo(8192);
        assertThat(DataReorder.slots(P)).isEqualTo(32);
        assertThat(DataReorder.slots(P.withTags(3))).isEqualTo(4);
        assertThat(DataReorder.slots(P.withTags(ChppParams.EXTENDED_TAGS))).isEqualTo(64);
    }

    /** {@code n} random transfers on one configuration, a fraction {@code fail} of reads failing; every check of {@link DataHarness#check}. */
    static List<DataHarness.Outcome> soak(RunConfig cfg, long seed, ChppParams p, SendEngineParams sp, int bufferBytes, PcieParams pp,
                                        double ready, double fail, int n, int maxBytes) {
        Rng r = new Rng(seed);
        ReadOutcome[] bad = {ReadOutcome.UR, ReadOutcome.CA, ReadOutcome.LOST};
        try (DataHarness b = new DataHarness(cfg, p, sp, bufferBytes, pp, ready)) {
            b.host.readFaults((addr, len, rng) -> rng.chance(fail) ? bad[rng.nextInt(3)] : ReadOutcome.OK);
            for (int k = 0; k < n; k++) {
                b.send(randomTransfer(b, r, k, 1 + r.nextInt(maxBytes), r.chance(0.5) ? 1 : 12));
            }
            b.runToEnd(2_000_000);
            System.out.printf("soak seed %d: build %.1f s, %d cycles in %.1f s%n", seed, b.tb.buildSeconds(), b.tb.cycle(), b.tb.simSeconds());
            List<DataHarness.Outcome> out = b.check();
            assertThat(b.sim.peek(b.d.data.strayCompletions)).isZero();
            assertThat(b.sim.peek(b.d.freeTags)).isEqualTo(p.tags());
            return out;
        }
    }

    /**
     * The smallest corner: 3 tags, 64-byte reads (so a 512-byte completion boundary never splits them but the 64-byte
     * RCB does), a 128-byte reorder buffer (two reads), out ready a third of the time, a tenth of reads failing.
     */
    @Test
    void threeTagsSixtyFourByteReadsAndATwoReadBufferStillEndEveryTransfer(RunConfig cfg) {
        List<DataHarness.Outcome> out = soak(cfg, 17, P.withTags(3), SP.withMaxReadRequest(64), 128, PcieParams.chpp(), 0.33, 0.1, 30, 2000);
        assertThat(out).hasSize(30);
        assertThat(out).anyMatch(o -> o.status() == CompletionStatus.OK.code()).anyMatch(o -> o.status() != CompletionStatus.OK.code());
    }

    /**
     * Random configurations (1..32 tags, 64..512-byte reads, buffers of two reads to 4 KB, out ready 20..100 %, up to
     * a fifth of reads failing), 40 transfers each: 3 seeds here; -Dflitkit.dataSoak=N runs N (100 pass).
     */
    @Test
    void soakOverSeedsAndConfigurations(RunConfig cfg) {
        int seeds = Integer.getInteger("flitkit.dataSoak", 3);
        for (int s = 0; s < seeds; s++) {
            Rng r = new Rng(1000 + s);
            int tags = 1 + r.nextInt(32); // the host model answers tags 0..31
            int mrrs = 64 << r.nextInt(4);
            int buf = Math.max(2 * mrrs, 128 << r.nextInt(6));
            double ready = 0.2 + 0.8 * r.nextDouble();
            double fail = r.chance(0.5) ? 0 : 0.2 * r.nextDouble();
            System.out.printf("soak seed %d: tags %d mrrs %d buffer %d ready %.2f fail %.2f%n", 1000 + s, tags, mrrs, buf, ready, fail);
            soak(cfg, 1000 + s, P.withTags(tags), SP.withMaxReadRequest(mrrs), buf, PcieParams.chpp(), ready, fail, 40, 6000);
        }
    }

    /**
     * 256 extended tags (64 read slots) and 4 KB reads (an 8 KB buffer) against a host with 256 tags and a 4 KB max
     * read request: 20 transfers up to 16 KB, 5 % of reads failing, `out` ready 80 %: {@link DataHarness#check}.
     */
    @Test
    void extendedTagsAndFourKilobyteReadsEndEveryTransferByteExact(RunConfig cfg) {
        ChppParams p = P.withTags(ChppParams.EXTENDED_TAGS);
        SendEngineParams sp = SP.withMaxReadRequest(4096);
        PcieParams pp = PcieParams.chpp().withDma(new DmaParams(PcieParams.CHPP_READ_ROUND_TRIP_CYCLES, 65, 256, 4096, 128, 64));
        List<DataHarness.Outcome> out = soak(cfg, 18, p, sp, DataReorder.defaultBytes(sp), pp, 0.8, 0.05, 20, 16384);
        assertThat(out).hasSize(20).anyMatch(o -> o.status() == CompletionStatus.OK.code() && o.bytesOut() > 8192);
    }
}
