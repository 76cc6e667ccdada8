package org.flitkit.env.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.host.BusDevice.CplBeat;
import org.flitkit.env.host.BusDevice.Driver;
import org.flitkit.env.host.BusDevice.Wire;
import org.flitkit.env.host.PcieHost.ReadOutcome;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cHPP paper's PCIe figures from the host model running (docs/host-pcie.md, "cHPP: 16-byte beats at 250 MHz"):
 * posted writes of 128 bytes at 16-byte beats reach 3.2 GB/s (1 header + 8 data + 1 processing cycle per TLP);
 * read bandwidth against the tags in flight, next to the paper's tag formula; completions split at the read
 * completion boundary and max payload at 16-byte beats, interleaved between tags or not; error and lost completions.
 */
@ExtendWith(TestbenchExtension.class)
class ChppLinkTest {
    static final PcieParams CHPP = PcieParams.chpp();

    record Harness(Testbench<Wire> tb, PcieHost host, Driver dev) implements AutoCloseable {
        @Override
        public void close() {
            tb.close();
        }
    }

    static Harness bench(RunConfig cfg, String part, int beatBytes, PcieParams p, HostMemory mem) {
        Testbench<Wire> tb = Testbench.create(() -> new Wire(beatBytes), cfg.part(part));
        Wire w = tb.dut();
        PcieHost host = tb.add(new PcieHost("host", mem, p).dma(w.dmaRq, w.dmaCpl));
        Driver dev = tb.add(new Driver(w));
        return new Harness(tb, host, dev);
    }

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 13 + seed);
        }
        return b;
    }

    /** Gigabytes per second of {@code bytes} in {@code cycles} at {@code mhz}. */
    static double gbPerSecond(long bytes, long cycles, double mhz) {
        return bytes * mhz * 1e6 / cycles / 1e9;
    }

    // ---- (a) posted writes: 3.2 GB/s ----

    /** Back-to-back 128-byte writes: cycles at which the device's write beats were taken. */
    static List<Long> postWrites(RunConfig cfg, String part, int beatBytes, PcieParams p, int writes, HostMemory mem) {
        try (Harness b = bench(cfg, part, beatBytes, p, mem)) {
            for (int i = 0; i < writes; i++) {
                b.dev().write(0x10000 + 128L * i, pattern(128, i));
            }
            b.tb().reset(1);
            b.tb().runUntil("all writes visible", () -> b.dev().done() && b.host().idle(), 20 * writes + 500);
            b.tb().finish();
            return b.dev().writeBeats;
        }
    }

    @Test
    void postedWritesOf128BytesAt16ByteBeatsRun12Point8BytesPerCycleThatIs3Point2GBps(RunConfig cfg) {
        int n = 200;
        HostMemory mem = new HostMemory();
        List<Long> taken = postWrites(cfg, "b16", 16, CHPP, n, mem);
        assertThat(taken).hasSize(8 * n);
        long t0 = taken.get(0);
        // each TLP: header with the first beat, 7 more beats, processing: beats at +0, +2..+8, the next TLP at +10
        assertThat(taken.subList(0, 16)).containsExactly(t0, t0 + 2, t0 + 3, t0 + 4, t0 + 5, t0 + 6, t0 + 7, t0 + 8,
                t0 + 10, t0 + 12, t0 + 13, t0 + 14, t0 + 15, t0 + 16, t0 + 17, t0 + 18);
        // steady state: a window of 1000 cycles well inside the run
        long from = t0 + 300;
        long beats = taken.stream().filter(c -> c >= from && c < from + 1000).count();
        assertThat(16 * beats).isEqualTo(12_800); // 12.8 bytes per cycle
        assertThat(gbPerSecond(16 * beats, 1000, PcieParams.CHPP_CLOCK_MHZ)).isEqualTo(3.2);
        // the whole run: n TLPs of 10 cycles each, the last beat 2 cycles before the end of the last TLP
        assertThat(taken.get(taken.size() - 1) - t0 + 2).isEqualTo(10L * n);
        for (int i = 0; i < n; i++) {
            assertThat(mem.read(0x10000 + 128L * i, 128)).isEqualTo(pattern(128, i));
        }
    }

    @Test
    void theLinkNotTheBeatWidthSetsTheWriteRate(RunConfig cfg) {
        Map<String, Long> bytesPer1000 = new LinkedHashMap<>();
        for (int beatBytes : new int[] {16, 32, 64}) {
            List<Long> taken = postWrites(cfg, "w" + beatBytes, beatBytes, CHPP, 150, new HostMemory());
            long from = taken.get(0) + 200;
            bytesPer1000.put(beatBytes + " B beats", beatBytes * taken.stream().filter(c -> c >= from && c < from + 1000).count());
        }
        // without the link model, a 16-byte bus takes a beat every cycle: 16 bytes per cycle
        List<Long> free = postWrites(cfg, "nolink", 16, CHPP.withLink(null), 150, new HostMemory());
        long from = free.get(0) + 200;
        bytesPer1000.put("no link", 16 * free.stream().filter(c -> c >= from && c < from + 1000).count());
        assertThat(bytesPer1000).containsExactly(Map.entry("16 B beats", 12_800L), Map.entry("32 B beats", 12_800L),
                Map.entry("64 B beats", 12_800L), Map.entry("no link", 16_000L));
    }

    @Test
    void aLongWriteIsCutIntoMaxPayloadTlpsEachPayingHeaderAndProcessing(RunConfig cfg) {
        HostMemory mem = new HostMemory();
        try (Harness b = bench(cfg, "4k", 16, CHPP, mem)) {
            byte[] data = pattern(4096, 5);
            b.dev().write(0x40000, data);
            b.tb().reset(1);
            b.tb().runUntil("the write is visible", () -> b.dev().done() && b.host().idle(), 1000);
            b.tb().finish();
            List<Long> taken = b.dev().writeBeats;
            assertThat(taken).hasSize(256);
            // 32 TLPs of 128 bytes: 320 link cycles, the last beat 2 cycles before the end
            assertThat(taken.get(255) - taken.get(0) + 2).isEqualTo(320);
            assertThat(b.host().writes()).hasSize(1);
            assertThat(mem.read(0x40000, 4096)).isEqualTo(data);
        }
    }

    // ---- (b) reads: tags in flight against the paper's formula ----

    /** Completion bytes the device takes in a steady-state window of {@code window} cycles with {@code tags} reads in flight. */
    static long readBytes(RunConfig cfg, int tags, int window) {
        try (Harness b = bench(cfg, "tags" + tags, 16, CHPP, new HostMemory())) {
            b.dev().stream(0x100000, 128, Long.MAX_VALUE, tags);
            b.tb().reset(1);
            long c0 = b.tb().cycle();
            b.tb().run(2000 + window);
            return b.dev().bytesIn(c0 + 2000, c0 + 2000 + window);
        }
    }

    @Test
    void readBandwidthAgainstTagsInFlightAndThePapersFormula(RunConfig cfg) {
        DmaParams d = CHPP.dma();
        int size = 128;
        int mtu = d.maxPayloadBytes();
        // the paper's formula: n = t / (Size/16 + 2 Size/MTU), 16 bytes per cycle, 2 cycles per returned packet
        double formula = d.readRoundTripCycles() / (size / 16.0 + 2.0 * size / mtu);
        assertThat(formula).isEqualTo(13.0);
        // a window of 1380 cycles: 10 of a tag's periods (130 round trip + 8 beats) and 138 link slots of 10 cycles
        int window = 1380;
        Map<Integer, Long> measured = new LinkedHashMap<>();
        for (int tags : new int[] {1, 2, 4, 8, 13, 14, 16, 32}) {
            measured.put(tags, readBytes(cfg, tags, window));
        }
        // below saturation each tag returns 128 bytes every 138 cycles: n x 1280 bytes in the window
        // (n x 0.9275 bytes per cycle); from 14 tags the link is full: 12.8 bytes per cycle = 3.2 GB/s
        assertThat(measured).containsExactly(Map.entry(1, 1_280L), Map.entry(2, 2_560L), Map.entry(4, 5_120L), Map.entry(8, 10_240L),
                Map.entry(13, 16_640L), Map.entry(14, 17_664L), Map.entry(16, 17_664L), Map.entry(32, 17_664L));
        assertThat(gbPerSecond(measured.get(32), window, PcieParams.CHPP_CLOCK_MHZ)).isEqualTo(3.2);
        // the formula's 13 tags reach 16640 / 17664 = 94 %: a tag is held for the round trip plus the 8 data beats
        // (138 cycles), so the model needs ceil(138 / 10) = 14
        long full = measured.get(32);
        int needed = measured.entrySet().stream().filter(e -> e.getValue() == full).mapToInt(Map.Entry::getKey).min().orElseThrow();
        assertThat(needed).isEqualTo(14);
    }

    @Test
    void oneTagsRoundTripIs130CyclesToTheFirstBeat(RunConfig cfg) {
        try (Harness b = bench(cfg, "rt", 16, CHPP, new HostMemory())) {
            b.dev().stream(0x100000, 128, 3, 1);
            b.tb().reset(1);
            b.tb().runUntil("three reads", () -> b.dev().done(), 1000);
            b.tb().finish();
            List<Long> firsts = new ArrayList<>();
            List<CplBeat> beats = b.dev().beats;
            for (int i = 0; i < beats.size(); i += 8) {
                firsts.add(beats.get(i).cycle());
            }
            assertThat(b.dev().issued).hasSize(3);
            for (int i = 0; i < 3; i++) {
                long req = b.dev().issued.get(i).cycle();
                assertThat(firsts.get(i)).isEqualTo(req + 130);
                assertThat(beats.get(8 * i + 7).cycle()).isEqualTo(req + 137);
                if (i > 0) {
                    // the tag is reissued the cycle after its last beat
                    assertThat(req).isEqualTo(beats.get(8 * i - 1).cycle() + 1);
                }
            }
        }
    }

    // ---- (c) completions at 16-byte beats: split, interleaved, errors, lost ----

    @Test
    void completionsSplitAtTheBoundaryAndMaxPayloadAs16ByteBeatsWithLinkTiming(RunConfig cfg) {
        HostMemory mem = new HostMemory();
        byte[] data = pattern(300, 9);
        mem.write(0x2028, data);
        try (Harness b = bench(cfg, "split", 16, CHPP, mem)) {
            b.dev().read(0x2028, 300, 3);
            b.tb().reset(1);
            b.tb().runUntil("the read", () -> b.dev().done(), 1000);
            b.tb().finish();
            long req = b.dev().issued.get(0).cycle();
            List<CplBeat> beats = b.dev().beats;
            // completions of 88 (to the 64-byte boundary 0x2080), 128 (max payload) and 84 bytes
            assertThat(beats).extracting(CplBeat::bytes).containsExactly(16, 16, 16, 16, 16, 8, 16, 16, 16, 16, 16, 16, 16, 16,
                    16, 16, 16, 16, 16, 4);
            assertThat(beats).filteredOn(CplBeat::last).containsExactly(beats.get(beats.size() - 1));
            // each TLP: header, ceil(bytes/16) beats, processing: 6 beats from +130, 8 from +138, 6 from +148
            List<Long> want = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                want.add(req + 130 + i);
            }
            for (int i = 0; i < 8; i++) {
                want.add(req + 138 + i);
            }
            for (int i = 0; i < 6; i++) {
                want.add(req + 148 + i);
            }
            assertThat(beats).extracting(CplBeat::cycle).containsExactlyElementsOf(want);
            assertThat(joined(beats)).isEqualTo(data);
            assertThat(beats).extracting(CplBeat::tag).containsOnly(3);
        }
    }

    @Test
    void completionBeatsWiderThanTheLinkAreOfferedWhenTheLinkHasCarriedTheirLastByte(RunConfig cfg) {
        Map<Integer, List<Long>> offsets = new LinkedHashMap<>();
        for (int beatBytes : new int[] {16, 32, 64}) {
            HostMemory mem = new HostMemory();
            mem.write(0x1000, pattern(256, 7));
            try (Harness b = bench(cfg, "wide" + beatBytes, beatBytes, CHPP, mem)) {
                b.dev().read(0x1000, 256, 5);
                b.tb().reset(1);
                b.tb().runUntil("the read", () -> b.dev().done(), 1000);
                b.tb().finish();
                long req = b.dev().issued.get(0).cycle();
                assertThat(joined(b.dev().beats)).isEqualTo(pattern(256, 7));
                offsets.put(beatBytes, b.dev().beats.stream().map(x -> x.cycle() - req).toList());
            }
        }
        // two 128-byte TLPs, 10 link cycles each; a beat of B bytes needs B/16 link cycles; the first beat at the round trip
        assertThat(offsets).containsExactly(
                Map.entry(16, List.of(130L, 131L, 132L, 133L, 134L, 135L, 136L, 137L, 140L, 141L, 142L, 143L, 144L, 145L, 146L, 147L)),
                Map.entry(32, List.of(130L, 132L, 134L, 136L, 140L, 142L, 144L, 146L)),
                Map.entry(64, List.of(130L, 134L, 140L, 144L)));
    }

    /** Two 256-byte reads (two 128-byte completions each) on tags 0 and 1; the tag of each completion TLP in link order. */
    static List<Integer> tlpTags(RunConfig cfg, String part, boolean interleave) {
        HostMemory mem = new HostMemory();
        mem.write(0x1000, pattern(256, 1));
        mem.write(0x3000, pattern(256, 2));
        PcieParams p = CHPP.withLink(CHPP.link().withInterleave(interleave));
        try (Harness b = bench(cfg, part, 16, p, mem)) {
            b.dev().read(0x1000, 256, 0).read(0x3000, 256, 1);
            b.tb().reset(1);
            b.tb().runUntil("both reads", () -> b.dev().done(), 1000);
            b.tb().finish();
            List<CplBeat> beats = b.dev().beats;
            assertThat(beats).hasSize(32);
            assertThat(joined(beats.stream().filter(x -> x.tag() == 0).toList())).isEqualTo(pattern(256, 1));
            assertThat(joined(beats.stream().filter(x -> x.tag() == 1).toList())).isEqualTo(pattern(256, 2));
            // the link never idles between the four TLPs: first beats 10 cycles apart
            long first = beats.get(0).cycle();
            List<Integer> tags = new ArrayList<>();
            for (int i = 0; i < 32; i += 8) {
                assertThat(beats.get(i).cycle()).isEqualTo(first + 10L * (i / 8));
                tags.add(beats.get(i).tag());
            }
            assertThat(first).isEqualTo(b.dev().issued.get(0).cycle() + 130);
            return tags;
        }
    }

    @Test
    void completionsOfDifferentTagsInterleaveWhenEnabled(RunConfig cfg) {
        assertThat(tlpTags(cfg, "fifo", false)).containsExactly(0, 0, 1, 1);
        assertThat(tlpTags(cfg, "interleaved", true)).containsExactly(0, 1, 0, 1);
    }

    @Test
    void errorCompletionsAt16ByteBeatsTakeAHeaderAndAProcessingCycle(RunConfig cfg) {
        HostMemory mem = new HostMemory();
        mem.write(0x8000, pattern(32, 4));
        try (Harness b = bench(cfg, "err", 16, CHPP, mem)) {
            b.host().readFaults((addr, len, rng) -> addr == 0x5000 ? ReadOutcome.UR : addr == 0x6000 ? ReadOutcome.CA : ReadOutcome.OK);
            b.dev().read(0x5000, 64, 0).read(0x6000, 64, 1).read(0x8000, 32, 2);
            b.tb().reset(1);
            b.tb().runUntil("three reads", () -> b.dev().done(), 1000);
            b.tb().finish();
            List<BusDevice.Issued> rq = b.dev().issued;
            // read requests 2 cycles apart (header + processing on the device-to-host link)
            assertThat(rq.get(1).cycle()).isEqualTo(rq.get(0).cycle() + 2);
            assertThat(rq.get(2).cycle()).isEqualTo(rq.get(0).cycle() + 4);
            long r0 = rq.get(0).cycle();
            List<CplBeat> beats = b.dev().beats;
            assertThat(beats).extracting(CplBeat::tag).containsExactly(0, 1, 2, 2);
            assertThat(beats).extracting(CplBeat::status).containsExactly(Pcie.UR, Pcie.CA, Pcie.SC, Pcie.SC);
            assertThat(beats).extracting(CplBeat::bytes).containsExactly(0, 0, 16, 16);
            assertThat(beats).extracting(CplBeat::last).containsExactly(true, true, false, true);
            // UR at +130 (its header), link free at +132; CA due at +132 goes at once; the data TLP's header
            // at +134, its beats at +135 and +136
            assertThat(beats).extracting(CplBeat::cycle).containsExactly(r0 + 130, r0 + 132, r0 + 135, r0 + 136);
            assertThat(joined(beats.subList(2, 4))).isEqualTo(pattern(32, 4));
            assertThat(b.host().idle()).isTrue();
        }
    }

    @Test
    void aLostCompletionAt16ByteBeatsNeverArrivesAndLeavesTheLinkToOthers(RunConfig cfg) {
        HostMemory mem = new HostMemory();
        mem.write(0x9000, pattern(48, 6));
        try (Harness b = bench(cfg, "lost", 16, CHPP, mem)) {
            b.host().readFaults(PcieHost.ReadFaults.inRange(0x3000, 0x3040, ReadOutcome.LOST));
            b.dev().read(0x3000, 64, 0).read(0x9000, 48, 1);
            b.tb().reset(1);
            b.tb().run(1000);
            b.tb().finish();
            assertThat(b.host().reads()).extracting(PcieHost.Read::outcome).containsExactly(ReadOutcome.LOST, ReadOutcome.OK);
            List<CplBeat> beats = b.dev().beats;
            assertThat(beats).extracting(CplBeat::tag).containsExactly(1, 1, 1);
            assertThat(beats.get(0).cycle()).isEqualTo(b.dev().issued.get(1).cycle() + 130);
            assertThat(joined(beats)).isEqualTo(pattern(48, 6));
            // the device still holds tag 0: its completion timeout must give it up
            assertThat(b.dev().done()).isFalse();
            assertThat(b.host().idle()).isTrue();
        }
    }

    @Test
    void randomReadsUnderCompletionBackpressureKeepEveryTagsDataInOrder(RunConfig cfg) {
        HostMemory mem = new HostMemory();
        byte[] image = pattern(1 << 16, 3);
        mem.write(0x200000, image);
        org.flitkit.testbench.Rng rng = new org.flitkit.testbench.Rng(cfg.seed()).fork("reads");
        int n = 150;
        int tags = 8;
        List<long[]> reads = new ArrayList<>(); // addr, len, tag
        try (Harness b = bench(cfg, "random", 16, CHPP, mem)) {
            for (int i = 0; i < n; i++) {
                int len = 1 + rng.nextInt(512);
                long off = rng.nextInt((1 << 16) - 512);
                long addr = 0x200000 + off;
                if ((addr & ~0xFFFL) != ((addr + len - 1) & ~0xFFFL)) {
                    len = (int) (((addr | 0xFFF) + 1) - addr); // stop at the 4 KB boundary
                }
                reads.add(new long[] {addr, len, i % tags});
                b.dev().read(addr, len, i % tags);
            }
            b.dev().completionReady(0.6);
            b.tb().reset(1);
            b.tb().runUntil("every read", () -> b.dev().done() && b.host().idle(), 100_000);
            b.tb().finish();
            List<CplBeat> beats = b.dev().beats;
            // per tag, the reads in issue order, each ending at its last beat with exactly its bytes
            for (int t = 0; t < tags; t++) {
                int tag = t;
                List<CplBeat> mine = beats.stream().filter(x -> x.tag() == tag).toList();
                int at = 0;
                for (long[] r : reads.stream().filter(r -> r[2] == tag).toList()) {
                    List<CplBeat> one = new ArrayList<>();
                    while (!mine.get(at).last()) {
                        one.add(mine.get(at++));
                    }
                    one.add(mine.get(at++));
                    assertThat(one).allMatch(x -> x.status() == Pcie.SC && x.bytes() >= 1 && x.bytes() <= 16);
                    assertThat(joined(one)).isEqualTo(mem.read(r[0], (int) r[1]));
                }
                assertThat(at).isEqualTo(mine.size());
            }
            // tags interleave somewhere: a beat of one tag between two beats of another read
            boolean interleaved = false;
            for (int i = 2; i < beats.size(); i++) {
                interleaved |= beats.get(i).tag() == beats.get(i - 2).tag() && beats.get(i - 1).tag() != beats.get(i).tag()
                        && !beats.get(i - 2).last();
            }
            assertThat(interleaved).isTrue();
        }
    }

    // ---- parameters ----

    @Test
    void beatWidthsAreCheckedAndTheHostTakesItsWidthFromTheBundles() {
        assertThat(new DmaRequest().beatBytes()).isEqualTo(64);
        assertThat(new DmaRequest().data.width()).isEqualTo(512);
        assertThat(new DmaCompletion().bytes.width()).isEqualTo(7);
        assertThat(new DmaRequest(16).data.width()).isEqualTo(128);
        assertThat(new DmaCompletion(16).bytes.width()).isEqualTo(5);
        assertThat(new DmaCompletion(32).bytes.width()).isEqualTo(6);
        assertThatThrownBy(() -> new DmaRequest(24)).hasMessage("PCIe data beat must be 16, 32 or 64 bytes (a 128-, 256- or 512-bit bus), got 24");
        assertThatThrownBy(() -> new DmaCompletion(128)).hasMessageContaining("got 128");
        org.flitkit.hdl.lib.Decoupled<DmaRequest> rq = org.flitkit.hdl.lib.Decoupled.of(() -> new DmaRequest(16));
        org.flitkit.hdl.lib.Decoupled<DmaCompletion> cpl = org.flitkit.hdl.lib.Decoupled.of(() -> new DmaCompletion(32));
        assertThatThrownBy(() -> new PcieHost("h", new HostMemory(), CHPP).dma(rq, cpl))
                .hasMessageContaining("DMA requests have 16-byte beats but completions 32-byte beats");
        assertThat(new PcieHost("h", new HostMemory(), CHPP).dma(rq, null).beatBytes()).isEqualTo(16);
    }

    @Test
    void chppParametersAndTheLinkRate() {
        DmaParams d = CHPP.dma();
        assertThat(d).isEqualTo(new DmaParams(130, 65, 32, 512, 128, 64));
        assertThat(CHPP.mmioLatencyCycles()).isEqualTo(65);
        // PCIe 2.0 x8: 8 lanes x 5 GT/s x 8/10 = 4 GB/s, at 250 MHz 16 bytes per cycle
        assertThat(CHPP.link()).isEqualTo(new PcieLink(16, 1, 1, true));
        assertThat(CHPP.link().tlpCycles(128)).isEqualTo(10);
        assertThat(PcieParams.th2().link()).isNull();
        assertThat(PcieLink.of(8, 5.0, 8, 10, 250, 1, 1, true)).isEqualTo(CHPP.link());
        // PCIe 3.0 x16 (128b/130b) at 1 GHz is 15.75 bytes per cycle: refused, the model moves whole bytes
        assertThatThrownBy(() -> PcieLink.of(16, 8.0, 128, 130, 1000, 1, 1, false)).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> new PcieLink(16, 0, 1, false)).hasMessageContaining("every TLP has a header");
    }

    static byte[] joined(List<CplBeat> beats) {
        int n = beats.stream().mapToInt(CplBeat::bytes).sum();
        byte[] out = new byte[n];
        int off = 0;
        for (CplBeat b : beats) {
            System.arraycopy(b.data(), 0, out, off, b.bytes());
            off += b.bytes();
        }
        return out;
    }
}
