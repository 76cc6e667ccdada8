package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.receive.DispatchHarness;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PUT upload against the real {@link PcieHost} ({@code PcieParams.chpp()}: 128-byte Max_Payload_Size, the PCIe
 * 2.0 x8 link model) with random backpressure: random PUT packets of 1 B .. 4 KB at unaligned addresses, many
 * across 4 KB, land byte-exact; the host sees exactly the reference split into writes (each within 128 bytes and
 * one 4 KB page, nothing else written); completions exact and after the packet's last write. Framing faults and
 * bad lengths never hang. docs/chpp-upload.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class PutUploadTest {
    static final int MPS = PcieParams.chpp().dma().maxPayloadBytes();
    static final long REGION = 0x12_3400_0000L;

    /** A PUT packet and what it must cause. */
    record Put(List<BigInteger> beats, long addr, byte[] payload, int len, boolean ce, boolean resp, int src, int dst) {
    }

    static Put put(Rng r, long addr, int len, int sFlag) {
        byte[] payload = UploadTestKit.bytes(r, len);
        int src = r.nextInt(256);
        int dst = r.nextInt(256);
        BigInteger h = DispatchHarness.header(0x60, PktType.PUT.code(), sFlag, len, r.nextInt(1 << 16), src, dst, addr);
        return new Put(UploadTestKit.packet(h, payload, r.chance(0.5) ? r : null), addr, payload, len,
                (sFlag & HeaderLayout.S_FLAG_CE) != 0, (sFlag & HeaderLayout.S_FLAG_RESP) != 0, src, dst);
    }

    /** The completion a PUT with CE posts: OK, or GET_FAILED for a failed GET answer's header-only packet. */
    static ReceiveCompletion completion(Put p) {
        CompletionStatus st = p.len == 0 ? CompletionStatus.GET_FAILED : CompletionStatus.OK;
        return new ReceiveCompletion(PktType.PUT, p.resp, st, EndpointId.decode(p.src), EndpointId.decode(p.dst), p.len, p.addr, false);
    }

    /** PUT upload with its ports on the host and on a packet driver and an event monitor. */
    static final class Harness implements AutoCloseable {
        final Testbench<PutUpload> tb;
        final PutUpload dut;
        final HostMemory mem = new HostMemory();
        final PcieHost host;
        final BeatSource driver;
        final List<ReceiveCompletion> events = new ArrayList<>();
        final List<Long> eventCycles = new ArrayList<>();

        Harness(RunConfig cfg, double gapP, double hostReady, double eventReady) {
            tb = Testbench.create(() -> new PutUpload(MPS), cfg);
            dut = tb.dut();
            host = tb.add(new PcieHost("host", mem, PcieParams.chpp()).dma(dut.dmaRq, null).backpressure(Throttle.random(hostReady)));
            tb.add(new UploadTestKit.HoldCheck("rqHold", dut.dmaRq));
            driver = tb.add(new BeatSource("driver", dut.in, gapP));
            tb.add(new BeatMonitor("event", dut.event, eventReady, p -> {
                events.add(UploadTestKit.entry(p.get(0)));
                eventCycles.add(tb.cycle());
            }));
            tb.reset(1);
        }

        long peek(org.flitkit.hdl.UInt s) {
            return tb.sim().peek(s);
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    /**
     * Runs {@code puts} and checks the host's writes against the reference split, memory byte for byte, the set of
     * bytes written, the completions and their order after their packet's last write, and the counters.
     */
    static void runAndCheck(Harness b, List<Put> puts, List<byte[]> expectedData) {
        for (Put p : puts) {
            b.driver.packet(p.beats);
        }
        List<UploadTestKit.Piece> pieces = new ArrayList<>();
        List<Integer> lastPiece = new ArrayList<>();
        TreeMap<Long, Byte> image = new TreeMap<>();
        for (int k = 0; k < puts.size(); k++) {
            Put p = puts.get(k);
            byte[] data = expectedData.get(k);
            pieces.addAll(UploadTestKit.split(p.addr, p.len, MPS));
            lastPiece.add(pieces.size() - 1);
            for (int i = 0; i < p.len; i++) {
                image.put(p.addr + i, data[i]);
            }
        }
        long ces = puts.stream().filter(Put::ce).count();
        b.tb.runUntil("every PUT written and every completion taken", () -> b.driver.idle() && b.host.writes().size() >= pieces.size()
                && b.events.size() >= ces && b.host.idle(), 400_000);
        // anything more (a write or completion too many) shows up in the exact comparisons below
        b.tb.run(50);
        List<PcieHost.Write> ws = b.host.writes();
        assertThat(ws).hasSize(pieces.size());
        Map<Long, Byte> written = new HashMap<>();
        int k = 0;
        int off = 0;
        for (int i = 0; i < ws.size(); i++) {
            PcieHost.Write w = ws.get(i);
            UploadTestKit.Piece want = pieces.get(i);
            assertThat(w.addr()).as("write %d address", i).isEqualTo(want.addr());
            assertThat(w.data().length).as("write %d length", i).isEqualTo(want.len());
            assertThat(w.data().length).as("write %d within Max_Payload_Size", i).isLessThanOrEqualTo(MPS);
            assertThat(w.addr() >>> 12).as("write %d within one 4 KB page", i).isEqualTo((w.addr() + w.data().length - 1) >>> 12);
            while (off >= puts.get(k).len) {
                k++;
                off = 0;
            }
            byte[] want0 = expectedData.get(k);
            for (int j = 0; j < w.data().length; j++) {
                assertThat(w.data()[j]).as("write %d byte %d (packet %d byte %d)", i, j, k, off + j).isEqualTo(want0[off + j]);
                written.put(w.addr() + j, w.data()[j]);
            }
            off += w.data().length;
        }
        // nothing else written, and host memory holds the last value of every byte
        assertThat(written.keySet()).isEqualTo(image.keySet());
        for (Map.Entry<Long, Byte> e : image.entrySet()) {
            assertThat(b.mem.read(e.getKey(), 1)[0]).as("memory at 0x%x", e.getKey()).isEqualTo(e.getValue());
        }
        List<ReceiveCompletion> want = new ArrayList<>();
        List<Long> after = new ArrayList<>();
        for (int i = 0; i < puts.size(); i++) {
            if (puts.get(i).ce) {
                want.add(completion(puts.get(i)));
                after.add(ws.get(lastPiece.get(i)).cycle());
            }
        }
        assertThat(b.events).containsExactlyElementsOf(want);
        for (int i = 0; i < want.size(); i++) {
            assertThat(b.eventCycles.get(i)).as("completion %d after its packet's last write", i).isGreaterThan(after.get(i));
        }
        assertThat(b.peek(b.dut.writes)).isEqualTo(pieces.size());
        assertThat(b.peek(b.dut.events)).isEqualTo(ces);
    }

    @Test
    void randomPutsLandByteExactInWritesWithinMpsAnd4KbWithExactCompletions(RunConfig cfg) {
        Rng r = new Rng(11);
        List<Put> puts = new ArrayList<>();
        int crossing = 0;
        for (int i = 0; i < 220; i++) {
            int len = switch (r.nextInt(3)) {
                case 0 -> 1 + r.nextInt(64);
                case 1 -> 65 + r.nextInt(448);
                default -> 513 + r.nextInt(3584);
            };
            if (i == 0) {
                len = 1;
            } else if (i == 1) {
                len = 4096;
            }
            long page = REGION + 4096L * r.nextInt(64);
            // half of them start close enough to a 4 KB boundary to cross it
            long addr = r.chance(0.5) ? page + 4096 - 1 - r.nextInt(Math.min(len, 4096)) : page + r.nextInt(4096);
            if ((addr >>> 12) != ((addr + len - 1) >>> 12)) {
                crossing++;
            }
            int[] flags = {0, HeaderLayout.S_FLAG_LAST, HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_CE,
                HeaderLayout.S_FLAG_RESP, HeaderLayout.S_FLAG_RESP | HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_CE};
            puts.add(put(r, addr, len, flags[r.nextInt(flags.length)]));
        }
        assertThat(crossing).isGreaterThan(60);
        try (Harness b = new Harness(cfg, 0.2, 0.6, 0.5)) {
            runAndCheck(b, puts, puts.stream().map(Put::payload).toList());
            assertThat(b.peek(b.dut.packets)).isEqualTo(puts.size());
            System.out.printf("random PUTs: %d packets, %d bytes, %d writes, %d completions, %d cycles%n", puts.size(),
                    puts.stream().mapToInt(Put::len).sum(), b.host.writes().size(), b.events.size(), b.tb.cycle());
            assertThat(b.peek(b.dut.framingErrors)).isZero();
            assertThat(b.peek(b.dut.badLength)).isZero();
        }
    }

    @Test
    void fullRateBackToBackPutsKeepTheLinkBusy(RunConfig cfg) {
        // 64 aligned 128-byte PUTs, no gaps, host and event always ready: the link's 10 cycles per 128-byte TLP set the pace
        Rng r = new Rng(5);
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            puts.add(put(r, REGION + 128L * i, 128, i == 63 ? HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_CE : 0));
        }
        try (Harness b = new Harness(cfg, 0, 1, 1)) {
            runAndCheck(b, puts, puts.stream().map(Put::payload).toList());
            List<PcieHost.Write> ws = b.host.writes();
            long span = ws.get(ws.size() - 1).cycle() - ws.get(0).cycle();
            // 63 further TLPs of 1 header + 8 data + 1 processing cycle each
            assertThat(span).isEqualTo(63L * 10);
        }
    }

    @Test
    void unalignedFullRatePutsPayTwoTlpsEach(RunConfig cfg) {
        // 128-byte PUTs at 64 mod 128: each is cut into two 64-byte writes (1 + 4 + 1 link cycles each)
        Rng r = new Rng(5);
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            puts.add(put(r, REGION + 64 + 128L * i, 128, 0));
        }
        try (Harness b = new Harness(cfg, 0, 1, 1)) {
            runAndCheck(b, puts, puts.stream().map(Put::payload).toList());
            List<PcieHost.Write> ws = b.host.writes();
            assertThat(ws).hasSize(128);
            assertThat(ws.get(ws.size() - 1).cycle() - ws.get(0).cycle()).isEqualTo(127L * 6);
        }
    }

    @Test
    void latencyFromHeaderToWriteAndFromLastWriteToCompletion(RunConfig cfg) {
        Rng r = new Rng(9);
        int ceLast = HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_CE;
        Put one = put(r, REGION + 3, 1, ceLast);
        Put big = put(r, REGION + 0x1000, 256, ceLast);
        try (Harness b = new Harness(cfg, 0, 1, 1)) {
            runAndCheck(b, List.of(one, big), List.of(one.payload, big.payload));
            List<PcieHost.Write> ws = b.host.writes();
            long h0 = b.driver.headerTaken.get(0);
            long h1 = b.driver.headerTaken.get(1);
            // header taken at c, its payload beat at c + 1, in the window at c + 2: the write beat leaves then
            assertThat(ws.get(0).cycle() - h0).isEqualTo(2);
            // the completion is offered the cycle after the last write request is taken
            assertThat(b.eventCycles.get(0) - ws.get(0).cycle()).isEqualTo(1);
            // the second packet's header waits for no one: taken right after the first packet's last beat
            assertThat(h1 - h0).isEqualTo(2);
            // its first 128-byte write: 8 beats, the first 2 cycles after its header
            assertThat(b.eventCycles.get(1) - ws.get(2).cycle()).isEqualTo(1);
        }
    }

    @Test
    void framingFaultsAndBadLengthsNeverHangAndTheNextPacketIsClean(RunConfig cfg) {
        Rng r = new Rng(3);
        int ceLast = HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_CE;
        Put a = put(r, REGION + 0x10, 40, ceLast);
        // short: Length 100 but only 3 payload beats (48 bytes): the rest is written as zeros
        Put shortFull = put(r, REGION + 0x1FF0, 100, ceLast);
        List<BigInteger> shortBeats = shortFull.beats.subList(0, 4);
        Put shortP = new Put(shortBeats, shortFull.addr, shortFull.payload, 100, true, false, shortFull.src, shortFull.dst);
        byte[] shortData = new byte[100];
        System.arraycopy(shortFull.payload, 0, shortData, 0, 48);
        // long: Length 20 followed by 3 payload beats: only 20 bytes written
        Put longFull = put(r, REGION + 0x3007, 40, 0);
        BigInteger h20 = DispatchHarness.header(0x60, PktType.PUT.code(), 0, 20, 7, longFull.src, longFull.dst, longFull.addr);
        List<BigInteger> longBeats = new ArrayList<>(longFull.beats);
        longBeats.set(0, h20);
        Put longP = new Put(longBeats, longFull.addr, longFull.payload, 20, false, false, longFull.src, longFull.dst);
        // header only with Length 33: 33 zero bytes
        BigInteger h33 = DispatchHarness.header(0x60, PktType.PUT.code(), ceLast, 33, 7, 1, 2, REGION + 0x5000);
        Put headerOnly = new Put(List.of(h33), REGION + 0x5000, new byte[33], 33, true, false, 1, 2);
        Put d = put(r, REGION + 0x6FFF, 300, ceLast);
        try (Harness b = new Harness(cfg, 0.1, 0.7, 0.7)) {
            // bad lengths, dropped whole with their payload: Length 0 with a payload beat, Length 5000
            b.driver.packet(List.of(DispatchHarness.header(0x60, 2, ceLast, 0, 1, 1, 1, REGION), BigInteger.ONE));
            b.driver.packet(UploadTestKit.packet(DispatchHarness.header(0x60, 2, ceLast, 5000, 1, 1, 1, REGION), new byte[64], null));
            runAndCheck(b, List.of(a, shortP, longP, headerOnly, d), List.of(a.payload, shortData, longFull.payload, new byte[33], d.payload));
            assertThat(b.peek(b.dut.framingErrors)).isEqualTo(3);
            assertThat(b.peek(b.dut.badLength)).isEqualTo(2);
            assertThat(b.peek(b.dut.packets)).isEqualTo(5);
        }
    }

    @Test
    void aFailedGetAnswerWritesNothingAndPostsGetFailedAfterTheAnswersEarlierWrites(RunConfig cfg) {
        Rng r = new Rng(13);
        int failFlags = HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_RESP;
        int ceLast = HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_CE;
        // a GET answer: one 256-byte packet arrived, then the target's read failed: the header-only end at the next byte
        Put first = put(r, REGION + 0x105, 256, HeaderLayout.S_FLAG_RESP);
        long failAt = REGION + 0x105 + 256;
        Put failed = new Put(List.of(DispatchHarness.header(0x60, PktType.PUT.code(), failFlags, 0, 7, first.src, first.dst, failAt)),
                failAt, new byte[0], 0, true, true, first.src, first.dst);
        Put next = put(r, REGION + 0x2003, 20, ceLast);
        try (Harness b = new Harness(cfg, 0.1, 0.7, 0.7)) {
            // Length 0 without exactly CE+LAST+RESP: dropped and counted as before
            b.driver.packet(List.of(DispatchHarness.header(0x60, 2, ceLast, 0, 1, 1, 1, REGION)));
            b.driver.packet(List.of(DispatchHarness.header(0x60, 2, HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_RESP, 0, 1, 1, 1, REGION)));
            // the exact GET_FAILED entry, after the answer's earlier writes; nothing written for it
            runAndCheck(b, List.of(first, failed, next), List.of(first.payload, new byte[0], next.payload));
            assertThat(b.events.get(0)).isEqualTo(new ReceiveCompletion(PktType.PUT, true, CompletionStatus.GET_FAILED,
                    EndpointId.decode(first.src), EndpointId.decode(first.dst), 0, REGION + 0x205, false));
            assertThat(b.peek(b.dut.failedAnswers)).isEqualTo(1);
            assertThat(b.peek(b.dut.badLength)).isEqualTo(2);
            assertThat(b.peek(b.dut.packets)).isEqualTo(3);
            assertThat(b.peek(b.dut.framingErrors)).isZero();
        }
    }

    @Test
    void maxPayloadIsCheckedAndTheSplitFollowsIt(RunConfig cfg) {
        assertThatThrownBy(() -> new PutUpload(64)).hasMessageContaining("maxPayload must be a PCIe Max_Payload_Size")
                .hasMessageContaining("got 64");
        assertThatThrownBy(() -> new PutUpload(384)).hasMessageContaining("got 384");
        assertThatThrownBy(() -> new NapUpload(8192)).hasMessageContaining("NapUpload").hasMessageContaining("got 8192");
        assertThat(UploadTestKit.split(0xFF0, 300, 128)).containsExactly(new UploadTestKit.Piece(0xFF0, 16),
                new UploadTestKit.Piece(0x1000, 128), new UploadTestKit.Piece(0x1080, 128), new UploadTestKit.Piece(0x1100, 28));
    }
}
