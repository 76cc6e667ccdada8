package org.flitkit.rtl.chpp.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The completion ring writer against the real PCIe host model and host memory (docs/chpp-receive-engine.md,
 * "CompletionRing"): exact entries in exact order with the Phase of their lap; a full ring back-pressures and never
 * overwrites; wrap-around many times; the consumer register refuses an index beyond the producer.
 */
@ExtendWith(TestbenchExtension.class)
class CompletionRingTest {

    static RingHarness run(RunConfig cfg, String part, CompletionRingParams p, int entries, double gapP, double pollP, double returnP) {
        RingHarness b = new RingHarness(cfg, part, p, gapP, pollP, returnP);
        Rng rng = b.tb.rng("entries");
        for (int i = 0; i < entries; i++) {
            b.post(RingHarness.randomEntry(rng), i);
        }
        b.start();
        b.tb.runUntil("every entry read by software", b::done, 400L * entries + 1000);
        b.tb.run(50);
        b.tb.finish();
        assertThat(b.board.matched()).isEqualTo(entries);
        assertThat(b.hostWrites).isEqualTo(entries);
        assertThat(b.peek(b.tb.dut().ring.written)).isEqualTo(entries);
        assertThat(b.peek(b.tb.dut().ring.producer.get(0))).isEqualTo(entries % (2L * p.entries()));
        assertThat(b.peek(b.tb.dut().ring.badConsumer)).isZero();
        return b;
    }

    @Test
    void randomRatesExactEntriesInOrderWrappingManyTimes(RunConfig cfg) {
        try (RingHarness b = run(cfg, "random", new CompletionRingParams(16, 0x40), 3000, 0.3, 0.5, 0.3)) {
            // 3000 entries through 16 slots: 187 wraps, every phase flip seen by software
            assertThat(3000 / 16).isEqualTo(187);
            System.out.printf("ring 16, random rates (seed %d): %d entries in %d cycles, %d full cycles, %d consumer writes%n",
                    cfg.seed(), b.board.matched(), b.tb.cycle(), b.peek(b.tb.dut().ring.fullCycles), b.sw.returns.size());
        }
    }

    @Test
    void slowConsumerBackPressuresAndNothingIsOverwritten(RunConfig cfg) {
        // software polls 1 cycle in 20 and returns rarely: the ring is full most of the time
        try (RingHarness b = run(cfg, "slow", new CompletionRingParams(8, 0), 600, 0.0, 0.05, 0.05)) {
            long full = b.peek(b.tb.dut().ring.fullCycles);
            assertThat(full).as("cycles the ring held its input off").isGreaterThan(b.tb.cycle() / 2);
            System.out.printf("ring 8, slow consumer (seed %d): 600 entries in %d cycles, full %d cycles%n", cfg.seed(), b.tb.cycle(), full);
        }
    }

    @Test
    void aFullRingTakesExactlyItsSizeThenOneMorePerReturnedEntry(RunConfig cfg) {
        CompletionRingParams p = new CompletionRingParams(4, 0x20);
        try (RingHarness b = new RingHarness(cfg, "full", p, 0.0, 1.0, 0.0)) {
            Rng rng = b.tb.rng("entries");
            for (int i = 0; i < 10; i++) {
                b.post(RingHarness.randomEntry(rng), i);
            }
            b.sw.asleep = true;
            b.start();
            b.tb.run(300);
            // four slots, nothing returned: exactly four writes, the fifth entry waits
            assertThat(b.hostWrites).isEqualTo(4);
            assertThat(b.producer.taken).isEqualTo(4);
            assertThat(b.peek(b.tb.dut().ring.producer.get(0))).isEqualTo(4);
            assertThat(b.peek(b.tb.dut().ring.fullCycles)).isPositive();
            // software reads all four but returns only two: exactly two more entries (into slots 0 and 1)
            b.sw.asleep = false;
            b.tb.runUntil("four read", () -> b.sw.read == 4, 100);
            b.sw.asleep = true;
            b.host.mmioWrite(p.mmioOffset() + CompletionRingParams.REG_CONSUMER, 2);
            b.tb.run(300);
            assertThat(b.hostWrites).isEqualTo(6);
            assertThat(b.peek(b.tb.dut().ring.consumer.get(0))).isEqualTo(2);
            // a consumer index past the producer (7 entries returned, 6 produced) is refused and counted
            b.host.mmioWrite(p.mmioOffset() + CompletionRingParams.REG_CONSUMER, 7);
            b.tb.run(100);
            assertThat(b.peek(b.tb.dut().ring.badConsumer)).isEqualTo(1);
            assertThat(b.peek(b.tb.dut().ring.consumer.get(0))).isEqualTo(2);
            assertThat(b.hostWrites).isEqualTo(6);
            // software catches up: the rest arrive, second-lap entries with Phase 0
            b.sw.read = 4;
            b.sw.returned = 2;
            b.sw.asleep = false;
            b.sw.returnAlways = true;
            b.tb.runUntil("all read", b::done, 2000);
            b.tb.finish();
            assertThat(b.board.matched()).isEqualTo(10);
            assertThat(b.hostWrites).isEqualTo(10);
        }
    }

    @Test
    void nothingIsWrittenBeforeTheBaseIsSet(RunConfig cfg) {
        try (RingHarness b = new RingHarness(cfg, "nobase", new CompletionRingParams(4, 0), 0.0, 1.0, 1.0)) {
            b.post(RingHarness.randomEntry(b.tb.rng("e")), 0);
            b.tb.reset(1);
            b.tb.run(200);
            assertThat(b.hostWrites).isZero();
            assertThat(b.peek(b.tb.dut().ring.enabled.get(0))).isZero();
            b.host.mmioWrite(CompletionRingParams.REG_BASE, RingHarness.BASE);
            b.tb.runUntil("read", b::done, 500);
            assertThat(b.hostWrites).isEqualTo(1);
        }
    }

    @Test
    void withAFastConsumerTheLinkSetsTheRate(RunConfig cfg) {
        // 1024 slots never fill with 300 entries: each 16-byte posted write pays the cHPP link's TLP header and
        // processing cycles (docs/host-pcie.md), so entries leave every RING_WRITE_CYCLES cycles
        try (RingHarness b = run(cfg, "rate", new CompletionRingParams(1024, 0), 300, 0.0, 1.0, 1.0)) {
            List<Long> c = b.writeCycles;
            for (int i = 1; i < c.size(); i++) {
                assertThat(c.get(i) - c.get(i - 1)).as("gap before write %d", i).isEqualTo(RING_WRITE_CYCLES);
            }
            assertThat(b.peek(b.tb.dut().ring.fullCycles)).isZero();
            System.out.printf("ring 1024, fast consumer: one 16-byte entry every %d cycles (%.1f M entries/s at 250 MHz)%n",
                    RING_WRITE_CYCLES, 250.0 / RING_WRITE_CYCLES);
        }
    }

    @Test
    void aSmallRingIsLimitedByTheReturnRoundTrip(RunConfig cfg) {
        // a slot is free again only after its write is visible (65 cycles) and software's BAR write came back (65)
        java.util.Map<Integer, Long> spans = new java.util.TreeMap<>();
        for (int n : new int[] {16, 32, 64}) {
            try (RingHarness b = run(cfg, "rt" + n, new CompletionRingParams(n, 0), 20 * n, 0.0, 1.0, 1.0)) {
                List<Long> c = b.writeCycles;
                long span = c.get(c.size() - 1) - c.get(4 * n);
                System.out.printf("ring %d, fast consumer: %d entries in %d cycles after the first 4 laps (%.2f cycles/entry)%n",
                        n, c.size() - 1 - 4 * n, span, (double) span / (c.size() - 1 - 4 * n));
                spans.put(n, span);
            }
        }
        // 16 slots per ~126-cycle return round trip; 32 still bound by it (4.03 cycles/entry); 64 reaches the link's 3
        assertThat(spans).containsExactly(java.util.Map.entry(16, 2010L), java.util.Map.entry(32, 2058L), java.util.Map.entry(64, 3069L));
    }

    /** Cycles per entry on the cHPP link: 1 header + 1 data + 1 processing cycle per 16-byte posted write. */
    static final long RING_WRITE_CYCLES = 3;

    @Test
    void aSendRingCarriesSendCompletionsUnchanged(RunConfig cfg) {
        // the send completion ring is the same block: 40 send completions into 64 slots, read back from host memory
        try (RingHarness b = new RingHarness(cfg, "send", new CompletionRingParams(64, 0x80), 0.0, 1.0, 1.0)) {
            Rng rng = b.tb.rng("entries");
            java.util.List<org.flitkit.formats.chpp.SendCompletion> sent = new java.util.ArrayList<>();
            org.flitkit.formats.chpp.DescKind[] kinds = org.flitkit.formats.chpp.DescKind.values();
            org.flitkit.formats.chpp.CompletionStatus[] st = {org.flitkit.formats.chpp.CompletionStatus.OK, org.flitkit.formats.chpp.CompletionStatus.BAD_DESCRIPTOR,
                    org.flitkit.formats.chpp.CompletionStatus.LENGTH_MISMATCH, org.flitkit.formats.chpp.CompletionStatus.PCIE_ERROR};
            for (int i = 0; i < 40; i++) {
                var e = new org.flitkit.formats.chpp.SendCompletion(kinds[rng.nextInt(kinds.length)], rng.nextInt(4),
                        st[rng.nextInt(st.length)], rng.nextInt(1 << 16), rng.nextLong() >>> 32, false);
                sent.add(e);
                b.producer.beat(org.flitkit.env.host.PcieHost.fromLittleEndian(e.encode()));
            }
            b.sw.asleep = true;
            b.start();
            b.tb.runUntil("all written", () -> b.hostWrites == 40 && b.host.idle(), 1000);
            b.tb.finish();
            for (int i = 0; i < 40; i++) {
                var e = sent.get(i);
                assertThat(org.flitkit.formats.chpp.SendCompletion.decode(b.mem.read(RingHarness.BASE + 16L * i, 16)))
                        .isEqualTo(new org.flitkit.formats.chpp.SendCompletion(e.kind(), e.qp(), e.status(), e.cookie(), e.bytes(), true));
            }
        }
    }

    /**
     * Four rings, bases written in a shuffled order (ring r's at offset 16 r): each entry goes to its own ring's
     * base plus its slot, whatever order the rings are written and posted in.
     */
    @Test
    void eachRingWritesAtItsOwnBase() {
        org.flitkit.hdl.Circuit c = org.flitkit.hdl.Circuit.elaborate(() -> new CompletionRing(new CompletionRingParams(8, 0x200), 4));
        CompletionRing ring = (CompletionRing) c.top();
        org.flitkit.hdl.sim.Simulator sim = org.flitkit.hdl.sim.Simulator.of(c);
        sim.reset(1);
        sim.poke(ring.dmaRq.ready, true);
        long[] base = {0x1000_0000L, 0x2000_0100L, 0x3000_0200L, 0x4000_0300L};
        for (int r : new int[] {2, 0, 3, 1}) {
            sim.poke(ring.mmio.valid, true);
            sim.poke(ring.mmio.bits.addr, 0x200 + 16L * r);
            sim.poke(ring.mmio.bits.data, base[r]);
            sim.step();
        }
        sim.poke(ring.mmio.valid, false);
        List<Long> addresses = new java.util.ArrayList<>();
        int[] order = {3, 1, 1, 0, 2, 3};
        for (int r : order) {
            sim.poke(ring.in.valid, true);
            sim.poke(ring.in.bits.ring, r);
            sim.poke(ring.in.bits.entry, 0x5L);
            assertThat(sim.peekBool(ring.dmaRq.valid)).isTrue();
            addresses.add(sim.peek(ring.dmaRq.bits.addr));
            sim.step();
        }
        assertThat(addresses).containsExactly(base[3], base[1], base[1] + 16, base[0], base[2], base[3] + 16);
        assertThat(sim.peek(ring.written)).isEqualTo(order.length);
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> new CompletionRingParams(12, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entries must be a power of two in 2..65536").hasMessageContaining("got 12");
        assertThatThrownBy(() -> new CompletionRingParams(1, 0)).hasMessageContaining("got 1");
        assertThatThrownBy(() -> new CompletionRingParams(1 << 17, 0)).hasMessageContaining("got 131072");
        assertThatThrownBy(() -> new CompletionRingParams(16, 8)).hasMessageContaining("mmioOffset must be 16-byte aligned").hasMessageContaining("got 8");
        assertThatThrownBy(() -> new CompletionRingParams(16, 1 << 24)).hasMessageContaining("mmioOffset");
        assertThatThrownBy(() -> org.flitkit.hdl.Circuit.elaborate(() -> new CompletionRing(new CompletionRingParams(16, 0), 33))).hasMessageContaining(
                "CompletionRing: 33 rings, but an entry names its ring in 5 bits (at most 32, one per local QP)");
    }
}
