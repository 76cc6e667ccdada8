package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.TagScoreboard;
import org.flitkit.rtl.chpp.receive.DispatchHarness;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.UInt;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieHost.ReadOutcome;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * NAP upload with buffer management and the central tag allocator against the real {@link PcieHost}
 * ({@code PcieParams.chpp()}): a software model posts 2 KB-aligned buffers in the host-side list and returns each
 * one after checking the message in it. Every NAP gets exactly one completion, in order; the buffers come out in
 * list order, each written exactly with its message and nothing else; running out posts NO_RECEIVE_BUFFER; refill
 * reads failing (UR, CA, lost) are counted, retried, and lose no buffer; the tag scoreboard checks every cycle.
 * docs/chpp-upload.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class NapUploadTest {
    static final int MPS = PcieParams.chpp().dma().maxPayloadBytes();
    static final long LIST = 0x7_0000_0100L;
    static final long BUFFERS = 0x9_0000_0000L;
    static final int CE_LAST = HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST;

    record Nap(List<BigInteger> beats, byte[] payload, int src, int dst) {
    }

    static Nap nap(Rng r, int len) {
        byte[] payload = UploadTestKit.bytes(r, len);
        int src = r.nextInt(256);
        int dst = r.nextInt(256);
        BigInteger h = DispatchHarness.header(0x60, PktType.NAP.code(), CE_LAST, len, r.nextInt(1 << 16), src, dst, 0);
        return new Nap(UploadTestKit.packet(h, payload, r.chance(0.5) ? r : null), payload, src, dst);
    }

    static final class Harness implements AutoCloseable {
        final Testbench<NapStages> tb;
        final NapStages d;
        final HostMemory mem = new HostMemory();
        final PcieHost listHost;
        final PcieHost napHost;
        final BeatSource driver;
        final Software sw;
        final BufferParams bp;
        final List<ReceiveCompletion> events = new ArrayList<>();
        final List<Nap> sent = new ArrayList<>();
        final List<Long> eventCycles = new ArrayList<>();

        Harness(RunConfig cfg, ChppParams p, BufferParams bp, int listSize, double gapP, double hostReady, double eventReady) {
            this.bp = bp;
            tb = Testbench.create(() -> new NapStages(p, bp, MPS), cfg);
            d = tb.dut();
            listHost = tb.add(new PcieHost("listHost", mem, PcieParams.chpp()).dma(d.listRq, d.listCpl).mmio(d.mmio)
                    .backpressure(Throttle.random(hostReady)));
            napHost = tb.add(new PcieHost("napHost", mem, PcieParams.chpp()).dma(d.napRq, null).backpressure(Throttle.random(hostReady)));
            tb.add(new TagScoreboard("tags", d.tags));
            tb.add(new UploadTestKit.HoldCheck("rqHold", d.napRq));
            tb.add(new UploadTestKit.HoldCheck("listHold", d.listRq));
            driver = tb.add(new BeatSource("driver", d.in, gapP));
            sw = tb.add(new Software(listSize));
            tb.add(new BeatMonitor("event", d.event, eventReady, e -> {
                ReceiveCompletion c = UploadTestKit.entry(e.get(0));
                events.add(c);
                eventCycles.add(tb.cycle());
                sw.completed(c);
            }));
            tb.reset(1);
        }

        void send(Nap n) {
            sent.add(n);
            driver.packet(n.beats);
        }

        long peek(UInt s) {
            return tb.sim().peek(s);
        }

        /**
         * Checks every NAP's completion (order, fields, the buffer in list order or NO_RECEIVE_BUFFER), the NAP
         * writes (exactly the messages, cut at Max_Payload_Size in their buffers) and the counters; returns the
         * number of NAPs dropped for want of a buffer.
         */
        int check() {
            assertThat(events).hasSize(sent.size());
            List<UploadTestKit.Piece> pieces = new ArrayList<>();
            List<byte[]> data = new ArrayList<>();
            int drops = 0;
            int buffer = 0;
            for (int i = 0; i < sent.size(); i++) {
                Nap n = sent.get(i);
                ReceiveCompletion c = events.get(i);
                int len = n.payload.length;
                long addr;
                if (len == 0) {
                    addr = 0;
                } else if (c.status() == CompletionStatus.NO_RECEIVE_BUFFER) {
                    addr = 0;
                    drops++;
                } else {
                    addr = sw.handOutOrder.get(buffer++);
                    for (UploadTestKit.Piece p : UploadTestKit.split(addr, len, MPS)) {
                        pieces.add(p);
                        byte[] part = new byte[p.len()];
                        System.arraycopy(n.payload, (int) (p.addr() - addr), part, 0, p.len());
                        data.add(part);
                    }
                }
                CompletionStatus st = len != 0 && c.status() == CompletionStatus.NO_RECEIVE_BUFFER ? CompletionStatus.NO_RECEIVE_BUFFER : CompletionStatus.OK;
                assertThat(c).as("completion of NAP %d", i).isEqualTo(new ReceiveCompletion(PktType.NAP, false, st,
                        EndpointId.decode(n.src), EndpointId.decode(n.dst), len, addr, false));
            }
            List<PcieHost.Write> ws = napHost.writes();
            assertThat(ws).hasSize(pieces.size());
            for (int i = 0; i < ws.size(); i++) {
                assertThat(ws.get(i).addr()).as("NAP write %d address", i).isEqualTo(pieces.get(i).addr());
                assertThat(ws.get(i).data()).as("NAP write %d data", i).isEqualTo(data.get(i));
            }
            assertThat(sw.checked).as("messages checked in their buffers by software").isEqualTo(buffer);
            assertThat(peek(d.nap.noBuffer)).isEqualTo(drops);
            assertThat(peek(d.nap.events)).isEqualTo(sent.size());
            assertThat(listHost.writes()).as("buffer management never writes").isEmpty();
            for (PcieHost.Read rd : listHost.reads()) {
                assertThat(rd.len()).isLessThanOrEqualTo(bp.maxReadRequest());
                assertThat(rd.addr() / bp.maxReadRequest()).as("list read within one read-request block")
                        .isEqualTo((rd.addr() + rd.len() - 1) / bp.maxReadRequest());
                assertThat(rd.addr() % 8).isZero();
            }
            return drops;
        }

        @Override
        public void close() {
            tb.close();
        }

        /**
         * The driver's side of the list: posts buffers (entries, then the producer index by BAR write) and, some
         * cycles after a completion (when the NIC's ring write would be visible), checks the message in its
         * buffer and, if {@link #recycle}, posts the buffer again.
         */
        final class Software extends Component {
            final int size;
            long producer;
            boolean recycle;
            final List<Long> handOutOrder = new ArrayList<>();
            final ArrayDeque<long[]> due = new ArrayDeque<>();
            int completedOk;
            int checked;

            Software(int size) {
                super("software");
                this.size = size;
            }

            void setUp() {
                listHost.mmioWrite(bp.mmioOffset() + BufferListRegs.REG_BASE, LIST);
                listHost.mmioWrite(bp.mmioOffset() + BufferListRegs.REG_SIZE, size);
            }

            /** Posts {@code addrs} (an address not 2 KB aligned is posted too: hardware must skip it). */
            void post(List<Long> addrs) {
                for (long a : addrs) {
                    mem.writeLe(LIST + 8 * (producer % size), a, 8);
                    producer++;
                    if (a % BufferListRegs.BUFFER_BYTES == 0) {
                        handOutOrder.add(a);
                    }
                }
                listHost.mmioWrite(bp.mmioOffset() + BufferListRegs.REG_PRODUCER, producer);
            }

            void completed(ReceiveCompletion c) {
                if (c.status() == CompletionStatus.OK && c.length() > 0) {
                    // the k-th buffer used must be the k-th posted; its data is checked once visible
                    long want = handOutOrder.get(completedOk);
                    if (c.address() != want) {
                        throw fail("NAP completion with buffer 0x" + Long.toHexString(c.address()) + ", expected 0x" + Long.toHexString(want));
                    }
                    due.add(new long[] {cycle() + PcieParams.chpp().dma().writeLatencyCycles() + 2, completedOk});
                    completedOk++;
                }
            }

            @Override
            protected void sample() {
                while (!due.isEmpty() && due.peekFirst()[0] <= cycle()) {
                    int k = (int) due.pollFirst()[1];
                    long addr = handOutOrder.get(k);
                    byte[] want = messageInBuffer(k);
                    byte[] got = mem.read(addr, want.length);
                    if (!java.util.Arrays.equals(want, got)) {
                        throw fail("buffer 0x" + Long.toHexString(addr) + " does not hold its NAP's message");
                    }
                    checked++;
                    if (recycle) {
                        post(List.of(addr));
                    }
                }
            }

            /** The message of the k-th NAP that got a buffer. */
            private byte[] messageInBuffer(int k) {
                int seen = 0;
                for (int i = 0; i < events.size(); i++) {
                    ReceiveCompletion c = events.get(i);
                    if (c.status() == CompletionStatus.OK && c.length() > 0) {
                        if (seen++ == k) {
                            return sent.get(i).payload;
                        }
                    }
                }
                throw fail("no NAP for buffer " + k);
            }
        }
    }

    static List<Long> buffers(int from, int n) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(BUFFERS + 2048L * (from + i));
        }
        return out;
    }

    static int randomLength(Rng r, int i) {
        if (i < 3) {
            return new int[] {1, 2048, 0}[i];
        }
        return switch (r.nextInt(4)) {
            case 0 -> r.nextInt(17);
            case 1 -> 17 + r.nextInt(240);
            case 2 -> 257 + r.nextInt(800);
            default -> 1057 + r.nextInt(992);
        };
    }

    @Test
    void napsLandInPrefetchedBuffersInListOrderWithExactCompletions(RunConfig cfg) {
        Rng r = new Rng(21);
        ChppParams p = ChppParams.paper();
        try (Harness b = new Harness(cfg, p, BufferParams.defaults(), 64, 0.2, 0.7, 0.6)) {
            b.sw.recycle = true;
            b.sw.setUp();
            b.sw.post(buffers(0, 48));
            b.tb.run(300);
            for (int i = 0; i < 250; i++) {
                b.send(nap(r, randomLength(r, i)));
            }
            b.tb.runUntil("every NAP completed and checked", () -> b.driver.idle() && b.events.size() == b.sent.size()
                    && b.sw.due.isEmpty() && b.napHost.idle() && b.listHost.idle(), 400_000);
            assertThat(b.check()).as("NAPs dropped with buffers to spare").isZero();
            System.out.printf("NAPs with buffers to spare: %d NAPs, %d writes, %d list reads, %d cycles%n", b.sent.size(),
                    b.napHost.writes().size(), b.listHost.reads().size(), b.tb.cycle());
            assertThat(b.peek(b.d.bm.refills)).isGreaterThan(10);
            assertThat(b.peek(b.d.bm.refillErrors) + b.peek(b.d.bm.refillTimeouts) + b.peek(b.d.bm.badEntries)).isZero();
            assertThat(b.peek(b.d.tags.freeCount)).isEqualTo(p.tags());
        }
    }

    @Test
    void runningOutOfBuffersPostsNoReceiveBufferAndPostingMoreRecovers(RunConfig cfg) {
        Rng r = new Rng(8);
        try (Harness b = new Harness(cfg, ChppParams.paper(), BufferParams.defaults(), 16, 0, 1, 1)) {
            b.sw.setUp();
            List<Long> first = new ArrayList<>(buffers(0, 11));
            first.set(3, first.get(3) + 0x100); // misaligned: skipped and counted, 10 usable
            b.sw.post(first);
            b.tb.run(400);
            assertThat(b.peek(b.d.bm.prefetched)).isEqualTo(10);
            assertThat(b.peek(b.d.bm.badEntries)).isEqualTo(1);
            for (int i = 0; i < 14; i++) {
                b.send(nap(r, 1 + r.nextInt(300)));
            }
            b.send(nap(r, 0));
            b.tb.runUntil("15 completions", () -> b.events.size() == 15 && b.driver.idle(), 50_000);
            for (int i = 0; i < 15; i++) {
                CompletionStatus want = i < 10 || i == 14 ? CompletionStatus.OK : CompletionStatus.NO_RECEIVE_BUFFER;
                assertThat(b.events.get(i).status()).as("NAP %d", i).isEqualTo(want);
            }
            assertThat(b.peek(b.d.nap.noBuffer)).isEqualTo(4);
            b.sw.post(buffers(20, 5));
            b.tb.run(300);
            for (int i = 0; i < 5; i++) {
                b.send(nap(r, 2048));
            }
            b.tb.runUntil("every NAP completed and checked", () -> b.driver.idle() && b.events.size() == b.sent.size()
                    && b.sw.due.isEmpty() && b.napHost.idle(), 50_000);
            assertThat(b.check()).isEqualTo(4);
            assertThat(b.peek(b.d.bm.consumer)).isEqualTo(16);
            assertThat(b.peek(b.d.bm.prefetched)).isZero();
        }
    }

    @Test
    void failingRefillReadsAreCountedRetriedAndLoseNoBuffer(RunConfig cfg) {
        Rng r = new Rng(99);
        int timeout = 400;
        ChppParams p = ChppParams.paper().withCompletionTimeout(timeout);
        BufferParams bp = BufferParams.defaults().withPrefetch(8, 4).withRetryDelay(60).withMaxReadRequest(64);
        ReadOutcome[] bad = {ReadOutcome.UR, ReadOutcome.CA, ReadOutcome.LOST};
        try (Harness b = new Harness(cfg, p, bp, 32, 0.3, 0.8, 0.7)) {
            b.listHost.readFaults((addr, len, rng) -> rng.chance(0.3) ? bad[rng.nextInt(3)] : ReadOutcome.OK);
            b.sw.recycle = true;
            b.sw.setUp();
            b.sw.post(buffers(0, 24));
            b.tb.run(300);
            for (int i = 0; i < 200; i++) {
                b.send(nap(r, randomLength(r, i) % 700));
            }
            b.tb.runUntil("every NAP completed and checked", () -> b.driver.idle() && b.events.size() == b.sent.size()
                    && b.sw.due.isEmpty() && b.napHost.idle(), 400_000);
            // quarantined tags come back after another timeout
            b.tb.run(2L * timeout + 10);
            int drops = b.check();
            long errors = b.listHost.reads().stream().filter(x -> x.outcome() == ReadOutcome.UR || x.outcome() == ReadOutcome.CA).count();
            long lost = b.listHost.reads().stream().filter(x -> x.outcome() == ReadOutcome.LOST).count();
            assertThat(errors).isGreaterThanOrEqualTo(5);
            assertThat(lost).isGreaterThanOrEqualTo(3);
            assertThat(b.peek(b.d.bm.refillErrors)).isEqualTo(errors);
            assertThat(b.peek(b.d.bm.refillTimeouts)).isEqualTo(lost);
            assertThat(b.peek(b.d.bm.refills)).isEqualTo(b.listHost.reads().size());
            // the allocator saw each error completion as the end of its read, and timed out exactly the lost ones
            assertThat(b.peek(b.d.tags.errorCompletions)).isEqualTo(errors);
            assertThat(b.peek(b.d.tags.timeouts)).isEqualTo(lost);
            assertThat(b.peek(b.d.tags.spuriousReleases)).isZero();
            assertThat(drops).isLessThan(b.sent.size() / 2);
            // no buffer lost or read twice: every entry read is handed out or still held
            long handed = b.sw.completedOk;
            assertThat(b.peek(b.d.bm.consumer)).isEqualTo(handed + b.peek(b.d.bm.prefetched));
            assertThat(b.peek(b.d.bm.producer) - b.peek(b.d.bm.consumer)).isEqualTo(b.peek(b.d.bm.available));
            assertThat(b.peek(b.d.tags.freeCount)).isEqualTo(p.tags());
            System.out.printf("refill failures: %d reads, %d UR/CA, %d lost; %d of %d NAPs without a buffer%n",
                    b.listHost.reads().size(), errors, lost, drops, b.sent.size());
        }
    }

    @Test
    void aNapFindingNoBufferWaitsForTheRefillInFlight(RunConfig cfg) {
        Rng r = new Rng(12);
        try (Harness b = new Harness(cfg, ChppParams.paper(), BufferParams.defaults(), 16, 0, 1, 1)) {
            b.sw.setUp();
            b.tb.run(100);
            b.sw.post(buffers(7, 2));
            // the producer write reaches the NIC 65 cycles later and the list read leaves; its data is ~130 cycles away
            b.tb.runUntil("the list read in flight", () -> b.peek(b.d.bm.refills) == 1, 200);
            long issued = b.tb.cycle();
            assertThat(b.peek(b.d.bm.prefetched)).isZero();
            b.send(nap(r, 100));
            b.tb.runUntil("the NAP completed", () -> b.events.size() == 1, 1000);
            assertThat(b.events.get(0).status()).isEqualTo(CompletionStatus.OK);
            assertThat(b.events.get(0).address()).isEqualTo(buffers(7, 1).get(0));
            // it waited for the read's completion, one round trip
            assertThat(b.napHost.writes().get(0).cycle() - issued).isGreaterThan(PcieParams.CHPP_READ_ROUND_TRIP_CYCLES);
            b.tb.runUntil("checked", () -> b.sw.due.isEmpty() && b.napHost.idle(), 1000);
            assertThat(b.check()).isZero();
        }
    }

    @Test
    void listRegistersRefuseBadSizesAndProducersAndABaseWriteEmptiesTheSet(RunConfig cfg) {
        try (Harness b = new Harness(cfg, ChppParams.paper(), BufferParams.defaults(), 16, 0, 1, 1)) {
            int off = b.bp.mmioOffset();
            b.listHost.mmioWrite(off + BufferListRegs.REG_BASE, LIST);
            for (long bad : new long[] {0, 3, 48, 1L << 17, 1L << 40}) {
                b.listHost.mmioWrite(off + BufferListRegs.REG_SIZE, bad);
            }
            b.tb.run(200);
            assertThat(b.peek(b.d.bm.badSize)).isEqualTo(5);
            assertThat(b.tb.sim().peekBool(b.d.bm.enabled)).isFalse();
            b.listHost.mmioWrite(off + BufferListRegs.REG_SIZE, 16);
            b.tb.run(100);
            assertThat(b.tb.sim().peekBool(b.d.bm.enabled)).isTrue();
            b.sw.producer = 0;
            b.sw.post(buffers(0, 5));
            b.listHost.mmioWrite(off + BufferListRegs.REG_PRODUCER, 22); // 22 outstanding in a list of 16: refused
            b.tb.run(400);
            assertThat(b.peek(b.d.bm.badProducer)).isEqualTo(1);
            assertThat(b.peek(b.d.bm.producer)).isEqualTo(5);
            assertThat(b.peek(b.d.bm.prefetched)).isEqualTo(5);
            assertThat(b.peek(b.d.bm.consumer)).isEqualTo(5);
            b.listHost.mmioWrite(off + BufferListRegs.REG_PRODUCER, 21); // exactly 16 outstanding: taken
            b.tb.run(100);
            assertThat(b.peek(b.d.bm.producer)).isEqualTo(21);
            b.listHost.mmioWrite(off + BufferListRegs.REG_BASE, LIST + 0x1000);
            b.tb.run(100);
            assertThat(b.peek(b.d.bm.prefetched)).isZero();
            assertThat(b.peek(b.d.bm.producer)).isZero();
            assertThat(b.peek(b.d.bm.consumer)).isZero();
            assertThat(b.peek(b.d.bm.badProducer)).isEqualTo(1);
        }
    }

    @Test
    void latencyWithABufferAtHand(RunConfig cfg) {
        Rng r = new Rng(13);
        try (Harness b = new Harness(cfg, ChppParams.paper(), BufferParams.defaults(), 16, 0, 1, 1)) {
            b.sw.setUp();
            b.sw.post(buffers(0, 4));
            b.tb.run(400);
            b.send(nap(r, 16));
            b.tb.runUntil("completed", () -> b.events.size() == 1, 100);
            b.send(nap(r, 0));
            b.tb.runUntil("completed", () -> b.events.size() == 2, 100);
            long h0 = b.driver.headerTaken.get(0);
            // header taken at c (with its buffer), payload at c + 1, the one write beat at c + 2, the completion at c + 3
            assertThat(b.napHost.writes().get(0).cycle() - h0).isEqualTo(2);
            assertThat(b.eventCycles.get(0) - h0).isEqualTo(3);
            // a 0-byte NAP: no buffer, no write, its completion 2 cycles after its header
            assertThat(b.eventCycles.get(1) - b.driver.headerTaken.get(1)).isEqualTo(2);
            b.tb.runUntil("checked", () -> b.sw.due.isEmpty() && b.napHost.idle(), 1000);
            assertThat(b.check()).isZero();
            assertThat(b.peek(b.d.bm.prefetched)).isEqualTo(3);
        }
    }

    /** Cycles for 300 back-to-back 1-byte NAPs with a full list: the prefetch depth against the refill round trip. */
    static long smallNapRun(RunConfig cfg, BufferParams bp) {
        Rng r = new Rng(14);
        try (Harness b = new Harness(cfg, ChppParams.paper(), bp, 1024, 0, 1, 1)) {
            b.sw.recycle = true;
            b.sw.setUp();
            b.sw.post(buffers(0, 512));
            b.tb.run(500);
            for (int i = 0; i < 300; i++) {
                b.send(nap(r, 1));
            }
            long t0 = b.tb.cycle();
            b.tb.runUntil("all completed", () -> b.events.size() == 300, 100_000);
            long t = b.tb.cycle() - t0;
            b.tb.runUntil("checked", () -> b.sw.due.isEmpty() && b.napHost.idle() && b.listHost.idle(), 10_000);
            assertThat(b.check()).isZero();
            return t;
        }
    }

    /**
     * One list read in flight refills at most {@code prefetch - lowWater} buffers per ~135-cycle round trip: with
     * the default 64/32, 300 one-byte NAPs (one 3-cycle write TLP each) take 4.43 cycles per NAP; 16/8 would give 14.9.
     */
    @Test
    void smallNapRateAgainstPrefetchDepth(RunConfig cfg) {
        long[] want = {4469, 2335, 1330};
        int[][] sizes = {{16, 8}, {32, 16}, {64, 32}};
        for (int i = 0; i < sizes.length; i++) {
            long t = smallNapRun(cfg, BufferParams.defaults().withPrefetch(sizes[i][0], sizes[i][1]));
            System.out.printf("prefetch %d, refill at %d: 300 one-byte NAPs in %d cycles (%.2f cycles per NAP)%n", sizes[i][0],
                    sizes[i][1], t, t / 300.0);
            assertThat(t).isEqualTo(want[i]);
        }
        assertThat(BufferParams.defaults().prefetch()).isEqualTo(64);
        assertThat(BufferParams.defaults().lowWater()).isEqualTo(32);
    }
}
