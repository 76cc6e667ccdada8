package org.flitkit.rtl.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Status;
import org.flitkit.host.DmaParams;
import org.flitkit.host.PcieHost;
import org.flitkit.host.PcieHost.ReadOutcome;
import org.flitkit.host.PcieParams;
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
    static DataBench.Transfer randomTransfer(DataBench b, Rng r, int k, int bytes, int maxSegs) {
        int nseg = 1 + r.nextInt(Math.min(maxSegs, bytes));
        List<DataBench.Seg> segs = new ArrayList<>();
        int left = bytes;
        long base = 0x1_0000_0000L + (long) k * 0x10_0000L;
        for (int i = 0; i < nseg; i++) {
            int len = i == nseg - 1 ? left : 1 + r.nextInt(left - (nseg - 1 - i));
            left -= len;
            long addr = base + (long) i * 0x4000 + r.nextInt(0x1000);
            byte[] data = new byte[len];
            r.nextBytes(data);
            b.mem.write(addr, data);
            segs.add(new DataBench.Seg(addr, len));
        }
        return new DataBench.Transfer(segs);
    }

    @Test
    void randomUnalignedChainsUnderBackpressureAreHandedOnByteExact(RunConfig cfg) {
        Rng r = new Rng(11);
        try (DataBench b = new DataBench(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 0.6)) {
            int n = 60;
            for (int k = 0; k < n; k++) {
                int bytes = r.chance(0.3) ? 1 + r.nextInt(64) : 1 + r.nextInt(8192);
                b.send(randomTransfer(b, r, k, bytes, r.chance(0.5) ? 1 : 8));
            }
            b.runToEnd(400_000);
            List<DataBench.Outcome> out = b.check();
            System.out.printf("random chains: %d transfers, %d bytes, %d reads, %d beats in %d cycles%n", n,
                    out.stream().mapToLong(DataBench.Outcome::bytesOut).sum(), b.reads.size(), b.beats.size(), b.tb.cycle());
            assertThat(out).hasSize(n).allMatch(o -> o.status() == Status.OK.code());
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
        try (DataBench b = new DataBench(cfg, P, SP, DataReorder.DEFAULT_BYTES, PcieParams.chpp(), 0.7)) {
            b.host.readFaults((addr, len, rng) -> rng.chance(0.1) ? bad[rng.nextInt(3)] : ReadOutcome.OK);
            int n = 60;
            for (int k = 0; k < n; k++) {
                b.send(randomTransfer(b, r, k, 1 + r.nextInt(8192), r.chance(0.5) ? 1 : 8));
            }
            b.runToEnd(600_000);
            List<DataBench.Outcome> out = b.check();
            int[] outcomes = new int[4];
            b.host.reads().forEach(rd -> outcomes[rd.outcome().ordinal()]++);
            long failed = out.stream().filter(o -> o.status() != Status.OK.code()).count();
            long cut = out.stream().filter(o -> o.readsIssued() < o.readsExpected()).count();
            System.out.printf("faults: %d reads (OK %d, UR %d, CA %d, lost %d), %d of %d transfers failed, %d of them cut short, %d cycles%n",
                    b.reads.size(), outcomes[0], outcomes[1], outcomes[2], outcomes[3], failed, n, cut, b.tb.cycle());
            assertThat(outcomes[1] + outcomes[2]).isPositive();
            assertThat(outcomes[3]).isPositive();
            assertThat(out.stream().filter(o -> o.status() == Status.PCIE_ERROR.code())).isNotEmpty();
            assertThat(out.stream().filter(o -> o.status() == Status.COMPLETION_TIMEOUT.code())).isNotEmpty();
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
        try (DataBench b = new DataBench(cfg, p, SP, DataReorder.DEFAULT_BYTES, slow, 1.0)) {
            int n = 12;
            for (int k = 0; k < n; k++) {
                b.send(randomTransfer(b, r, k, 1 + r.nextInt(1024), 4));
            }
            b.runToEnd(100_000);
            List<DataBench.Outcome> out = b.check();
            assertThat(out).allMatch(o -> o.status() == Status.COMPLETION_TIMEOUT.code() && o.bytesOut() == 0);
            long cplBeats = b.host.reads().size();
            assertThat(b.sim.peek(b.d.data.timeouts)).isEqualTo(b.reads.size());
            assertThat(b.sim.peek(b.d.data.strayCompletions)).isGreaterThanOrEqualTo(cplBeats);
            assertThat(b.sim.peek(b.d.tags.lateCompletions)).isEqualTo(b.reads.size());
            assertThat(b.sim.peek(b.d.tags.spuriousReleases)).isZero();
        }
    }
}
