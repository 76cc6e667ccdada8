package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bandwidth of one 64 KB transfer at {@code out} (always ready) against the tags the stage may use and the reorder
 * buffer, next to the paper's formula n = t / (Size/16 + 2 Size/MTU) (section 5.1): with t the read's tag-holding
 * time, 512-byte reads and 128-byte completions cost 40 link cycles each, so about t/40 tags keep the link busy.
 */
@ExtendWith(TestbenchExtension.class)
class DataTagSweepTest {
    static double run(RunConfig cfg, int tags, int buffer) {
        ChppParams p = ChppParams.paper().withTags(tags);
        try (DataHarness b = new DataHarness(cfg, p, SendEngineParams.defaults(), buffer, PcieParams.chpp(), 1.0)) {
            int len = 64 * 1024;
            byte[] data = new byte[len];
            new Rng(tags).nextBytes(data);
            b.mem.write(0x6_0000_0000L, data);
            b.send(new DataHarness.Transfer(List.of(new DataHarness.Seg(0x6_0000_0000L, len))));
            b.runToEnd(200_000);
            b.check();
            return DataStagesTest.bytesPerCycle(b, len);
        }
    }

    @Test
    void bandwidthGrowsWithTagsAndBufferUntilTheLinkBound(RunConfig cfg) {
        StringBuilder sb = new StringBuilder("tags sweep (64 KB, 4 KB buffer):");
        double[] bw = new double[6];
        int[] tags = {1, 2, 3, 4, 6, 8};
        for (int i = 0; i < tags.length; i++) {
            bw[i] = run(cfg, tags[i], 4096);
            sb.append(String.format(" %d:%.2f", tags[i], bw[i]));
        }
        double[] buf = {run(cfg, 32, 1024), run(cfg, 32, 2048), run(cfg, 32, 4096), run(cfg, 32, 8192)};
        sb.append(String.format("; buffer sweep (32 tags): 1 KB:%.2f 2 KB:%.2f 4 KB:%.2f 8 KB:%.2f bytes/cycle", buf[0], buf[1], buf[2], buf[3]));
        System.out.println(sb);
        // one tag: each 512-byte read waits for the last; more tags overlap them until the link (12.8) is the bound
        for (int i = 1; i < tags.length; i++) {
            assertThat(bw[i]).isGreaterThan(bw[i - 1]);
        }
        assertThat(bw[0]).isBetween(2.9, 3.1);
        assertThat(bw[5]).isGreaterThan(12.0);
        // the buffer: 1 and 2 KB hold too few reads to cover the round trip; 4 KB does, and 8 KB adds nothing
        assertThat(buf[0]).isLessThan(buf[1]);
        assertThat(buf[1]).isLessThan(0.95 * buf[2]);
        assertThat(buf[3]).isBetween(0.99 * buf[2], 1.01 * buf[2]);
    }
}
