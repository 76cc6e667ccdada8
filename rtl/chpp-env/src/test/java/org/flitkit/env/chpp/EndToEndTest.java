package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.Status;
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
            assertThat(sent.get(0).status()).isEqualTo(Status.OK);
            assertThat(sent.get(0).bytes()).isEqualTo(1000);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).type()).isEqualTo(PktType.PUT);
            assertThat(got.get(0).status()).isEqualTo(Status.OK);
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
            assertThat(sent).extracting(SendCompletion::status).containsExactly(Status.OK, Status.OK);
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
            assertThat(sent.get(0).status()).isEqualTo(Status.OK);
            assertThat(got.get(0).type()).isEqualTo(PktType.PUT);
            assertThat(got.get(0).status()).isEqualTo(Status.OK);
            assertThat(got.get(0).src()).isEqualTo(b.id());
            assertThat(got.get(0).resp()).as("the PUT answers our GET").isTrue();
            assertThat(env.driver(0).memory().read(0x6000_0001L, remote.length)).isEqualTo(remote);
        }
    }
}
