package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two engines of one controller through the crossbar, driven by the queue-pair driver (docs/chpp-nic.md). */
@ExtendWith(TestbenchExtension.class)
class EndToEndTest {
    static final int KEY = 0x5A17;

    @Test
    void putFromProcessorZeroLandsInProcessorOnesMemory(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(0, 0, KEY);
            ChppDriver.Qp b = env.driver(1).open(0, 0, KEY);
            byte[] data = new byte[1000];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i * 7 + 3);
            }
            env.driver(0).memory().write(0x1000_0003L, data);
            env.tb.run(200);
            a.put(b.id(), KEY, 0x1000_0003L, 0x2000_0005L, data.length, true, true);
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            env.tb.runUntil("send and receive completions", () -> {
                sent.addAll(a.pollSend());
                got.addAll(b.pollReceive());
                return !sent.isEmpty() && !got.isEmpty();
            }, 5000);
            long at = env.tb.cycle();
            assertThat(sent).hasSize(1);
            assertThat(sent.get(0).status()).isEqualTo(CompletionStatus.OK);
            assertThat(sent.get(0).bytes()).isEqualTo(1000);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).type()).isEqualTo(PktType.PUT);
            assertThat(got.get(0).status()).isEqualTo(CompletionStatus.OK);
            assertThat(got.get(0).resp()).isFalse();
            assertThat(env.driver(1).memory().read(0x2000_0005L, data.length)).isEqualTo(data);
            System.out.printf("1000-byte PUT: completions seen by cycle %d (build %.1f s: %s; sim %.1f s)%n", at, env.tb.buildSeconds(), env.tb.sim().stats(), env.tb.simSeconds());
        }
    }

    static byte[] pattern(int n, int seed) {
        byte[] d = new byte[n];
        for (int i = 0; i < n; i++) {
            d[i] = (byte) (i * 13 + seed);
        }
        return d;
    }

    /** Runs until {@code sent} send and {@code got} receive completions have been polled. */
    static void await(ChppEnv env, ChppDriver.Qp s, List<SendCompletion> sent, int nSent, ChppDriver.Qp r,
            List<ReceiveCompletion> got, int nGot) {
        env.tb.runUntil(nSent + " send and " + nGot + " receive completions", () -> {
            sent.addAll(s.pollSend());
            got.addAll(r.pollReceive());
            return sent.size() >= nSent && got.size() >= nGot;
        }, 20_000);
    }

    @Test
    void napImmediateAndIndirectLandInReceiveBuffers(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(1, 2, KEY);
            ChppDriver.Qp b = env.driver(1).open(3, 1, KEY);
            env.driver(1).openReceiveBuffers(64, 0x4000_0000L, 32);
            byte[] imm = pattern(37, 1);
            byte[] ind = pattern(1500, 2);
            env.driver(0).memory().write(0x1000_0101L, ind);
            env.tb.run(200);
            a.napImmediate(b.id(), KEY, imm, true);
            a.napIndirect(b.id(), KEY, 0x1000_0101L, ind.length, true);
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            await(env, a, sent, 2, b, got, 2);
            assertThat(sent).extracting(SendCompletion::status).containsExactly(CompletionStatus.OK, CompletionStatus.OK);
            assertThat(sent).extracting(SendCompletion::bytes).containsExactly(37L, 1500L);
            assertThat(got).extracting(ReceiveCompletion::type).containsExactly(PktType.NAP, PktType.NAP);
            assertThat(got).extracting(ReceiveCompletion::src).containsOnly(a.id());
            assertThat(got.get(0).address()).isEqualTo(0x4000_0000L);
            assertThat(got.get(1).address()).isEqualTo(0x4000_0800L);
            assertThat(env.driver(1).memory().read(got.get(0).address(), imm.length)).isEqualTo(imm);
            assertThat(env.driver(1).memory().read(got.get(1).address(), ind.length)).isEqualTo(ind);
        }
    }

    @Test
    void getIsAnsweredWithAPutIntoTheRequestersMemory(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(0, 1, KEY);
            ChppDriver.Qp b = env.driver(1).open(2, 3, KEY);
            byte[] remote = pattern(3000, 5);
            env.driver(1).memory().write(0x5000_0007L, remote);
            env.tb.run(200);
            a.get(b.id(), KEY, 0x5000_0007L, 0x6000_0001L, remote.length, true, true);
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            await(env, a, sent, 1, a, got, 1);
            assertThat(sent.get(0).status()).isEqualTo(CompletionStatus.OK);
            assertThat(got.get(0).type()).isEqualTo(PktType.PUT);
            assertThat(got.get(0).status()).isEqualTo(CompletionStatus.OK);
            assertThat(got.get(0).src()).isEqualTo(b.id());
            assertThat(got.get(0).resp()).as("the PUT answers our GET").isTrue();
            assertThat(env.driver(0).memory().read(0x6000_0001L, remote.length)).isEqualTo(remote);
        }
    }

    /**
     * Both processors GET from and PUT to each other at once, every function with 4 GETs and 4 PUTs outstanding. Each
     * engine's receive side is slower than the crossbar (PCIe writes), so PUTs queue; GETs that find the GET path full
     * wait on the crossbar's GET output while PUTs keep flowing on the other, so every request completes (paper 3.4.3,
     * inside one controller). With one shared output a GET at the head blocks the PUTs behind it, on both sides.
     */
    @Test
    void getsAndPutsBothWaysAtOnceAllComplete(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            int functions = 8;
            int each = 4;
            int bytes = 4096;
            int span = functions * each * bytes;
            List<List<ChppDriver.Qp>> qps = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                List<ChppDriver.Qp> side = new ArrayList<>();
                for (int f = 0; f < functions; f++) {
                    side.add(env.driver(p).open(f, 0, KEY));
                }
                qps.add(side);
                env.driver(p).memory().write(0x5000_0000L, pattern(span, 11 + p));
                env.driver(p).memory().write(0x5800_0000L, pattern(span, 21 + p));
            }
            env.tb.run(200);
            for (int k = 0; k < each; k++) {
                for (int f = 0; f < functions; f++) {
                    for (int p = 0; p < 2; p++) {
                        long off = (long) (f * each + k) * bytes;
                        ChppDriver.Qp q = qps.get(p).get(f);
                        EndpointId peer = qps.get(1 - p).get(f).id();
                        q.get(peer, KEY, 0x5000_0000L + off, 0x6000_0000L + off, bytes, false, true);
                        q.put(peer, KEY, 0x5800_0000L + off, 0x6800_0000L + off, bytes, false, true);
                    }
                }
            }
            List<ReceiveCompletion> got = new ArrayList<>();
            env.tb.runUntil("every GET and PUT received", () -> {
                for (List<ChppDriver.Qp> side : qps) {
                    for (ChppDriver.Qp q : side) {
                        got.addAll(q.pollReceive());
                    }
                }
                return got.size() == 2 * 2 * functions * each;
            }, 100_000);
            assertThat(got).extracting(ReceiveCompletion::status).containsOnly(CompletionStatus.OK);
            assertThat(got).filteredOn(ReceiveCompletion::resp).hasSize(2 * functions * each);
            for (int p = 0; p < 2; p++) {
                assertThat(env.driver(p).memory().read(0x6000_0000L, span)).as("GET answers at " + p).isEqualTo(pattern(span, 11 + (1 - p)));
                assertThat(env.driver(p).memory().read(0x6800_0000L, span)).as("PUTs at " + p).isEqualTo(pattern(span, 21 + (1 - p)));
            }
            System.out.printf("%d GETs and %d PUTs of %d bytes both ways at once: done by cycle %d%n", 2 * functions * each,
                    2 * functions * each, bytes, env.tb.cycle());
        }
    }

    @Test
    void chainWithUnalignedSegmentListsScattersExactly(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(4, 3, KEY);
            ChppDriver.Qp b = env.driver(1).open(5, 0, KEY);
            byte[] s0 = pattern(700, 1);
            byte[] s1 = pattern(333, 2);
            byte[] s2 = pattern(1, 3);
            env.driver(0).memory().write(0x1000_0011L, s0);
            env.driver(0).memory().write(0x1100_0007L, s1);
            env.driver(0).memory().write(0x1200_0000L, s2);
            env.tb.run(200);
            // 1034 bytes from 3 sources into 4 destinations whose boundaries fall elsewhere
            a.chain(b.id(), KEY, List.of(new org.flitkit.formats.chpp.Descriptor.Segment(0x1000_0011L, 700),
                    new org.flitkit.formats.chpp.Descriptor.Segment(0x1100_0007L, 333),
                    new org.flitkit.formats.chpp.Descriptor.Segment(0x1200_0000L, 1)),
                    List.of(new org.flitkit.formats.chpp.Descriptor.Segment(0x2000_0003L, 100),
                            new org.flitkit.formats.chpp.Descriptor.Segment(0x2100_0000L, 900),
                            new org.flitkit.formats.chpp.Descriptor.Segment(0x2200_0005L, 30),
                            new org.flitkit.formats.chpp.Descriptor.Segment(0x2300_0001L, 4)), true, true);
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            await(env, a, sent, 1, b, got, 1);
            assertThat(sent.get(0).status()).isEqualTo(CompletionStatus.OK);
            assertThat(sent.get(0).bytes()).isEqualTo(1034);
            byte[] all = new byte[1034];
            System.arraycopy(s0, 0, all, 0, 700);
            System.arraycopy(s1, 0, all, 700, 333);
            all[1033] = s2[0];
            var m = env.driver(1).memory();
            assertThat(m.read(0x2000_0003L, 100)).isEqualTo(java.util.Arrays.copyOfRange(all, 0, 100));
            assertThat(m.read(0x2100_0000L, 900)).isEqualTo(java.util.Arrays.copyOfRange(all, 100, 1000));
            assertThat(m.read(0x2200_0005L, 30)).isEqualTo(java.util.Arrays.copyOfRange(all, 1000, 1030));
            assertThat(m.read(0x2300_0001L, 4)).isEqualTo(java.util.Arrays.copyOfRange(all, 1030, 1034));
            // nothing next to the segments
            assertThat(m.read(0x2000_0002L, 1)[0]).isZero();
            assertThat(m.read(0x2000_0003L + 100, 1)[0]).isZero();
            assertThat(m.read(0x2300_0005L, 1)[0]).isZero();
        }
    }

    @Test
    void aWrongKeyIsRefusedReportedAndWritesNothing(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(0, 0, KEY);
            ChppDriver.Qp b = env.driver(1).open(1, 1, KEY);
            env.driver(0).memory().write(0x1000_0000L, pattern(256, 9));
            env.tb.run(200);
            a.put(b.id(), KEY ^ 1, 0x1000_0000L, 0x2000_0000L, 256, true, true);
            a.put(b.id(), KEY, 0x1000_0000L, 0x2100_0000L, 256, true, true);
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            await(env, a, sent, 2, b, got, 2);
            // the sender cannot know: both PUTs left
            assertThat(sent).extracting(SendCompletion::status).containsExactly(CompletionStatus.OK, CompletionStatus.OK);
            // the receiver refuses the first (its last packet carried CE, so it is reported) and takes the second
            assertThat(got).extracting(ReceiveCompletion::status).containsExactly(CompletionStatus.QP_MAGIC_REFUSED, CompletionStatus.OK);
            assertThat(env.driver(1).memory().read(0x2000_0000L, 256)).isEqualTo(new byte[256]);
            assertThat(env.driver(1).memory().read(0x2100_0000L, 256)).isEqualTo(pattern(256, 9));
            assertThat(env.tb.sim().peek(env.tb.dut().engines.get(1).receive.dispatch.refusedMagic)).isEqualTo(2);
        }
    }

    @Test
    void aFullReceiveRingHoldsTheEngineBackAndLosesNothing(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(2, 0, KEY);
            ChppDriver.Qp b = env.driver(1).open(2, 0, KEY);
            env.driver(0).memory().write(0x1000_0000L, pattern(100 * 16, 4));
            env.tb.run(200);
            int n = 100;
            int ring = org.flitkit.rtl.chpp.DmaEngine.DEFAULT_RING_ENTRIES;
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            int[] posted = {0};
            boolean[] polling = {false};
            // keep up to 30 PUTs outstanding (the doorbell FIFO holds 32); the receiver polls only when told to
            java.util.function.BooleanSupplier step = () -> {
                sent.addAll(a.pollSend());
                while (posted[0] < n && posted[0] - sent.size() < 30) {
                    a.put(b.id(), KEY, 0x1000_0000L + 16L * posted[0], 0x2000_0000L + 16L * posted[0], 16, true, true);
                    posted[0]++;
                }
                if (polling[0]) {
                    got.addAll(b.pollReceive());
                }
                return sent.size() == n && got.size() == n;
            };
            env.tb.runUntil("held back", () -> {
                step.getAsBoolean();
                return env.tb.cycle() > 20_000;
            }, 30_000);
            // nobody polled the receive ring: exactly its 64 entries were written, and the back-pressure reached the
            // sender: its PUTs stopped leaving
            var eng = env.tb.dut().engines.get(1);
            assertThat(env.tb.sim().peek(eng.receiveRing.written)).isEqualTo(ring);
            assertThat(env.tb.sim().peek(eng.receiveRing.fullCycles)).isPositive();
            assertThat(sent.size()).isLessThan(n);
            polling[0] = true;
            env.tb.runUntil("everything sent and received", step, 50_000);
            assertThat(got).extracting(ReceiveCompletion::address).containsExactlyElementsOf(
                    java.util.stream.LongStream.range(0, n).map(i -> 0x2000_0000L + 16 * i).boxed().toList());
            assertThat(env.driver(1).memory().read(0x2000_0000L, n * 16)).isEqualTo(pattern(100 * 16, 4));
        }
    }

    @Test
    void doorbellsBeyondTheFunctionsFifoAreRefusedAndCountedTheRestComplete(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(3, 1, KEY);
            ChppDriver.Qp b = env.driver(1).open(3, 1, KEY);
            env.driver(1).openReceiveBuffers(64, 0x4000_0000L, 64);
            env.tb.run(200);
            // 48 doorbells in 48 cycles on one function: its FIFO holds 32, and descriptor read takes 4 at a time
            // while each read takes 131 cycles, so the last ones find the FIFO full
            int n = 48;
            List<Integer> cookies = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                cookies.add(a.napImmediate(b.id(), KEY, pattern(8, i), true));
            }
            List<SendCompletion> sent = new ArrayList<>();
            env.tb.run(20_000);
            sent.addAll(a.pollSend());
            var front = env.tb.dut().engines.get(0).send.front;
            long refused = env.tb.sim().peek(front.overflows.get(3));
            // refused doorbells are lost to the hardware, counted for software; every accepted one completes once
            assertThat(refused).isEqualTo(12);
            assertThat(sent).hasSize(n - (int) refused);
            assertThat(sent).extracting(SendCompletion::status).containsOnly(CompletionStatus.OK);
            assertThat(sent).extracting(SendCompletion::cookie).containsExactlyElementsOf(cookies.subList(0, n - (int) refused));
            assertThat(b.pollReceive()).hasSize(n - (int) refused);
        }
    }
}
