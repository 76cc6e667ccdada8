package org.flitkit.env.xud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.xud.HostEndpoint.RecvCompletion;
import org.flitkit.env.xud.HostEndpoint.SendCompletion;
import org.flitkit.env.host.DmaParams;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.formats.xud.XudFormat.SendStatus;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.junit.jupiter.api.Test;

/** The adapters without the window layer: completions, PSNs, checks and NAKs as the hardware gives them. */
class XudHardwareTest {
    private static final XudParams P = XudParams.defaults().withTimeout(300);
    private static final DmaParams FAST_HOST = DmaParams.defaults().withLatency(20, 10);

    /** Collects completions; sends nothing back. */
    static final class Log implements HostEndpoint.Listener {
        final List<SendCompletion> sends = new ArrayList<>();
        final List<RecvCompletion> recvs = new ArrayList<>();

        @Override
        public void onSend(HostEndpoint h, SendCompletion c) {
            sends.add(c);
        }

        @Override
        public void onRecv(HostEndpoint h, RecvCompletion c) {
            recvs.add(c);
        }
    }

    /** Logs on both hosts of a two-adapter environment. */
    private record Logs(Log a, Log b) {
        static Logs on(XudEnv env) {
            Logs l = new Logs(new Log(), new Log());
            env.host(0).listener(l.a());
            env.host(1).listener(l.b());
            return l;
        }
    }

    /** {@code n} requests of {@code len} bytes from QP 0 of host 0 to QP 0 of host 1, wr_id and win_msn = their number. */
    private static void burst(XudEnv env, int n, int len) {
        for (int i = 0; i < n; i++) {
            env.host(0).postSend(0, env.host(1).lid(), 0, 0, 0, i, data(len, i), i);
        }
    }

    private static byte[] data(int n, int seed) {
        byte[] d = new byte[n];
        for (int i = 0; i < n; i++) {
            d[i] = (byte) (seed * 31 + i);
        }
        return d;
    }

    @Test
    void psnWrapsAt2To24AndReceiveCqesCopyTheXudeth() {
        int start = XudFormat.PSN_MOD - 3;
        try (XudEnv env = new XudEnv(RunConfig.of(1, 0), 2, P, FAST_HOST, Faults.NONE, XudEnv.psns(P, start))) {
            Logs logs = Logs.on(env);
            Log a = logs.a();
            Log b = logs.b();
            List<BigInteger> wire = new ArrayList<>();
            env.tb.add(new StreamMonitor("wire0", StreamPort.of(env.cluster().netOut.get(0))).subscribe(wire::add));
            for (int i = 0; i < 6; i++) {
                env.host(0).postSend(1, env.host(1).lid(), 2, WindowLayer.Q_KEY, 100 + i, 0xABC00000L + i, data(5 + i, i), 7_000 + i);
            }
            env.tb.runUntil("6 send completions", () -> a.sends.size() == 6, 2_000);
            assertThat(a.sends).extracting(SendCompletion::psn).containsExactly(XudFormat.PSN_MOD - 2, XudFormat.PSN_MOD - 1, 0, 1, 2, 3);
            assertThat(a.sends).extracting(SendCompletion::status).containsOnly(SendStatus.SUCCESS);
            assertThat(a.sends).extracting(SendCompletion::wrId).containsExactly(7_000L, 7_001L, 7_002L, 7_003L, 7_004L, 7_005L);
            env.tb.runUntil("6 receive completions", () -> b.recvs.size() == 6, 2_000);
            for (int i = 0; i < 6; i++) {
                RecvCompletion r = b.recvs.get(i);
                assertThat(r.qp()).isEqualTo(2);
                assertThat(r.slid()).isEqualTo(env.host(0).lid());
                assertThat(r.srcQp()).isEqualTo(1);
                assertThat(r.qKey()).isEqualTo(WindowLayer.Q_KEY);
                assertThat(r.winId()).isEqualTo(100 + i);
                assertThat(r.winMsn()).isEqualTo(0xABC00000L + i);
                assertThat(r.data()).isEqualTo(data(5 + i, i));
            }
            // the hardware's packets are the software codec's, ICRC included
            assertThat(wire).hasSize(6);
            for (int i = 0; i < 6; i++) {
                XudFormat.DataPacket p = XudFormat.DataPacket.decode(wire.get(i));
                assertThat(p.encode()).isEqualTo(wire.get(i));
                assertThat(p.psn()).isEqualTo((start + 1 + i) % XudFormat.PSN_MOD);
            }
        }
    }

    @Test
    void aTimeoutAfterTheAckCompletedTheRequestIsDropped() {
        // round trip ~2 x 100 cycles < timeout 300: every ACK completes first, then every timer expires on a done slot;
        // 100 requests on 64 slots: requests 64.. reuse slots whose old timers are still pending, with a new PSN
        try (XudEnv env = new XudEnv(RunConfig.of(1, 0), 2, P, FAST_HOST, Faults.NONE, XudEnv.psns(P, 0), 100)) {
            Log a = Logs.on(env).a();
            env.tb.run(P.qps() * P.rqDepth()); // all receive buffers posted: no RNR NAK
            burst(env, 100, 8);
            env.tb.run(3_000);
            assertThat(a.sends).hasSize(100).extracting(SendCompletion::status).containsOnly(SendStatus.SUCCESS);
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.timeouts)).isZero();
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.staleAcks)).isZero();
        }
    }

    @Test
    void anAckAfterTheTimeoutIsStaleAndTheDataWasDeliveredAnyway() {
        // round trip ~2 x 200 cycles > timeout 300: every send completes with timeout, its ACK comes too late
        try (XudEnv env = new XudEnv(RunConfig.of(1, 0), 2, P, FAST_HOST, Faults.NONE, XudEnv.psns(P, 0), 200)) {
            Logs logs = Logs.on(env);
            Log a = logs.a();
            Log b = logs.b();
            burst(env, 20, 8);
            env.tb.run(2_000);
            assertThat(a.sends).hasSize(20).extracting(SendCompletion::status).containsOnly(SendStatus.TIMEOUT);
            assertThat(b.recvs).hasSize(20);
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.timeouts)).isEqualTo(20);
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.staleAcks)).isEqualTo(20);
        }
    }

    /**
     * A late ACK must not complete the message that reuses its slot: the ACK names its PSN, and the in-flight entry
     * is matched by slot and PSN. Round trip ~2 x 200 cycles > timeout 300 and 100 requests on 64 slots: requests
     * 64.. are sent into slots freed by timeouts, and the late ACKs of requests 0.. arrive while they are in flight.
     * Matched by slot alone, those ACKs would complete requests 64.. with SUCCESS before their own ACKs came.
     */
    @Test
    void aLateAckDoesNotCompleteTheRequestThatReusedItsSlot() {
        try (XudEnv env = new XudEnv(RunConfig.of(1, 0), 2, P, FAST_HOST, Faults.NONE, XudEnv.psns(P, 0), 200)) {
            Logs logs = Logs.on(env);
            Log a = logs.a();
            env.tb.run(P.qps() * P.rqDepth()); // all receive buffers posted: no RNR NAK
            burst(env, 100, 8);
            env.tb.run(4_000);
            assertThat(a.sends).hasSize(100).extracting(SendCompletion::status).containsOnly(SendStatus.TIMEOUT);
            assertThat(logs.b().recvs).hasSize(100);
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.timeouts)).isEqualTo(100);
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.staleAcks)).isEqualTo(100);
        }
    }

    @Test
    void localErrorsCompleteAtOnceAndBadRequestsAreNakedWithTheirCode() {
        try (XudEnv env = new XudEnv(RunConfig.of(1, 0), 2, P, FAST_HOST, Faults.NONE, XudEnv.psns(P, 0))) {
            Logs logs = Logs.on(env);
            Log a = logs.a();
            Log b = logs.b();
            env.host(0).postSend(0, env.host(1).lid(), 0, 0, 0, 0, data(8, 0), XudFormat.MTU_BYTES + 1, 1);
            env.host(0).postSend(P.qps(), env.host(1).lid(), 0, 0, 0, 0, data(8, 0), 2);
            env.host(0).postSend(0, env.host(1).lid(), P.qps(), 0, 0, 0, data(8, 0), 3); // no such QP at the receiver
            env.tb.run(1_000);
            assertThat(a.sends).extracting(SendCompletion::wrId, SendCompletion::status, SendCompletion::syndrome).containsExactly(
                    tuple(1L, SendStatus.LOCAL_LENGTH_ERROR, 0),
                    tuple(2L, SendStatus.LOCAL_QP_ERROR, 0),
                    tuple(3L, SendStatus.NAK, XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST));
            assertThat(env.network.dataPackets()).isEqualTo(1);
            assertThat(b.recvs).isEmpty();
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(1).recv.naks)).isEqualTo(1);
        }
    }

    @Test
    void everyPacketIsAnsweredWithItsPsnAndBadOnesWithTheirNakCode() {
        try (XudEnv env = new XudEnv(RunConfig.of(1, 0), 2, P, FAST_HOST, Faults.NONE, XudEnv.psns(P, 0))) {
            Logs logs = Logs.on(env);
            List<BigInteger> answers = new ArrayList<>();
            env.tb.add(new StreamMonitor("answers", StreamPort.of(env.cluster().netOut.get(1))).subscribe(answers::add));
            BigInteger good = new XudFormat.DataPacket(env.host(1).lid(), env.host(0).lid(), 0, 0, 5, 0, 0, 0, data(8, 0)).encode();
            env.network.inject(XudFormat.withIcrc(XudFormat.OPCODE.set(good, 0x64))); // a UD send, not an XUD one
            env.network.inject(XudFormat.withIcrc(XudFormat.PSN.set(XudFormat.PKT_LEN.set(good, 19), 6))); // payload over the MTU
            env.network.inject(XudFormat.withIcrc(XudFormat.PSN.set(XudFormat.PAD_CNT.set(XudFormat.PKT_LEN.set(good, 10), 1), 7)));
            env.network.inject(XudFormat.withIcrc(XudFormat.PSN.set(good, 8)));
            env.network.inject(XudFormat.withIcrc(XudFormat.PSN.set(good, 9)).flipBit(XudFormat.PAYLOAD.lsb() + 7)); // bad ICRC
            env.tb.run(300);
            assertThat(answers).extracting(XudFormat.AckPacket::decode).containsExactly(
                    new XudFormat.AckPacket(env.host(0).lid(), env.host(1).lid(), 0, XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST, 5),
                    new XudFormat.AckPacket(env.host(0).lid(), env.host(1).lid(), 0, XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST, 6),
                    new XudFormat.AckPacket(env.host(0).lid(), env.host(1).lid(), 0, XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST, 7),
                    new XudFormat.AckPacket(env.host(0).lid(), env.host(1).lid(), 0, XudFormat.SYN_ACK, 8),
                    new XudFormat.AckPacket(env.host(0).lid(), env.host(1).lid(), 0, XudFormat.SYN_NAK | XudFormat.NAK_REMOTE_OP_ERROR, 9));
            assertThat(logs.b().recvs).extracting(RecvCompletion::psn).containsExactly(8);
            // nothing was in flight at host 0: all five answers are stale there
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.staleAcks)).isEqualTo(5);
        }
    }

    @Test
    void corruptedPacketsAreNakedAsRemoteOperationalErrors() {
        // every packet gets one bit flipped: data packets are NAKed, the NAKs themselves fail their ICRC and are dropped
        try (XudEnv env = new XudEnv(RunConfig.of(3, 0), 2, P, FAST_HOST, new Faults(0, 0, 0, 0, 0.999), XudEnv.psns(P, 0))) {
            Logs logs = Logs.on(env);
            Log a = logs.a();
            Log b = logs.b();
            burst(env, 10, 16);
            env.tb.run(1_500);
            assertThat(b.recvs).isEmpty();
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(1).recv.naks)).isEqualTo(10);
            assertThat(a.sends).hasSize(10).extracting(SendCompletion::status).containsOnly(SendStatus.TIMEOUT);
            assertThat(env.tb.sim().peek(env.cluster().hcas().get(0).send.staleAcks)).isEqualTo(10);
        }
    }
}
