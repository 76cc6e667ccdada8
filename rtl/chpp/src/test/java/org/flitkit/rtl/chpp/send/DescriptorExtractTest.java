package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.IntFunction;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.Rule;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Descriptor extract behind descriptor read, against the real PcieHost (chpp parameters) and descriptors encoded by
 * formats/chpp: every kind extracted exactly as the software decoder reads it (chains up to 40 segments, NAP
 * immediates of 0..2048 bytes, GET packets byte for byte), malformed descriptors refused with the formats' status,
 * and the doorbell-to-output latency of a NAP and a PUT. docs/chpp-send-engine.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class DescriptorExtractTest {
    static final ChppParams P = ChppParams.paper().withCompletionTimeout(3000);
    static final SendEngineParams SP = new SendEngineParams(4, 5, 0x2A08, 2, 512, 128);

    static Descriptor.Common common(int qp, boolean sce, int cookie) {
        return new Descriptor.Common(qp, sce, true, new EndpointId(3, 6, (qp + 1) & 3), 0xBEEF ^ cookie, cookie);
    }

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + seed * 31 + 1);
        }
        return b;
    }

    static Descriptor.Chain chain(int qp, int cookie, int nSrc, int nDst, Rng r) {
        List<Descriptor.Segment> s = new ArrayList<>();
        List<Descriptor.Segment> d = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < nSrc; i++) {
            long len = 1 + r.nextInt(100_000);
            total += len;
            s.add(new Descriptor.Segment(r.nextLong(), len));
        }
        long left = total;
        for (int i = 0; i < nDst; i++) {
            long len = i == nDst - 1 ? left : 1 + r.nextLong(Math.max(1, left - (nDst - 1 - i)));
            len = Math.min(len, left - (nDst - 1 - i));
            left -= len;
            d.add(new Descriptor.Segment(r.nextLong(1L << 40), len));
        }
        return new Descriptor.Chain(common(qp, false, cookie), s, d);
    }

    /** Runs the cases (cookie = index + 1) through the stages and checks every outcome; returns the bench. */
    static DescriptorHarness run(RunConfig cfg, List<DescriptorCheck.Case> cases, double ready, long maxCycles) {
        DescriptorHarness b = new DescriptorHarness(cfg, P, SP, PcieParams.chpp(), ready);
        for (DescriptorCheck.Case c : cases) {
            if (c.bytes() != null) {
                b.mem.write(c.addr(), c.bytes());
            }
            b.ring(c.function(), c.addr(), c.length(), c.qp());
        }
        b.tb.runUntil("every doorbell ended", () -> b.quiet() && b.rungAt.size() == cases.size()
                && b.outcomes() == cases.size() && b.drained(), maxCycles);
        b.tb.run(20);
        DescriptorCheck.check(b, cases, new HashMap<>());
        return b;
    }

    static DescriptorCheck.Case at(int i, int function, Descriptor d) {
        byte[] bytes = d.encode();
        return new DescriptorCheck.Case(function, d.common().qp(), 0x10_0000L + 0x2000L * i + 8 * (i % 5), bytes, bytes.length);
    }

    @Test
    void everyKindIsExtractedExactlyAsTheSoftwareDecoderReadsIt(RunConfig cfg) {
        Rng r = new Rng(11);
        List<IntFunction<Descriptor>> makers = List.of(
                c -> new Descriptor.NapImmediate(common(c % 4, true, c), pattern(5, c)),
                c -> new Descriptor.NapImmediate(common(c % 4, false, c), new byte[0]),
                c -> new Descriptor.NapImmediate(common(c % 4, false, c), pattern(2048, c)),
                c -> new Descriptor.NapImmediate(common(c % 4, false, c), pattern(37, c)),
                c -> new Descriptor.NapIndirect(common(c % 4, true, c), 2048, 0x7F00_0000_1000L + c),
                c -> new Descriptor.NapIndirect(common(c % 4, false, c), 0, 0x1234_5678L),
                c -> new Descriptor.Put(common(c % 4, true, c), 2 << 20, 0x1234_5678_9A00L, 0xFFFF_FFFF_F000L - (2 << 20)),
                c -> new Descriptor.Put(common(c % 4, false, c), 0xFFFF_FFFFL, 0xFFFF_FFFF_FFFF_FFF8L, 0x42),
                c -> new Descriptor.Get(common(c % 4, true, c), 4096, 0x3_0000_0000L, 0x2_0000L),
                c -> new Descriptor.Get(common(c % 4, false, c), 1, 0x8000_0000_0000_0000L, 0xFFFF_FFFF_FFFEL),
                c -> chain(c % 4, c, 1, 1, r),
                c -> chain(c % 4, c, 2, 1, r),
                c -> chain(c % 4, c, 17, 23, r),
                c -> chain(c % 4, c, 30, 10, r));
        List<DescriptorCheck.Case> cases = new ArrayList<>();
        for (int i = 0; i < makers.size(); i++) {
            cases.add(at(i, i % 8, makers.get(i).apply(i + 1)));
        }
        try (DescriptorHarness b = run(cfg, cases, 0.6, 40_000)) {
            assertThat(b.controls).hasSize(12);
            assertThat(b.getPackets()).isEqualTo(2);
            assertThat(b.events).hasSize(1); // the first GET asked for a send completion
            assertThat(b.srcs).hasSize(1 + 2 + 1 + 2 + 17 + 30); // NAP indirect of 2048 bytes, 2 PUTs, the chains
            assertThat(b.dsts).hasSize(2 + 1 + 1 + 23 + 10);
            assertThat(b.napBeats).hasSize(1 + 128 + 3);
            assertThat(b.sim.peek(b.d.freeTags)).isEqualTo(32);
            assertThat(b.sim.peek(b.d.refused)).isZero();
        }
    }

    @Test
    void malformedDescriptorsAreRefusedWithTheFormatsStatusAndNothingIsSent(RunConfig cfg) {
        List<DescriptorCheck.Case> cases = new ArrayList<>();
        Rng r = new Rng(5);
        int n = 0;
        // each corruption of a valid descriptor, and the rule the software decoder names for it
        List<byte[]> bad = new ArrayList<>();
        List<Integer> qps = new ArrayList<>();
        byte[] put = new Descriptor.Put(common(1, true, 0), 4096, 0x1000, 0x2000).encode();
        byte[] b;
        b = put.clone(); b[0] = (byte) (b[0] & 0xF0 | 7); bad.add(b); qps.add(1);                 // unknown kind
        b = put.clone(); b[0] = (byte) (b[0] & 0xF0); bad.add(b); qps.add(1);                     // kind 0
        b = put.clone(); b[1] = 1; bad.add(b); qps.add(1);                                        // reserved 15:8
        b = put.clone(); b[15] = (byte) 0x80; bad.add(b); qps.add(1);                             // reserved 127
        b = put.clone(); bad.add(b); qps.add(2);                                                  // QP mismatch
        b = put.clone(); b[8] = b[9] = b[10] = b[11] = 0; bad.add(b); qps.add(1);                 // zero length
        b = put.clone(); b[30] = 1; bad.add(b); qps.add(1);                                       // dst beyond 2^48
        b = new Descriptor.Put(common(1, true, 0), 0x1000, 0, 0xFFFF_FFFF_F000L).encode(); b[8] = 1; b[9] = 0x10; bad.add(b); qps.add(1); // end beyond 2^48
        b = new Descriptor.NapIndirect(common(0, true, 0), 100, 0x99).encode(); b[0] &= 0x7F; bad.add(b); qps.add(0);    // NAP without RCE
        b = new Descriptor.NapIndirect(common(0, true, 0), 100, 0x99).encode(); b[9] = 0x09; bad.add(b); qps.add(0);     // NAP 2404 bytes
        b = new Descriptor.NapImmediate(common(0, true, 0), pattern(5, 1)).encode(); b[23] = 1; bad.add(b); qps.add(0);  // padding
        b = new Descriptor.NapImmediate(common(0, true, 0), pattern(5, 1)).encode(); b[8] = 13; bad.add(b); qps.add(0);  // size
        Descriptor.Chain ch = chain(3, 0, 3, 4, r);
        b = ch.encode(); b[16 + 8] ^= 1; bad.add(b); qps.add(3);                                   // totals differ: LENGTH_MISMATCH
        b = ch.encode(); b[16 + 8] ^= 1; b[1] = 1; bad.add(b); qps.add(3);                         // ... and reserved: BAD_DESCRIPTOR
        b = ch.encode(); b[16 + 8] ^= 1; bad.add(b); qps.add(2);                                   // ... and QP: LENGTH_MISMATCH first
        b = ch.encode(); b[16 + 16 * 5 + 8] = b[16 + 16 * 5 + 9] = b[16 + 16 * 5 + 10] = b[16 + 16 * 5 + 11] = 0; bad.add(b); qps.add(3); // zero segment
        b = ch.encode(); b[16 + 16 * 4 + 6] = 1; bad.add(b); qps.add(3);                          // dst segment beyond 2^48
        b = ch.encode(); b[16 + 16 * 2 + 12] = 1; bad.add(b); qps.add(3);                         // segment reserved
        b = ch.encode(); b[8] = 0; bad.add(b); qps.add(3);                                        // no source segments
        b = ch.encode(); b[9] = 5; bad.add(b); qps.add(3);                                        // counts vs size
        b = ch.encode(); b[8] = (byte) 200; b[9] = 100; bad.add(b); qps.add(3);                   // too many
        for (int i = 0; i < bad.size(); i++) {
            byte[] x = bad.get(i);
            x[6] = (byte) (i + 1); // cookie = case number
            x[7] = 0;
            cases.add(new DescriptorCheck.Case(i % 8, qps.get(i), 0x20_0000L + 0x2000L * i, x, x.length));
        }
        // a valid chain whose total is 2^32 (each count fine, the sum not): TRANSFER_TOO_LARGE
        n = cases.size();
        List<Descriptor.Segment> big = List.of(new Descriptor.Segment(0, 0xFFFF_FFFFL), new Descriptor.Segment(8, 1));
        byte[] tl = new Descriptor.Chain(common(0, false, n + 1), List.of(new Descriptor.Segment(0, 0xFFFF_FFFFL)),
                List.of(new Descriptor.Segment(0, 0xFFFF_FFFFL))).encode();
        // rewrite as 2 + 1 segments with totals 2^32 each side: SrcCount 2, one more source segment
        byte[] tl2 = new byte[16 + 16 * 3];
        System.arraycopy(tl, 0, tl2, 0, 32);
        tl2[8] = 2;
        tl2[9] = 1;
        System.arraycopy(tl, 16, tl2, 32, 16);
        tl2[32 + 8] = 1; tl2[32 + 9] = 0; tl2[32 + 10] = 0; tl2[32 + 11] = 0; // 1 byte
        System.arraycopy(tl, 32, tl2, 48, 16);
        tl2[48 + 12] = 1; tl2[48 + 8] = 0; tl2[48 + 9] = 0; tl2[48 + 10] = 0; tl2[48 + 11] = 0; // 2^32
        assertThat(big).hasSize(2);
        cases.add(new DescriptorCheck.Case(2, 0, 0x30_0000L, tl2, tl2.length));
        // doorbell lengths the formats refuse: no read at all
        byte[] ok = new Descriptor.Put(common(1, false, n + 2), 64, 0x10, 0x20).encode();
        cases.add(new DescriptorCheck.Case(4, 1, 0x31_0000L, ok, 8));
        cases.add(new DescriptorCheck.Case(5, 1, 0x32_0000L, ok, 30));
        cases.add(new DescriptorCheck.Case(6, 1, 0x33_0004L, ok, 32));
        cases.add(new DescriptorCheck.Case(7, 1, 0x34_0000L, new byte[4104], 4104));
        // and a good one after them all
        cases.add(at(40, 3, new Descriptor.Put(common(2, false, cases.size() + 1), 9, 0x11, 0x22)));
        for (DescriptorCheck.Case c : cases.subList(0, n + 1)) {
            assertThat(DescriptorCheck.verdict(c)).as("every corrupted case is refused by the decoder").isInstanceOf(Rule.class);
        }
        try (DescriptorHarness bench = run(cfg, cases, 1.0, 20_000)) {
            assertThat(bench.controls).hasSize(1);
            assertThat(bench.events).hasSize(cases.size() - 1);
            assertThat(bench.events.stream().filter(e -> e.status() == CompletionStatus.LENGTH_MISMATCH.code()).count()).isEqualTo(2);
            assertThat(bench.sim.peek(bench.d.refusedDoorbells)).isEqualTo(4);
            assertThat(bench.host.reads()).hasSize(cases.size() - 4);
            assertThat(bench.sim.peek(bench.d.refused)).isEqualTo(n + 1);
            assertThat(bench.srcs).hasSize(1);
            assertThat(bench.getBeats).isEmpty();
        }
    }
}
