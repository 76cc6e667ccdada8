package org.flitkit.rtl.xud;

import org.flitkit.formats.xud.XudFormat;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
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
 * {@link XudRecvEngine} alone: packets and receive requests in, acknowledgements and host writes out
 * (docs/xud.md; paper section 2.2). Every packet gets one answer whose MSN is its PSN; a good one writes its
 * data to the next receive request's buffer and then a CQE; a bad one (ICRC, opcode, length, QP) is NAKed with
 * its code and dropped, counted; with no receive request posted it is RNR-NAKed.
 */
@ExtendWith(TestbenchExtension.class)
class XudRecvEngineTest {
    static final int LID = 0x0456;
    static final long CQ = XudParams.DEFAULT_RECV_CQ_BASE;
    /** 4 QPs, 64 receive requests each, a 16-entry completion ring (so the tests wrap it). */
    static final XudParams PARAMS = new XudParams(4, 64, 2_000, 128, 64, 16, XudParams.DEFAULT_SEND_CQ_BASE, CQ);

    /** The engine with sources on packets and receive requests, sinks and monitors on the answers and host writes. */
    static final class Env implements AutoCloseable {
        final Testbench<XudRecvEngine> tb;
        final Simulator sim;
        final StreamSource packets;
        final StreamSource posts;
        final Recorder<BigInteger> packetsTaken;
        final Recorder<BigInteger> postsTaken;
        final Recorder<BigInteger> acks;
        final Recorder<BigInteger> dataWrites;
        final Recorder<BigInteger> cqWrites;
        final int cqDepth;

        Env(RunConfig cfg, XudParams p, Throttle gaps, Throttle backpressure) {
            cqDepth = p.cqDepth();
            tb = Testbench.create(() -> new XudRecvEngine(p), cfg);
            sim = tb.sim();
            XudRecvEngine e = tb.dut();
            packets = tb.add(new StreamSource("packets", StreamPort.of(e.pktIn)).gaps(gaps));
            posts = tb.add(new StreamSource("posts", StreamPort.of(e.postRecv)));
            tb.add(new StreamSink("link", StreamPort.of(e.ackOut)).backpressure(backpressure));
            tb.add(new StreamSink("host", StreamPort.of(e.dma)).backpressure(backpressure));
            packetsTaken = record("packets_monitor", StreamPort.of(e.pktIn));
            postsTaken = record("posts_monitor", StreamPort.of(e.postRecv));
            acks = record("link_monitor", StreamPort.of(e.ackOut));
            dataWrites = new Recorder<>(tb);
            cqWrites = new Recorder<>(tb);
            long ringEnd = CQ + (long) p.cqDepth() * XudFormat.CQE_BYTES;
            tb.add(new StreamMonitor("host_monitor", StreamPort.of(e.dma)).checkHoldEveryCycle().subscribe(w -> {
                long addr = w.shiftRight(XudFormat.CQE_BITS + 6).longValueExact();
                (addr >= CQ && addr < ringEnd ? cqWrites : dataWrites).accept(w);
            }));
            sim.poke(e.lid, LID);
            tb.reset(1);
        }

        private Recorder<BigInteger> record(String name, StreamPort port) {
            Recorder<BigInteger> r = new Recorder<>(tb);
            tb.add(new StreamMonitor(name, port).checkHoldEveryCycle().subscribe(r));
            return r;
        }

        void create(int qp) {
            sim.poke(tb.dut().create.valid, 1);
            sim.poke(tb.dut().create.bits.qp, qp);
            tb.run(1);
            sim.poke(tb.dut().create.valid, 0);
        }

        long delivered() {
            return sim.peek(tb.dut().delivered);
        }

        long naks() {
            return sim.peek(tb.dut().naks);
        }

        long rnrNaks() {
            return sim.peek(tb.dut().rnrNaks);
        }

        /** The CQ write of the {@code i}-th delivered message: the ring slot, its owner bit, the CQE's fields. */
        BigInteger cqWrite(long i, XudFormat.DataPacket d, long wrId) {
            BigInteger xudeth = XudFormat.XUDETH.getBig(d.encode());
            BigInteger w = XudFormat.RCQE_XUDETH.set(BigInteger.ZERO, XudFormat.hostWord(XudFormat.bytesOf(xudeth, 16)));
            w = XudFormat.RCQE_WR_ID.set(w, wrId);
            w = XudFormat.RCQE_BYTE_LEN.set(w, d.payload().length);
            w = XudFormat.RCQE_SLID.set(w, d.slid());
            w = XudFormat.RCQE_QP.set(w, d.destQp() & 0xFF);
            w = XudFormat.RCQE_PSN.set(w, d.psn());
            w = XudFormat.CQE_OWNER.set(w, (i / cqDepth) % 2 == 0 ? 1 : 0);
            return XudWork.dma(CQ + (i % cqDepth) * XudFormat.CQE_BYTES, w, XudFormat.CQE_BYTES);
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    /** The answer to {@code pkt} (as received, possibly corrupted): to its SLID and SrcQP, MSN = its PSN. */
    static BigInteger answer(BigInteger pkt, int syndrome) {
        return new XudFormat.AckPacket((int) XudFormat.SLID.get(pkt), LID, (int) XudFormat.SRC_QP.get(pkt), syndrome,
                (int) XudFormat.PSN.get(pkt)).encode();
    }

    static XudFormat.DataPacket randomPacket(Rng rnd, int destQp, int len) {
        byte[] payload = new byte[len];
        rnd.nextBytes(payload);
        return new XudFormat.DataPacket(LID, rnd.nextInt(1 << 16), destQp, rnd.nextInt(1 << 24), rnd.nextInt(XudFormat.PSN_MOD),
                rnd.nextLong() >>> 32, rnd.nextInt(1 << 16), rnd.nextLong() >>> 32, payload);
    }

    static BigInteger dataWrite(long addr, byte[] payload) {
        return XudWork.dma(addr, XudFormat.hostWord(Arrays.copyOf(payload, XudFormat.MTU_BYTES)), payload.length);
    }

    @Test
    void eachMessageGoesToTheNextReceiveRequestAndItsDataBeforeItsCqe(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS, Throttle.busy(0.3), Throttle.busy(0.4))) {
            env.create(1);
            env.create(2);
            Rng rnd = env.tb.rng("traffic");
            int n = 40;
            // 20 receive requests per QP, buffers 4 KiB apart, posted before any packet
            for (int k = 0; k < n / 2; k++) {
                env.posts.send(XudWork.recv(1, 0x10_0000L + 0x1000L * k, 0x100 + k));
                env.posts.send(XudWork.recv(2, 0x20_0000L + 0x1000L * k, 0x200 + k));
            }
            env.tb.runUntil("receive requests posted", () -> env.postsTaken.size() == n, 200);
            InOrderScoreboard<BigInteger> answers = env.tb.add(new InOrderScoreboard<>("answers"));
            env.tb.add(new StreamMonitor("answers_check", StreamPort.of(env.tb.dut().ackOut)).subscribe(answers::observe));
            List<BigInteger> data = new ArrayList<>();
            List<BigInteger> cq = new ArrayList<>();
            int[] used = new int[4];
            int[] dataOf = new int[n]; // message i's data write, -1 without data
            for (int i = 0; i < n; i++) {
                int qp = 1 + rnd.nextInt(2);
                if (used[qp] == n / 2) {
                    qp = 3 - qp;
                }
                int k = used[qp]++;
                XudFormat.DataPacket d = randomPacket(rnd, qp, i == 0 ? 0 : rnd.nextInt(XudFormat.MTU_BYTES + 1));
                BigInteger pkt = d.encode();
                env.packets.send(pkt);
                answers.expect(answer(pkt, XudFormat.SYN_ACK));
                dataOf[i] = d.payload().length > 0 ? data.size() : -1;
                if (d.payload().length > 0) {
                    data.add(dataWrite((qp == 1 ? 0x10_0000L : 0x20_0000L) + 0x1000L * k, d.payload()));
                }
                cq.add(env.cqWrite(i, d, (qp == 1 ? 0x100 : 0x200) + k));
            }
            env.tb.runUntil(n + " CQEs written", () -> env.cqWrites.size() == n, 5_000);
            env.tb.finish();
            assertThat(env.dataWrites.items()).isEqualTo(data);
            assertThat(env.cqWrites.items()).isEqualTo(cq); // 40 entries in a ring of 16: owner 1, 0, 1
            assertThat(answers.matched()).isEqualTo(n);
            // each message's data is written before its CQE (message 0 has none)
            assertThat(dataOf[0]).isEqualTo(-1);
            for (int i = 0; i < n; i++) {
                if (dataOf[i] >= 0) {
                    assertThat(env.dataWrites.cycle(dataOf[i])).as("message %d", i).isLessThan(env.cqWrites.cycle(i));
                }
            }
            assertThat(env.delivered()).isEqualTo(n);
            assertThat(env.naks()).isZero();
            assertThat(env.rnrNaks()).isZero();
        }
    }

    @Test
    void malformedPacketsAreNakedWithTheirCodeAndDroppedAndCounted(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS, Throttle.busy(0.3), Throttle.busy(0.4))) {
            env.create(0);
            env.create(1);
            Rng rnd = env.tb.rng("traffic");
            XudFormat.DataPacket d = randomPacket(rnd, 0, 5);
            BigInteger good = d.encode();
            int invalid = XudFormat.SYN_NAK | XudFormat.NAK_INVALID_REQUEST;
            List<BigInteger> bad = List.of(
                    good.flipBit(XudFormat.PAYLOAD.lsb() + 100),                                            // ICRC fails
                    XudFormat.withIcrc(XudFormat.OPCODE.set(good, 0x64)),                                   // a UD send
                    XudFormat.withIcrc(XudFormat.PKT_LEN.set(good, XudFormat.DATA_HEADER_WORDS + 9)),        // over the MTU
                    XudFormat.withIcrc(XudFormat.PKT_LEN.set(good, XudFormat.DATA_HEADER_WORDS - 1)),        // shorter than its headers
                    XudFormat.withIcrc(XudFormat.PKT_LEN.set(good, XudFormat.DATA_HEADER_WORDS)),            // no payload, PadCnt 3
                    XudFormat.withIcrc(XudFormat.DEST_QP.set(good, 2)),                                     // QP 2 not created
                    XudFormat.withIcrc(XudFormat.DEST_QP.set(good, 4)));                                    // no QP 4 (low bits: QP 0)
            List<BigInteger> expected = new ArrayList<>();
            for (int k = 0; k < bad.size(); k++) {
                env.packets.send(bad.get(k));
                expected.add(answer(bad.get(k), k == 0 ? XudFormat.SYN_NAK | XudFormat.NAK_REMOTE_OP_ERROR : invalid));
            }
            BigInteger toQp1 = randomPacket(rnd, 1, 8).encode();
            env.packets.send(toQp1); // good, but nothing posted on QP 1
            expected.add(answer(toQp1, XudFormat.SYN_RNR));
            env.tb.runUntil("eight answers", () -> env.acks.size() == 8, 500);
            assertThat(env.naks()).isEqualTo(7);
            assertThat(env.rnrNaks()).isEqualTo(1);
            assertThat(env.delivered()).isZero();
            assertThat(env.dataWrites.size() + env.cqWrites.size()).isZero();

            // none of them used a receive request: the good packet gets QP 0's first
            env.posts.send(XudWork.recv(0, 0x4000, 0xAB));
            env.posts.send(XudWork.recv(0, 0x5000, 0xCD));
            env.tb.runUntil("posted", () -> env.postsTaken.size() == 2, 50);
            env.packets.send(good);
            expected.add(answer(good, XudFormat.SYN_ACK));
            env.tb.runUntil("the CQE", () -> env.cqWrites.size() == 1, 200);
            env.tb.finish();
            assertThat(env.acks.items()).isEqualTo(expected);
            assertThat(env.dataWrites.items()).containsExactly(dataWrite(0x4000, d.payload()));
            assertThat(env.cqWrites.items()).containsExactly(env.cqWrite(0, d, 0xAB));
            assertThat(env.delivered()).isEqualTo(1);
            assertThat(env.naks()).isEqualTo(7);
        }
    }

    @Test
    void anIdleEngineAnswersAndWritesDataOneCycleAfterThePacketAndTheCqeOneLater(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS, Throttle.NONE, Throttle.NONE)) {
            env.create(3);
            env.posts.send(XudWork.recv(3, 0x8000, 1));
            env.tb.runUntil("posted", () -> env.postsTaken.size() == 1, 10);
            XudFormat.DataPacket d = randomPacket(env.tb.rng("traffic"), 3, XudFormat.MTU_BYTES);
            env.packets.send(d.encode());
            env.tb.runUntil("the CQE", () -> env.cqWrites.size() == 1, 20);
            env.tb.finish();
            long t = env.packetsTaken.cycle(0);
            assertThat(env.acks.cycle(0) - t).isEqualTo(1);
            assertThat(env.dataWrites.cycle(0) - t).isEqualTo(1);
            assertThat(env.cqWrites.cycle(0) - t).isEqualTo(2);
            assertThat(env.dataWrites.items()).containsExactly(dataWrite(0x8000, d.payload()));
        }
    }

    @Test
    void aFullReceiveQueueTakesNoMorePostsUntilAMessageUsesOne(RunConfig cfg) {
        try (Env env = new Env(cfg, PARAMS.withRqDepth(2), Throttle.NONE, Throttle.NONE)) {
            env.create(0);
            for (int k = 0; k < 3; k++) {
                env.posts.send(XudWork.recv(0, 0x1000L * (k + 1), k));
            }
            env.tb.run(30);
            assertThat(env.postsTaken.size()).isEqualTo(2);
            Rng rnd = env.tb.rng("traffic");
            List<XudFormat.DataPacket> ds = List.of(randomPacket(rnd, 0, 4), randomPacket(rnd, 0, 4), randomPacket(rnd, 0, 4));
            ds.forEach(d -> env.packets.send(d.encode()));
            env.tb.runUntil("three CQEs", () -> env.cqWrites.size() == 3, 100);
            env.tb.finish();
            assertThat(env.postsTaken.size()).isEqualTo(3);
            assertThat(env.dataWrites.items()).containsExactly(dataWrite(0x1000, ds.get(0).payload()),
                    dataWrite(0x2000, ds.get(1).payload()), dataWrite(0x3000, ds.get(2).payload()));
            assertThat(env.cqWrites.items()).containsExactly(env.cqWrite(0, ds.get(0), 0), env.cqWrite(1, ds.get(1), 1),
                    env.cqWrite(2, ds.get(2), 2));
        }
    }
}
