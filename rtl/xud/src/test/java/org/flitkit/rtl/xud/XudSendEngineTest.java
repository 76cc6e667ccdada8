package org.flitkit.rtl.xud;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.formats.xud.XudFormat.SendStatus;
import org.flitkit.rtl.xud.XudWork.Send;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link XudSendEngine} alone: send requests in, data packets and send CQEs out, ACKs in (docs/xud.md; paper
 * sections 2.1 and 2.3). Packets are compared bit for bit with the software codec's, ICRC included; every
 * completion (ACK, NAK, RNR NAK, timeout, local error) with the CQE it must produce.
 */
@ExtendWith(TestbenchExtension.class)
class XudSendEngineTest {
    static final int LID = 0x0123;
    /** 4 QPs of 4 slots, a timeout no test reaches unless it means to. */
    static final XudParams PARAMS = XudParams.defaults().withSlotsPerQp(4).withTimeout(100_000);

    /** The engine with a source and a sink with monitors on each stream. */
    static final class Env implements AutoCloseable {
        final Testbench<XudSendEngine> tb;
        final Simulator sim;
        final StreamSource wqes;
        final StreamSource acks;
        final Recorder<BigInteger> wqesTaken;
        final Recorder<BigInteger> acksTaken;
        final Recorder<BigInteger> packets;
        final Recorder<BigInteger> cqes;

        Env(RunConfig cfg, XudParams p, Throttle gaps, Throttle backpressure) {
            tb = Testbench.create(() -> new XudSendEngine(p), cfg);
            sim = tb.sim();
            XudSendEngine e = tb.dut();
            wqes = tb.add(new StreamSource("wqes", StreamPort.of(e.wqe)).gaps(gaps));
            acks = tb.add(new StreamSource("acks", StreamPort.of(e.ackIn)).gaps(gaps));
            tb.add(new StreamSink("link", StreamPort.of(e.pktOut)).backpressure(backpressure));
            tb.add(new StreamSink("cq", StreamPort.of(e.cqe)).backpressure(backpressure));
            wqesTaken = record("wqes_monitor", StreamPort.of(e.wqe));
            acksTaken = record("acks_monitor", StreamPort.of(e.ackIn));
            packets = record("link_monitor", StreamPort.of(e.pktOut));
            cqes = record("cq_monitor", StreamPort.of(e.cqe));
            sim.poke(e.lid, LID);
            tb.reset(1);
        }

        private Recorder<BigInteger> record(String name, StreamPort port) {
            Recorder<BigInteger> r = new Recorder<>(tb);
            tb.add(new StreamMonitor(name, port).checkHoldEveryCycle().subscribe(r));
            return r;
        }

        /** Creates {@code qp} with {@code cur_psn = initPsn} (its first packet carries initPsn + 1). */
        void create(int qp, int initPsn) {
            XudSendEngine e = tb.dut();
            sim.poke(e.create.valid, 1);
            sim.poke(e.create.bits.qp, qp);
            sim.poke(e.create.bits.initPsn, initPsn);
            tb.run(1);
            sim.poke(e.create.valid, 0);
        }

        long sent() {
            return sim.peek(tb.dut().sent);
        }

        long timeouts() {
            return sim.peek(tb.dut().timeouts);
        }

        long staleAcks() {
            return sim.peek(tb.dut().staleAcks);
        }

        static BigInteger ack(int qp, int syndrome, int msn) {
            return new XudFormat.AckPacket(LID, 0x0456, qp, syndrome, msn).encode();
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    @Test
    void packetsCarryTheRequestsFieldsAndConsecutivePsnsPerQpAndAcksCompleteThem(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS.withSlotsPerQp(64), Throttle.busy(0.3), Throttle.busy(0.4))) {
            int[] cur = {0, XudFormat.PSN_MOD - 3, 100, 0}; // QP 1 wraps its PSN after three packets
            env.create(1, cur[1]);
            env.create(2, cur[2]);
            Rng rnd = env.tb.rng("requests");
            InOrderScoreboard<BigInteger> link = env.tb.add(new InOrderScoreboard<>("link_scoreboard"));
            env.tb.add(new StreamMonitor("link_check", StreamPort.of(env.tb.dut().pktOut)).subscribe(link::observe));
            List<int[]> inFlight = new ArrayList<>(); // {qp, psn, request index}
            List<Send> requests = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                int qp = 1 + rnd.nextInt(2);
                Send s = Send.random(rnd, qp, 0xA000_0000L + i);
                cur[qp] = (cur[qp] + 1) % XudFormat.PSN_MOD;
                link.expect(s.packet(LID, cur[qp]));
                inFlight.add(new int[] {qp, cur[qp], i});
                requests.add(s);
                env.wqes.send(s.bits());
            }
            env.tb.runUntil("60 packets", () -> link.matched() == 60, 2_000);
            assertThat(env.sent()).isEqualTo(60);
            assertThat(env.cqes.size()).isZero();
            // PSNs of QP 1 wrapped: 2^24 - 2, 2^24 - 1, 0, 1, ...
            assertThat(inFlight.stream().filter(f -> f[0] == 1).limit(4).map(f -> f[1]))
                    .containsExactly(XudFormat.PSN_MOD - 2, XudFormat.PSN_MOD - 1, 0, 1);

            // answers in random order, every syndrome class: each completes its message with its status
            for (int k = inFlight.size() - 1; k > 0; k--) {
                Collections.swap(inFlight, k, rnd.nextInt(k + 1));
            }
            int[] syndromes = {XudFormat.SYN_ACK, XudFormat.SYN_RNR, XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST,
                XudFormat.SYN_NAK | XudFormat.NAK_REMOTE_OP_ERROR};
            List<BigInteger> expected = new ArrayList<>();
            for (int k = 0; k < inFlight.size(); k++) {
                int[] f = inFlight.get(k);
                int syn = syndromes[k % syndromes.length];
                env.acks.send(Env.ack(f[0], syn, f[1]));
                expected.add(XudWork.sendCqe(requests.get(f[2]).wrId(), XudWork.statusOf(syn), syn, f[0], f[1]));
            }
            env.tb.runUntil("60 completions", () -> env.cqes.size() == 60, 2_000);
            env.tb.finish();
            assertThat(env.cqes.items()).isEqualTo(expected);
            assertThat(env.staleAcks()).isZero();
            assertThat(env.timeouts()).isZero();
        }
    }

    @Test
    void anAckForASlotHoldingAnotherPsnIsNotMatched(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS, Throttle.NONE, Throttle.NONE)) {
            env.create(0, 0);
            Send s = Send.random(env.tb.rng("request"), 0, 77);
            env.wqes.send(s.bits()); // PSN 1 in slot 1 of QP 0
            env.tb.runUntil("the packet", () -> env.packets.size() == 1, 50);
            assertThat(env.packets.get(0)).isEqualTo(s.packet(LID, 1));

            env.acks.send(Env.ack(0, XudFormat.SYN_ACK, 5)); // slot 1 (5 mod 4), but PSN 5 was never sent
            env.acks.send(Env.ack(0, XudFormat.SYN_ACK, 1 + XudFormat.PSN_MOD / 2)); // slot 1 again, PSN far away
            env.acks.send(Env.ack(1, XudFormat.SYN_ACK, 1)); // the right PSN on another QP
            env.acks.send(Env.ack(4, XudFormat.SYN_ACK, 1)); // a QP the adapter does not have (its low bits are QP 0)
            env.acks.send(Env.ack(0, XudFormat.SYN_ACK, 1).flipBit(XudFormat.MSN.lsb() + 23)); // corrupted: ICRC fails
            env.acks.send(XudFormat.withIcrc(XudFormat.OPCODE.set(Env.ack(0, XudFormat.SYN_ACK, 1), XudFormat.OP_XUD_SEND)));
            env.tb.runUntil("six ACKs taken", () -> env.acksTaken.size() == 6, 50);
            env.tb.run(5);
            assertThat(env.staleAcks()).isEqualTo(6);
            assertThat(env.cqes.size()).isZero();

            env.acks.send(Env.ack(0, XudFormat.SYN_ACK, 1)); // the right one
            env.acks.send(Env.ack(0, XudFormat.SYN_ACK, 1)); // and its duplicate: the slot is free now
            env.tb.runUntil("the completion", () -> env.acksTaken.size() == 8, 50);
            env.tb.run(5);
            env.tb.finish();
            assertThat(env.cqes.items()).containsExactly(XudWork.sendCqe(77, SendStatus.SUCCESS, XudFormat.SYN_ACK, 0, 1));
            assertThat(env.staleAcks()).isEqualTo(7);
        }
    }

    @Test
    void aMessageWithoutAnswerTimesOutExactlyTimeoutCyclesAfterItWasSent(RunConfig cfg) {
        int timeout = 50;
        try (Env env = new Env(cfg, PARAMS.withTimeout(timeout), Throttle.NONE, Throttle.NONE)) {
            env.create(3, 1000);
            Rng rnd = env.tb.rng("requests");
            Send a = Send.random(rnd, 3, 1);
            Send b = Send.random(rnd, 3, 2);
            env.wqes.send(a.bits());
            env.wqes.send(b.bits());
            env.tb.runUntil("two packets", () -> env.packets.size() == 2, 50);
            env.acks.send(Env.ack(3, XudFormat.SYN_ACK, 1002)); // b is answered, a is not
            env.tb.runUntil("two completions", () -> env.cqes.size() == 2, 200);
            assertThat(env.cqes.items()).containsExactly(XudWork.sendCqe(2, SendStatus.SUCCESS, XudFormat.SYN_ACK, 3, 1002),
                    XudWork.sendCqe(1, SendStatus.TIMEOUT, 0, 3, 1001));
            // taken at cycle t, its timer expires at t + timeout, the CQE leaves its queue one cycle later
            assertThat(env.cqes.cycle(1) - env.wqesTaken.cycle(0)).isEqualTo(timeout + 1);
            assertThat(env.timeouts()).isEqualTo(1);
            // b's timer entry finds its slot completed and is dropped without a completion
            env.tb.run(2L * timeout);
            env.acks.send(Env.ack(3, XudFormat.SYN_ACK, 1001)); // too late: a already timed out
            env.tb.run(10);
            env.tb.finish();
            assertThat(env.cqes.size()).isEqualTo(2);
            assertThat(env.timeouts()).isEqualTo(1);
            assertThat(env.staleAcks()).isEqualTo(1);
        }
    }

    @Test
    void localErrorsCompleteAtOnceWithoutAPacket(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS, Throttle.busy(0.3), Throttle.busy(0.4))) {
            env.create(0, 0);
            Rng rnd = env.tb.rng("requests");
            env.wqes.send(Send.random(rnd, 0, 10).withLen(XudFormat.MTU_BYTES + 1).bits()); // over the MTU
            env.wqes.send(Send.random(rnd, 2, 11).bits());                              // QP 2 not created
            env.wqes.send(Send.random(rnd, 200, 12).bits());                            // no QP 200 on this adapter
            Send good = Send.random(rnd, 0, 13).withLen(XudFormat.MTU_BYTES);
            env.wqes.send(good.bits());
            env.tb.runUntil("three completions and a packet", () -> env.cqes.size() == 3 && env.packets.size() == 1, 200);
            env.tb.finish();
            assertThat(env.cqes.items()).containsExactly(XudWork.sendCqe(10, SendStatus.LOCAL_LENGTH_ERROR, 0, 0, 0),
                    XudWork.sendCqe(11, SendStatus.LOCAL_QP_ERROR, 0, 2, 0), XudWork.sendCqe(12, SendStatus.LOCAL_QP_ERROR, 0, 200, 0));
            // the errors used no PSN: the good request still gets PSN 1
            assertThat(env.packets.items()).containsExactly(good.packet(LID, 1));
            assertThat(env.sent()).isEqualTo(1);
        }
    }

    @Test
    void sendingStallsWhileThePsnsSlotStillHoldsAMessageInFlight(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS.withSlotsPerQp(2), Throttle.NONE, Throttle.NONE)) {
            env.create(1, 0);
            Rng rnd = env.tb.rng("requests");
            List<Send> sends = List.of(Send.random(rnd, 1, 1), Send.random(rnd, 1, 2), Send.random(rnd, 1, 3));
            sends.forEach(s -> env.wqes.send(s.bits()));
            env.tb.run(100);
            // PSN 3 needs slot 1, still held by PSN 1
            assertThat(env.packets.size()).isEqualTo(2);
            assertThat(env.wqesTaken.size()).isEqualTo(2);
            env.acks.send(Env.ack(1, XudFormat.SYN_ACK, 1));
            env.tb.runUntil("the third packet", () -> env.packets.size() == 3, 20);
            env.tb.finish();
            assertThat(env.packets.items()).containsExactly(sends.get(0).packet(LID, 1), sends.get(1).packet(LID, 2),
                    sends.get(2).packet(LID, 3));
            // the ACK frees the slot at its edge; the request is taken the next cycle and leaves one cycle later
            assertThat(env.wqesTaken.cycle(2) - env.acksTaken.cycle(0)).isEqualTo(1);
            assertThat(env.packets.cycle(2) - env.wqesTaken.cycle(2)).isEqualTo(1);
        }
    }
}
