package org.flitkit.env.chpp;

import org.flitkit.host.PcieParams;
import org.flitkit.rtl.chpp.SendEngineParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
class ChppRunTest {
    @Test
    void noInterleave(RunConfig cfg) {
        PcieParams pp = PcieParams.chpp();
        pp = pp.withLink(new org.flitkit.host.PcieLink(pp.link().bytesPerCycle(), pp.link().headerCycles(), pp.link().processingCycles(), false));
        try (ChppRun r = new ChppRun(cfg, SendEngineParams.defaults(), pp)) {
            for (int n : new int[] {1, 1024, 2048}) {
                ChppRun.Latency l = r.latency(ChppRun.Op.PUT, n);
                System.out.printf("no interleave PUT %d: %d cycles = %.3f us%n", n, l.cycles(), l.cycles() / 250.0);
            }
            System.out.printf("no interleave 8 x 512 KB: %.3f GB/s%n", r.stream(ChppRun.Op.PUT, 512 * 1024, 8, 32).gbps());
        }
    }

    @Test
    void latencies(RunConfig cfg) {
        try (ChppRun r = new ChppRun(cfg, SendEngineParams.defaults(), PcieParams.chpp())) {
            for (ChppRun.Op op : ChppRun.Op.values()) {
                for (int n : new int[] {1, 64, 256, 1024, 2048}) {
                    ChppRun.Latency l = r.latency(op, n);
                    System.out.printf("%s %d: %d cycles = %.3f us, memory %d, processing %d%n", op, n, l.cycles(), l.cycles() / 250.0,
                            l.memoryReadCycles(), l.processingCycles());
                }
            }
            long t0 = System.nanoTime();
            long c0 = r.env.tb.cycle();
            ChppRun.Stream s = r.stream(ChppRun.Op.PUT, 512 * 1024, 1, 1);
            System.out.printf("PUT 512 KB: %.3f GB/s, %d cycles, %.0f cycles/s%n", s.gbps(), s.cycles(),
                    (r.env.tb.cycle() - c0) / ((System.nanoTime() - t0) / 1e9));
            ChppRun.Stream s2 = r.stream(ChppRun.Op.PUT, 1024, 256, 32);
            System.out.printf("PUT 256 x 1 KB: %.3f GB/s%n", s2.gbps());
        }
    }
}
