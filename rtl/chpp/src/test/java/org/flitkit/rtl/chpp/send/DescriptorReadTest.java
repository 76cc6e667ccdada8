package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieHost.ReadOutcome;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Descriptor read under load against the real PcieHost (chpp parameters: 512-byte read requests, completions split
 * at the 64-byte RCB and interleaved between tags): 160 doorbells from 8 functions, random kinds and sizes up to 40
 * chain segments, a tenth of them malformed, a tenth of the host's reads failing (UR, CA or lost). Every doorbell
 * ends exactly once with the status its reads earned, every tag is free at the end, and the latency of a NAP and a
 * PUT descriptor from doorbell to extracted output. docs/chpp-send-engine.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class DescriptorReadTest {
    static final int TIMEOUT = 1500;
    static final ChppParams P = ChppParams.paper().withCompletionTimeout(TIMEOUT);

    static Descriptor randomDescriptor(Rng r, int qp, int cookie) {
        Descriptor.Common c = new Descriptor.Common(qp, r.chance(0.5), true,
                new org.flitkit.formats.chpp.EndpointId(r.nextInt(8), r.nextInt(8), r.nextInt(4)), r.nextInt(1 << 16), cookie);
        return switch (r.nextInt(5)) {
            case 0 -> new Descriptor.NapImmediate(c, DescriptorExtractTest.pattern(r.nextInt(2049), cookie));
            case 1 -> new Descriptor.NapIndirect(c, r.nextInt(2049), r.nextLong());
            case 2 -> new Descriptor.Put(c, 1 + r.nextLong(0xFFFF_FFFEL), r.nextLong(), r.nextLong(1L << 47));
            case 3 -> new Descriptor.Get(c, 1 + r.nextLong(0xFFFF_FFFEL), r.nextLong(), r.nextLong(1L << 47));
            default -> {
                Descriptor.Chain ch = DescriptorExtractTest.chain(qp, cookie, 1 + r.nextInt(20), 1 + r.nextInt(20), r);
                yield new Descriptor.Chain(c, ch.sources(), ch.destinations());
            }
        };
    }

    @Test
    void manyDoorbellsFromEightFunctionsWithATenthOfReadsFailingEachEndExactlyOnceAndFreeEveryTag(RunConfig cfg) {
        Rng r = new Rng(2026);
        List<DescriptorCheck.Case> cases = new ArrayList<>();
        int n = 160;
        for (int i = 0; i < n; i++) {
            int qp = r.nextInt(4);
            byte[] bytes = randomDescriptor(r, qp, i + 1).encode();
            if (r.chance(0.1)) {
                // malformed: a reserved bit of word 0, or the wrong QP
                if (r.chance(0.5)) {
                    bytes[1] |= 1;
                } else {
                    qp = (qp + 1) & 3;
                }
            }
            cases.add(new DescriptorCheck.Case(i % 8, qp, 0x100_0000L + 0x2000L * i + 8 * r.nextInt(64), bytes, bytes.length));
        }
        ReadOutcome[] bad = {ReadOutcome.UR, ReadOutcome.CA, ReadOutcome.LOST};
        PcieHost.ReadFaults faults = (addr, len, rng) -> rng.chance(0.1) ? bad[rng.nextInt(3)] : ReadOutcome.OK;
        SendEngineParams sp = SendEngineParams.defaults();
        try (DescriptorHarness b = new DescriptorHarness(cfg, P, sp, PcieParams.chpp(), 0.7)) {
            b.host.readFaults(faults);
            for (DescriptorCheck.Case c : cases) {
                b.mem.write(c.addr(), c.bytes());
                b.ring(c.function(), c.addr(), c.length(), c.qp());
            }
            b.tb.runUntil("every doorbell ended and every tag free", () -> b.quiet() && b.rungAt.size() == n
                    && b.outcomes() == n && b.drained() && b.sim.peek(b.d.freeTags) == P.tags(), 200_000);
            // the status each case's reads earned: an error completion ends it first, else a lost read times out
            Map<Integer, CompletionStatus> readStatus = new HashMap<>();
            int[] outcomes = new int[4];
            for (PcieHost.Read rd : b.host.reads()) {
                outcomes[rd.outcome().ordinal()]++;
                for (int i = 0; i < n; i++) {
                    DescriptorCheck.Case c = cases.get(i);
                    if (rd.addr() >= c.addr() && rd.addr() < c.addr() + c.length()) {
                        assertThat(rd.addr() + rd.len()).as("read within its descriptor").isLessThanOrEqualTo(c.addr() + c.length());
                        assertThat(rd.len()).isLessThanOrEqualTo(512);
                        assertThat(rd.addr() / 512).as("no read crosses a 512-byte boundary").isEqualTo((rd.addr() + rd.len() - 1) / 512);
                        if (rd.outcome() == ReadOutcome.UR || rd.outcome() == ReadOutcome.CA) {
                            readStatus.put(i, CompletionStatus.PCIE_ERROR);
                        } else if (rd.outcome() == ReadOutcome.LOST) {
                            readStatus.putIfAbsent(i, CompletionStatus.COMPLETION_TIMEOUT);
                        }
                    }
                }
            }
            int extracted = DescriptorCheck.check(b, cases, readStatus);
            assertThat(b.sim.peek(b.d.freeTags)).isEqualTo(32);
            assertThat(b.sim.peek(b.d.busySlots)).isZero();
            assertThat(b.sim.peek(b.d.strayCompletions)).isZero();
            // several descriptors, and several reads of each, were in flight at once
            assertThat(b.maxBusySlots).isEqualTo(sp.slots());
            assertThat(b.minFreeTags).isLessThanOrEqualTo(P.tags() - 8L);
            // the run exercised every path
            assertThat(outcomes[ReadOutcome.UR.ordinal()] + outcomes[ReadOutcome.CA.ordinal()]).isGreaterThan(5);
            assertThat(outcomes[ReadOutcome.LOST.ordinal()]).isGreaterThan(2);
            assertThat(b.host.reads().size()).as("longer descriptors took several reads").isGreaterThan(n);
            assertThat(b.sim.peek(b.d.refused)).isGreaterThan(5);
            assertThat(extracted).isGreaterThan(100);
            System.out.printf("descriptor read: %d doorbells, %d reads (UR %d, CA %d, lost %d), %d extracted, %d refused, %d cycles,"
                    + " at most %d tags in use%n", n, b.host.reads().size(), outcomes[1], outcomes[2], outcomes[3], extracted,
                    b.sim.peek(b.d.refused), b.tb.cycle(), P.tags() - b.minFreeTags);
        }
    }

    /** One descriptor alone, outputs always ready: cycles from the doorbell write to its control word. */
    static long[] latency(RunConfig cfg, Descriptor d) {
        try (DescriptorHarness b = new DescriptorHarness(cfg, P, SendEngineParams.defaults(), PcieParams.chpp(), 1.0)) {
            byte[] bytes = d.encode();
            b.mem.write(0x4000, bytes);
            b.ring(1, 0x4000, bytes.length, d.common().qp());
            b.tb.runUntil("extracted", () -> !b.controls.isEmpty() && b.drained(), 1000);
            long rung = b.rungAt.get(0);
            long request = b.host.reads().get(0).cycle();
            long lastCpl = b.cplBeats.get(b.cplBeats.size() - 1).cycle();
            long control = b.controls.get(0).cycle();
            long lastOut = Math.max(b.srcs.isEmpty() ? 0 : b.srcs.get(b.srcs.size() - 1).cycle(),
                    Math.max(b.dsts.isEmpty() ? 0 : b.dsts.get(b.dsts.size() - 1).cycle(),
                            b.napBeats.isEmpty() ? 0 : b.napBeats.get(b.napBeats.size() - 1).cycle()));
            long[] r = {request - rung, lastCpl - request, control - lastCpl, lastOut - lastCpl, control - rung};
            System.out.printf("%s: doorbell->request %d, request->last completion beat %d (memory), last beat->control %d,"
                    + " last beat->last output %d, doorbell->control %d%n", d.kind(), r[0], r[1], r[2], r[3], r[4]);
            return r;
        }
    }

    @Test
    void napAndPutDescriptorLatencyFromDoorbellToExtractedOutput(RunConfig cfg) {
        Descriptor.Common c = new Descriptor.Common(1, true, true, new org.flitkit.formats.chpp.EndpointId(1, 2, 3), 0xBEEF, 7);
        long[] nap = latency(cfg, new Descriptor.NapImmediate(c, DescriptorExtractTest.pattern(5, 1)));
        long[] put = latency(cfg, new Descriptor.Put(c, 4096, 0x1000, 0x2000));
        // doorbell front 1 + slot 1 to the request; 130-cycle round trip + 1 for the second beat (24 and 32 bytes
        // are two beats); slot done 1, two beats to extract 2 (the decision on the last), control 1; last output 1 later
        assertThat(nap).containsExactly(2, 131, 3, 4, 136);
        assertThat(put).containsExactly(2, 131, 3, 4, 136);
    }
}
