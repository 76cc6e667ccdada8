package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.Throttle;

/**
 * A simulated NRC with the management server on all 24 ports, the software reference
 * ({@link NrcReference}) and a scoreboard: every request's answer is predicted when it is sent and must
 * come back once, unchanged, out of the port its backward route names; dropped requests must stay
 * unanswered; fault reports are collected. Spec: 20-th2-management.md; docs/th2-nrc.md.
 */
public final class NrcEnv implements AutoCloseable {
    /** The counts of {@link #result()}. */
    public static final java.util.Map<String, String> COUNTS = org.flitkit.testbench.ScenarioResult.legend(
            "answers", "responses matched by the scoreboard to their request (by transaction ID), each as predicted",
            "reports", "fault reports the management server received");

    /** An answer as the scoreboard compares it: TransactionID, port it left by, the 792 bits. */
    public record Answer(int tid, int port, BitVector bits) {
        @Override
        public String toString() {
            String what;
            try {
                ManagementPacket p = ManagementPacket.parse(bits);
                what = p.nmpType() + " " + p.payload();
            } catch (IllegalArgumentException e) {
                what = "unparsable: " + e.getMessage();
            }
            return "tid=" + tid + " port=" + port + " " + what;
        }
    }

    /** A fault report as received: port it left by, cycle, its payload and TransactionID (sequence number). */
    public record Report(int port, long cycle, int seq, FaultPayload fault, ManagementPacket packet) {
    }

    public final Testbench<Nrc> tb;
    public final Nrc dut;
    public final MgmtServer server;
    public final FaultDriver faults;
    public final NrcReference ref;
    public final OutOfOrderScoreboard<Integer, Answer> scoreboard;
    public final List<Report> reports = new ArrayList<>();
    /** latency (cycles from sending to the last flit of the answer) by TransactionID */
    public final Map<Integer, Long> latency = new HashMap<>();
    private final Map<Integer, Long> sentAt = new HashMap<>();
    private int nextTid = 1;
    /** request packets sent into the ports so far (every one reaches the NMA) */
    public long sent;

    public NrcEnv(RunConfig cfg, EepParams eep, byte[] eepromImage, Throttle backpressure) {
        this(Testbench.create("the NRC", () -> new Nrc(eep, eepromImage), cfg), eepromImage, backpressure);
    }

    public NrcEnv(Testbench<Nrc> tb, byte[] eepromImage, Throttle backpressure) {
        this.tb = tb;
        this.dut = tb.dut();
        ref = new NrcReference(eepromImage);
        server = new MgmtServer(tb, backpressure);
        faults = tb.add(new FaultDriver("faults", dut.faults));
        scoreboard = tb.add(new OutOfOrderScoreboard<>("answers", Answer::tid));
        server.onReceive(this::received);
        BoardLinks.apply(tb.sim(), dut);
        tb.traces(dut.portIn.get(0).valid, dut.portIn.get(0).ready, dut.portOut.get(0).valid,
                dut.plane.toNma.valid, dut.plane.toNma.ready, dut.plane.fromNma.valid, dut.plane.fromNma.ready,
                dut.booting, dut.scl, dut.sda, dut.chipId);
        tb.phase("booting: power-up E2PROM load");
        tb.reset(2);
        tb.runUntil("the power-up load", () -> !tb.sim().peekBool(dut.booting), MgmtSession.BOOT_TIMEOUT);
        tb.phase(null);
    }

    /** A fresh TransactionID (1..65535, wrapping). */
    public int tid() {
        int t = nextTid;
        nextTid = nextTid == 0xFFFF ? 1 : nextTid + 1;
        return t;
    }

    /** Sends a well-formed request into {@code port}; the reference decides the answer (or none) now. */
    public ManagementPacket submit(int port, ManagementPacket req) {
        ManagementPacket answer = ref.answer(req);
        submitRaw(port, req.toBits(), answer);
        return answer;
    }

    /** Sends raw request bits with the answer they must get (null: the chip must drop them). */
    public void submitRaw(int port, BitVector bits, ManagementPacket answer) {
        int tid = (int) bits.get(PacketLayout.BODY1.TRANSACTION_ID);
        if (answer != null) {
            // the answer leaves by Hop0 of its route, which nmp_packer has used: HopPtr 1
            ManagementPacket out = answer.advance();
            scoreboard.expect(new Answer(tid, answer.route().hop(0), out.toBits()));
        }
        sentAt.put(tid, tb.cycle());
        sent++;
        server.send(port, bits);
    }

    /** Runs until every request is sent and answered (or {@code max} cycles: failure). */
    public long drain(long max) {
        return tb.runUntil("every answer", () -> server.allSent() && scoreboard.isEmpty(), max);
    }

    /** Runs {@code n} more cycles (to show that dropped requests stay unanswered). */
    public void idle(long n) {
        tb.run(n);
    }

    public long latency(int tid) {
        return latency.get(tid);
    }

    private void received(MgmtServer.Received r) {
        long type = r.bits().get(PacketLayout.BODY1.NMP_TYPE);
        if (type == NmpType.FAULT_REPORT.code()) {
            ManagementPacket p = ManagementPacket.parse(r.bits());
            reports.add(new Report(r.port(), r.cycle(), p.transactionId(), (FaultPayload) p.payload(), p));
            return;
        }
        int tid = (int) r.bits().get(PacketLayout.BODY1.TRANSACTION_ID);
        Long t0 = sentAt.get(tid);
        if (t0 != null) {
            latency.put(tid, r.cycle() - t0);
        }
        scoreboard.observe(new Answer(tid, r.port(), r.bits()));
    }

    /** The run's result with the answers matched and reports counted. */
    public org.flitkit.testbench.ScenarioResult result() {
        return tb.result().with("answers", scoreboard.matched()).with("reports", reports.size());
    }

    @Override
    public void close() {
        tb.close();
    }
}
