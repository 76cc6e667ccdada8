package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.upload.GetAnswer;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PacketHeader;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fixed cases of the packer, exact: packet counts and lengths of PUT, chain and NAP cuts, the bytes and status of
 * failed transfers, malformed inputs that end their transfer and never hang the packer, the latency from a
 * control word to its first header, and the output's occupancy for a 64 KB PUT at MTU 32, 128 and 1024.
 * docs/chpp-packer.md, "Tests" and "Measured".
 */
@ExtendWith(TestbenchExtension.class)
class PackerCasesTest {
    static final SendEngineParams SP = PackerTest.SP;

    static Descriptor.Common common(int qp, boolean sce, boolean rce, int cookie) {
        return PackerTest.common(qp, sce, rce, cookie);
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        new Rng(seed).nextBytes(b);
        return b;
    }

    static List<Integer> lengths(PackerHarness b) {
        return b.out.headers.stream().map(PacketHeader::length).toList();
    }

    static Descriptor.Chain chain(int qp, boolean sce, int cookie, long[] src, long[] dst, long dstBase) {
        List<Descriptor.Segment> ss = new ArrayList<>();
        for (long l : src) {
            ss.add(new Descriptor.Segment(0x7000_0000L, l));
        }
        List<Descriptor.Segment> ds = new ArrayList<>();
        long a = dstBase;
        for (long l : dst) {
            ds.add(new Descriptor.Segment(a, l));
            a += l + 5;
        }
        return new Descriptor.Chain(common(qp, sce, true, cookie), ss, ds);
    }

    @Test
    void cutsHaveExactPacketCountsAndLengths(RunConfig cfg) {
        try (PackerHarness b = new PackerHarness(cfg, SP, 0, 1, 1)) {
            b.send(new PackerHarness.Xfer(2, new Descriptor.Put(common(1, true, true, 1), 1000, 0x55, 0x1000_0003L), bytes(1000, 1)));
            b.send(new PackerHarness.Xfer(3, chain(2, false, 2, new long[] {7, 410}, new long[] {100, 300, 17}, 0x2000_0000L), bytes(417, 2)));
            b.send(new PackerHarness.Xfer(4, new Descriptor.NapImmediate(common(3, false, true, 3), bytes(2048, 3)), bytes(2048, 3)));
            b.send(new PackerHarness.Xfer(5, new Descriptor.NapIndirect(common(0, true, true, 4), 0, 0x99), new byte[0]));
            b.send(new PackerHarness.Xfer(6, new Descriptor.Put(common(0, false, false, 5), 1, 0x55, 0x3000_0000L), bytes(1, 5)));
            b.runAndCheck(5000);
            // 1000 bytes at MTU 128: 7 x 128 + 104; the chain never crosses a destination segment
            assertThat(lengths(b)).containsExactly(128, 128, 128, 128, 128, 128, 128, 104, 100, 128, 128, 44, 17, 2048, 0, 1);
            List<PacketHeader> h = b.out.headers;
            assertThat(h.get(0).address()).isEqualTo(0x1000_0003L);
            assertThat(h.get(7).address()).isEqualTo(0x1000_0003L + 7 * 128);
            assertThat(h.subList(0, 7)).allMatch(x -> !x.last() && !x.ce());
            assertThat(h.get(7).last() && h.get(7).ce()).isTrue();
            // chain segments at 0x2000_0000, +105, +410: the third packet of the second segment starts 256 bytes in
            assertThat(h.get(11).address()).isEqualTo(0x2000_0000L + 105 + 256);
            assertThat(h.get(12).address()).isEqualTo(0x2000_0000L + 105 + 305);
            assertThat(h.get(12).last()).isTrue();
            assertThat(h.get(13).type()).isEqualTo(PktType.NAP);
            assertThat(h.get(15).last() && !h.get(15).ce()).as("a PUT without RCE: LAST only").isTrue();
            // beats: headers + payload beats of each packet (7 x 8 + 7; 7 + 8 + 8 + 3 + 2; 128; 0; 1)
            assertThat(b.out.beatCount).isEqualTo((8 + 63) + (5 + 28) + (1 + 128) + 1 + 2);
            assertThat(b.expectedEvents).containsExactly(
                    new PackerHarness.Ev(0, 2, 1, DescKind.PUT.code(), 1, 1000),
                    new PackerHarness.Ev(0, 5, 0, DescKind.NAP_INDIRECT.code(), 4, 0));
        }
    }

    @Test
    void anErrorBeatEndsTheTransferWithTheBytesSentBeforeIt(RunConfig cfg) {
        try (PackerHarness b = new PackerHarness(cfg, SP, 0.2, 0.5, 0.5)) {
            // beats 0..19 (320 bytes) arrive: packets 0..127 and 128..255 are whole, 256..383 is not
            b.send(new PackerHarness.Xfer(1, new Descriptor.Put(common(1, false, true, 1), 1000, 0x55, 0x1000_0000L), bytes(1000, 1), 20, CompletionStatus.PCIE_ERROR));
            b.send(new PackerHarness.Xfer(2, new Descriptor.Put(common(2, true, true, 2), 1000, 0x55, 0x2000_0000L), bytes(1000, 2), 0, CompletionStatus.COMPLETION_TIMEOUT));
            // 224 bytes arrive: the 100-byte packet is whole, the 128-byte one (bytes 100..227) is not
            b.send(new PackerHarness.Xfer(3, chain(3, false, 3, new long[] {417}, new long[] {100, 300, 17}, 0x3000_0000L), bytes(417, 3), 14, CompletionStatus.PCIE_ERROR));
            b.send(new PackerHarness.Xfer(4, new Descriptor.NapIndirect(common(0, false, true, 4), 40, 0x99), bytes(40, 4), 2, CompletionStatus.PCIE_ERROR));
            b.send(new PackerHarness.Xfer(5, new Descriptor.Put(common(0, true, false, 5), 64, 0x55, 0x4000_0000L), bytes(64, 5)));
            b.runAndCheck(5000);
            assertThat(lengths(b)).containsExactly(128, 128, 100, 64);
            assertThat(b.expectedEvents).containsExactly(
                    new PackerHarness.Ev(CompletionStatus.PCIE_ERROR.code(), 1, 1, DescKind.PUT.code(), 1, 256),
                    new PackerHarness.Ev(CompletionStatus.COMPLETION_TIMEOUT.code(), 2, 2, DescKind.PUT.code(), 2, 0),
                    new PackerHarness.Ev(CompletionStatus.PCIE_ERROR.code(), 3, 3, DescKind.CHAIN.code(), 3, 100),
                    new PackerHarness.Ev(CompletionStatus.PCIE_ERROR.code(), 4, 0, DescKind.NAP_INDIRECT.code(), 4, 0),
                    new PackerHarness.Ev(CompletionStatus.OK.code(), 5, 0, DescKind.PUT.code(), 5, 64));
            assertThat(b.tb.sim().peek(b.dut.errors)).isEqualTo(4);
            assertThat(b.tb.sim().peek(b.dut.transfers)).isEqualTo(5);
            assertThat(b.tb.sim().peek(b.dut.malformed)).isZero();
        }
    }

    @Test
    void aFailedGetAnswerEndsWithAHeaderOnlyPacketAndItsSendFailure(RunConfig cfg) {
        try (PackerHarness b = new PackerHarness(cfg, SP, 0.2, 0.5, 0.5)) {
            // GET answers (resp, SCE 0 as GetAnswer makes them). 20 beats = 320 bytes arrive: two packets leave, then
            // the failure packet at 0x1000_0000 + 256 (RCE 0: CE all the same)
            b.send(new PackerHarness.Xfer(1, new Descriptor.Put(common(1, false, false, 1), 1000, 0x55, 0x1000_0000L), bytes(1000, 1),
                    20, CompletionStatus.PCIE_ERROR, true));
            // the very first beat fails: only the failure packet, at the answer's DstAddr
            b.send(new PackerHarness.Xfer(2, new Descriptor.Put(common(2, false, true, 2), 300, 0x55, 0x2000_0007L), bytes(300, 2),
                    0, CompletionStatus.COMPLETION_TIMEOUT, true));
            // an answer that succeeds: RESP on every packet, CE+LAST on the last, no send completion
            b.send(new PackerHarness.Xfer(3, new Descriptor.Put(common(3, false, true, 3), 200, 0x55, 0x3000_0000L), bytes(200, 3),
                    -1, null, true));
            // a PUT that is not an answer fails as before: no failure packet
            b.send(new PackerHarness.Xfer(4, new Descriptor.Put(common(0, false, true, 4), 1000, 0x55, 0x4000_0000L), bytes(1000, 4),
                    9, CompletionStatus.PCIE_ERROR));
            b.runAndCheck(5000);
            assertThat(lengths(b)).containsExactly(128, 128, 0, 0, 128, 72, 128);
            List<PacketHeader> h = b.out.headers;
            assertThat(h.get(2)).isEqualTo(new PacketHeader(PktType.PUT, Packer.DATA_TC, true, true, true, 0,
                    PackerHarness.requesterId(SP, 1), 0xBEEF ^ 1, new EndpointId(SP.processor(), 1, 1), new EndpointId(3, 6, 2),
                    0x1000_0000L + 256));
            assertThat(h.get(3).address()).isEqualTo(0x2000_0007L);
            assertThat(h.get(3).ce() && h.get(3).last() && h.get(3).resp()).isTrue();
            assertThat(h.subList(0, 2)).allMatch(x -> x.resp() && !x.last() && !x.ce());
            assertThat(h.get(5).resp() && h.get(5).last() && h.get(5).ce()).isTrue();
            assertThat(h.get(6).resp()).isFalse();
            // the answering QP's send ring still hears of each failure, with the bytes sent before it
            assertThat(b.expectedEvents).containsExactly(
                    new PackerHarness.Ev(CompletionStatus.PCIE_ERROR.code(), 1, 1, DescKind.PUT.code(), 1, 256),
                    new PackerHarness.Ev(CompletionStatus.COMPLETION_TIMEOUT.code(), 2, 2, DescKind.PUT.code(), 2, 0),
                    new PackerHarness.Ev(CompletionStatus.PCIE_ERROR.code(), 4, 0, DescKind.PUT.code(), 4, 128));
            assertThat(b.tb.sim().peek(b.dut.failedAnswers)).isEqualTo(2);
            assertThat(b.tb.sim().peek(b.dut.errors)).isEqualTo(3);
            assertThat(b.tb.sim().peek(b.dut.packets)).isEqualTo(7);
            assertThat(b.tb.sim().peek(b.dut.malformed)).isZero();
        }
    }

    /** Registers a PUT packet the malformed cases expect (header and receiver memory). */
    static void expectPut(PackerHarness b, int fn, int qp, boolean last, boolean ce, long addr, byte[] payload) {
        PacketHeader h = new PacketHeader(PktType.PUT, Packer.DATA_TC, ce, last, false, payload.length, PackerHarness.requesterId(SP, fn),
                0x1234, new EndpointId(SP.processor(), fn, qp), new EndpointId(1, 2, 3), addr);
        b.expected.add(new PackerHarness.Pkt(h, payload));
        b.expectedPackets++;
        for (int i = 0; i < payload.length; i++) {
            b.expectedMem.put(addr + i, payload[i]);
        }
    }

    static void dataBeats(PackerHarness b, byte[] d, int beats, boolean lastOnFinal) {
        for (int i = 0; i < beats; i++) {
            byte[] chunk = Arrays.copyOfRange(d, Math.min(16 * i, d.length), Math.min(16 * i + 16, d.length));
            b.queueData(PackerHarness.le(chunk, null), 16, lastOnFinal && i == beats - 1, 0);
        }
    }

    @Test
    void malformedInputsEndTheirTransferAndNeverHang(RunConfig cfg) {
        try (PackerHarness b = new PackerHarness(cfg, SP, 0.2, 0.7, 0.7)) {
            int ep = new EndpointId(1, 2, 3).encode();
            // a GET control word and Kind 0: nothing to pack
            b.queueControl(DescKind.GET.code(), 1, 1, false, true, ep, 0x1234, 11, 32, 0, 0);
            b.queueControl(0, 1, 1, false, true, ep, 0x1234, 12, 32, 0, 0);
            // a NAP above 2048 bytes: refused, its 188 data beats dropped
            b.queueControl(DescKind.NAP_INDIRECT.code(), 1, 1, false, true, ep, 0x1234, 13, 3000, 1, 0);
            dataBeats(b, bytes(3000, 13), 188, true);
            // a PUT of 100 bytes whose data ends after 16: the packet never leaves
            b.queueControl(DescKind.PUT.code(), 2, 1, false, true, ep, 0x1234, 14, 100, 1, 1);
            b.queueDst(0x1000_0000L, 100, true);
            dataBeats(b, bytes(16, 14), 1, true);
            // a PUT of 40 bytes with 64 bytes of data: sent, the rest dropped
            byte[] d40 = bytes(64, 15);
            b.queueControl(DescKind.PUT.code(), 2, 2, true, true, ep, 0x1234, 15, 40, 1, 1);
            b.queueDst(0x2000_0000L, 40, true);
            dataBeats(b, d40, 4, true);
            expectPut(b, 2, 2, true, true, 0x2000_0000L, Arrays.copyOf(d40, 40));
            // a PUT of 300 bytes whose destination list is 100 bytes: the first packet leaves, then it fails
            byte[] d300 = bytes(300, 16);
            b.queueControl(DescKind.PUT.code(), 3, 0, false, false, ep, 0x1234, 16, 300, 1, 1);
            b.queueDst(0x3000_0000L, 100, true);
            dataBeats(b, d300, 19, true);
            expectPut(b, 3, 0, false, false, 0x3000_0000L, Arrays.copyOf(d300, 100));
            // a chain of 50 bytes with 60 bytes of destinations: 30 + 20 sent (LAST on the second), the third dropped
            byte[] d50 = bytes(50, 17);
            b.queueControl(DescKind.CHAIN.code(), 4, 3, false, true, ep, 0x1234, 17, 50, 1, 3);
            b.queueDst(0x4000_0000L, 30, false);
            b.queueDst(0x4100_0000L, 20, false);
            b.queueDst(0x4200_0000L, 10, true);
            dataBeats(b, d50, 4, true);
            expectPut(b, 4, 3, false, false, 0x4000_0000L, Arrays.copyOf(d50, 30));
            expectPut(b, 4, 3, true, true, 0x4100_0000L, Arrays.copyOfRange(d50, 30, 50));
            // a PUT of 40 bytes in beats of 5, 16, 16 and 3 valid bytes, garbage past each count: the bytes are
            // taken as one stream, so the packet is the 40 valid bytes in order
            byte[] d40b = bytes(40, 19);
            b.queueControl(DescKind.PUT.code(), 6, 0, false, true, ep, 0x1234, 19, 40, 1, 1);
            b.queueDst(0x6000_0000L, 40, true);
            int off = 0;
            for (int n : new int[] {5, 16, 16, 3}) {
                b.queueData(PackerHarness.le(Arrays.copyOfRange(d40b, off, off + n), b.garbage), n, off + n == 40, 0);
                off += n;
            }
            expectPut(b, 6, 0, true, true, 0x6000_0000L, d40b);
            // and a good PUT after all that
            byte[] d33 = bytes(33, 18);
            b.queueControl(DescKind.PUT.code(), 5, 1, true, false, ep, 0x1234, 18, 33, 1, 1);
            b.queueDst(0x5000_0000L, 33, true);
            b.queueData(PackerHarness.le(Arrays.copyOfRange(d33, 0, 16), null), 16, false, 0);
            b.queueData(PackerHarness.le(Arrays.copyOfRange(d33, 16, 32), null), 16, false, 0);
            b.queueData(PackerHarness.le(Arrays.copyOfRange(d33, 32, 33), null), 1, true, 0);
            expectPut(b, 5, 1, true, false, 0x5000_0000L, d33);
            int bad = CompletionStatus.BAD_DESCRIPTOR.code();
            int pcie = CompletionStatus.PCIE_ERROR.code();
            b.expectedEvents.addAll(List.of(
                    new PackerHarness.Ev(bad, 1, 1, DescKind.GET.code(), 11, 0),
                    new PackerHarness.Ev(bad, 1, 1, 0, 12, 0),
                    new PackerHarness.Ev(bad, 1, 1, DescKind.NAP_INDIRECT.code(), 13, 0),
                    new PackerHarness.Ev(pcie, 2, 1, DescKind.PUT.code(), 14, 0),
                    new PackerHarness.Ev(CompletionStatus.OK.code(), 2, 2, DescKind.PUT.code(), 15, 40),
                    new PackerHarness.Ev(pcie, 3, 0, DescKind.PUT.code(), 16, 100),
                    new PackerHarness.Ev(CompletionStatus.OK.code(), 5, 1, DescKind.PUT.code(), 18, 33)));
            b.transfers = 9;
            b.failures = 5;
            b.runAndCheck(5000);
            assertThat(b.tb.sim().peek(b.dut.malformed)).isEqualTo(7);
            assertThat(lengths(b)).containsExactly(40, 100, 30, 20, 40, 33);
        }
    }

    @Test
    void latencyFromControlToFirstHeaderIsTheFirstPacketsBeatsPlusOne(RunConfig cfg) {
        try (PackerHarness b = new PackerHarness(cfg, SP, 0, 1, 1)) {
            List<PackerHarness.Xfer> xs = List.of(
                    new PackerHarness.Xfer(1, new Descriptor.NapImmediate(common(0, false, true, 1), bytes(5, 1)), bytes(5, 1)),
                    new PackerHarness.Xfer(1, new Descriptor.NapImmediate(common(0, false, true, 2), new byte[0]), new byte[0]),
                    new PackerHarness.Xfer(1, new Descriptor.NapIndirect(common(0, false, true, 3), 2048, 0x10), bytes(2048, 3)),
                    new PackerHarness.Xfer(1, new Descriptor.Put(common(0, false, true, 4), 16, 0x10, 0x1000), bytes(16, 4)),
                    new PackerHarness.Xfer(1, new Descriptor.Put(common(0, false, true, 5), 100, 0x10, 0x2000), bytes(100, 5)),
                    new PackerHarness.Xfer(1, new Descriptor.Put(common(0, false, true, 6), 1000, 0x10, 0x3000), bytes(1000, 6)),
                    new PackerHarness.Xfer(1, chain(0, false, 7, new long[] {50}, new long[] {20, 30}, 0x4000), bytes(50, 7)));
            List<Long> latency = new ArrayList<>();
            for (PackerHarness.Xfer x : xs) {
                int before = b.probe.headerAt.size();
                b.send(x);
                b.tb.runUntil("transfer sent", b::done, 1000);
                latency.add(b.probe.headerAt.get(before) - b.probe.controlAt.get(b.probe.controlAt.size() - 1));
                b.tb.run(5);
            }
            b.tb.finish();
            b.check();
            System.out.println("packer latency control -> first header (cycles): NAP imm 5 B, NAP imm 0 B, NAP ind 2048 B, PUT 16, 100, 1000 B, chain 20+30: " + latency);
            assertThat(latency).containsExactly(2L, 2L, 129L, 2L, 8L, 9L, 3L);
        }
    }

    /** One 64 KB PUT at {@code mtu}, every input always ready: returns {cycles control to last beat, out beats, busy span}. */
    static long[] bigPut(RunConfig cfg, int mtu) {
        try (PackerHarness b = new PackerHarness(cfg, SP.withMtu(mtu), 0, 1, 1)) {
            int n = 64 * 1024;
            b.send(new PackerHarness.Xfer(0, new Descriptor.Put(common(0, true, true, 1), n, 0x10, 0x1_0000_0000L), bytes(n, mtu)));
            b.runAndCheck(20_000);
            long span = b.probe.lastOut - b.probe.firstOut + 1;
            long total = b.probe.lastOut - b.probe.controlAt.get(0);
            System.out.printf("packer 64 KB PUT at MTU %d: %d packets, %d beats out in %d cycles (occupancy %.4f), control -> last beat %d cycles, payload share of out beats %.3f%n",
                    mtu, b.out.packets, b.probe.outBeats, span, (double) b.probe.outBeats / span, total, (n / 16.0) / b.probe.outBeats);
            assertThat(b.out.packets).isEqualTo(n / mtu);
            return new long[] {total, b.probe.outBeats, span};
        }
    }

    @Test
    void a64KilobytePutKeepsTheOutputBusyEveryCycle(RunConfig cfg) {
        for (int mtu : new int[] {32, 128, 1024}) {
            long[] r = bigPut(cfg, mtu);
            long beats = 64 * 1024 / 16 + 64 * 1024 / mtu;
            assertThat(r[1]).isEqualTo(beats);
            assertThat(r[2]).as("one beat every cycle from the first header to the last beat").isEqualTo(beats);
            assertThat(r[0]).as("first header after one packet's payload + 1, then every beat back to back").isEqualTo(mtu / 16 + 1 + beats - 1);
        }
    }

    /**
     * Store-and-forward from a cold start, every input always ready: packet j is committed (whole payload buffered)
     * at t0 + the payload beats of packets 1..j (the filling side writes a beat a cycle and starts the next transfer
     * in the cycle the last one ends), its header leaves one cycle later or as soon as the output is free. The
     * output idles only when a packet is longer than the filling side's lead; returns the idle cycles so predicted.
     */
    static long predictedIdle(List<Integer> sizes, int mtu) {
        List<Integer> beats = new ArrayList<>();
        for (int n : sizes) {
            for (int off = 0; off < n; off += mtu) {
                beats.add((Math.min(mtu, n - off) + 15) / 16);
            }
        }
        long commit = 0;
        long free = 0;
        long idle = 0;
        for (int k : beats) {
            commit += k;
            long header = Math.max(commit + 1, free);
            if (free > 0) {
                idle += header - free;
            }
            free = header + k + 1;
        }
        return idle;
    }

    static long backToBack(RunConfig cfg, List<Integer> sizes) {
        try (PackerHarness b = new PackerHarness(cfg, SP, 0, 1, 1)) {
            long a = 0x1000;
            for (int i = 0; i < sizes.size(); i++) {
                int n = sizes.get(i);
                b.send(new PackerHarness.Xfer(i % 8, new Descriptor.Put(common(i % 4, i % 3 == 0, true, i), n, 0x10, a), bytes(n, i)));
                a += n;
            }
            b.runAndCheck(10_000);
            long span = b.probe.lastOut - b.probe.firstOut + 1;
            System.out.printf("packer %d back-to-back PUTs: %d beats out in %d cycles (%d idle, %d predicted)%n", sizes.size(),
                    b.probe.outBeats, span, span - b.probe.outBeats, predictedIdle(sizes, SP.mtu()));
            assertThat(span - b.probe.outBeats).isEqualTo(predictedIdle(sizes, SP.mtu()));
            return span - b.probe.outBeats;
        }
    }

    @Test
    void backToBackPutsKeepTheOutputBusyOnceTheFillingSideLeads(RunConfig cfg) {
        // equal sizes: never idle; 1..200 bytes at random: idle only while the lead is short of a longer packet
        assertThat(backToBack(cfg, java.util.Collections.nCopies(100, 100))).isZero();
        Rng r = new Rng(7);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sizes.add(1 + r.nextInt(200));
        }
        assertThat(backToBack(cfg, sizes)).isPositive();
        List<Integer> grow = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            grow.add(16 * (i + 1));
        }
        // k_n = n beats: the lead grows by one beat per transfer, exactly what each next packet needs
        assertThat(backToBack(cfg, grow)).isZero();
    }
}
