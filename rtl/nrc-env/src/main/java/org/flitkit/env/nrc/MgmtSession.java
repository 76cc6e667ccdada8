package org.flitkit.env.nrc;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.Throttle;

/**
 * Runs a {@link MgmtScript} against a simulated NRC like the management server does: one request at a
 * time into the current port, the answer matched by TransactionID, one console line per request, one
 * per fault report, and a summary. Spec: 20-th2-management.md, "Management packets and descriptors";
 * the console format is in docs/th2-nrc.md ("./hdl mgmt").
 */
public final class MgmtSession {
    /** Default wait for a register answer; E2PROM requests get a default from the E2PROM timing. */
    public static final long REGISTER_TIMEOUT = 10_000;
    /** Cycles a fault input stays high for {@code fault N}. */
    public static final int FAULT_PULSE = 4;
    /** Cycles run after the last command, so reports of late faults still show. */
    public static final long DRAIN = 2_000;
    /** Longest power-up load waited for (an image of a few hundred records at board timing). */
    public static final long BOOT_TIMEOUT = 50_000_000;

    /** One request's outcome (also printed). */
    public record Result(int tid, String op, String status, String detail, long latency, int port) {
        public String line() {
            return switch (status) {
                case "ok" -> "txn=" + tid + " op=" + op + " status=ok" + (detail.isEmpty() ? "" : " data=" + detail) + " latency=" + latency;
                case "error" -> "txn=" + tid + " op=" + op + " status=error reason=" + detail + " latency=" + latency;
                default -> "txn=" + tid + " op=" + op + " status=timeout";
            };
        }
    }

    private final Testbench<Nrc> tb;
    private final MgmtServer server;
    private final FaultDriver faults;
    private final PrintWriter out;
    private final Map<Integer, MgmtServer.Received> answers = new HashMap<>();
    private final List<Result> results = new ArrayList<>();
    private int port;
    private int dest = 0xFFFF;
    private boolean corruptNext;
    private Long timeout;
    private int nextTid = 1;
    private int reports;

    /** Sets up the server side of every port and the fault inputs, and resets the NRC. */
    public MgmtSession(Testbench<Nrc> tb, PrintWriter out) {
        this.tb = tb;
        this.out = out;
        server = new MgmtServer(tb, Throttle.NONE);
        faults = tb.add(new FaultDriver("faults", tb.dut().faults));
        server.onReceive(this::received);
        BoardLinks.apply(tb.sim(), tb.dut());
        tb.reset(2);
        tb.runUntil("the power-up load from the E2PROM", () -> !tb.sim().peekBool(tb.dut().booting), BOOT_TIMEOUT);
    }

    public List<Result> results() {
        return results;
    }

    public int reports() {
        return reports;
    }

    /** Runs every command, then the drain, then prints the summary line. */
    public void run(MgmtScript script) {
        for (MgmtScript.Command c : script.commands()) {
            execute(c);
        }
        tb.run(DRAIN);
        long ok = results.stream().filter(r -> r.status.equals("ok")).count();
        long err = results.stream().filter(r -> r.status.equals("error")).count();
        long to = results.stream().filter(r -> r.status.equals("timeout")).count();
        out.printf("summary requests=%d ok=%d errors=%d timeouts=%d reports=%d%n", results.size(), ok, err, to, reports);
        out.flush();
    }

    private void execute(MgmtScript.Command c) {
        if (c instanceof MgmtScript.Port p) {
            port = p.port();
        } else if (c instanceof MgmtScript.Dest d) {
            dest = d.destId();
        } else if (c instanceof MgmtScript.Read r) {
            request("read", Requests.read(port, dest, tid(), r.addresses()));
        } else if (c instanceof MgmtScript.Write w) {
            request("write", Requests.write(port, dest, tid(), w.addresses(), w.values()));
        } else if (c instanceof MgmtScript.EepromRead r) {
            request("eeprom-read", Requests.eepromRead(port, dest, tid(), r.addresses()));
        } else if (c instanceof MgmtScript.EepromWrite w) {
            request("eeprom-write", Requests.eepromWrite(port, dest, tid(), w.addresses(), w.values()));
        } else if (c instanceof MgmtScript.CorruptNext) {
            corruptNext = true;
        } else if (c instanceof MgmtScript.Fault f) {
            faults.pulse(f.input(), FAULT_PULSE);
        } else if (c instanceof MgmtScript.Wait w) {
            tb.run(w.cycles());
        } else if (c instanceof MgmtScript.Timeout t) {
            timeout = t.cycles();
        }
    }

    private int tid() {
        int t = nextTid;
        nextTid = nextTid == 0xFFFF ? 1 : nextTid + 1;
        return t;
    }

    /** Sends one request and waits for its answer or the timeout; prints and returns the outcome. */
    public Result request(String op, ManagementPacket req) {
        BitVector bits = req.toBits();
        if (corruptNext) {
            bits = Requests.corrupted(bits);
            corruptNext = false;
        }
        int tid = req.transactionId();
        long limit = timeout != null ? timeout : defaultTimeout(req);
        long start = tb.cycle();
        server.send(port, bits);
        while (!answers.containsKey(tid) && tb.cycle() - start < limit) {
            tb.run(1);
        }
        MgmtServer.Received a = answers.remove(tid);
        Result r = a == null ? new Result(tid, op, "timeout", "", limit, port) : outcome(tid, op, a, a.cycle() - start);
        results.add(r);
        out.println(r.line());
        out.flush();
        return r;
    }

    private Result outcome(int tid, String op, MgmtServer.Received a, long latency) {
        ManagementPacket p = ManagementPacket.parse(a.bits());
        if (p.nmpType().isError()) {
            return new Result(tid, op, "error", ((ErrorPayload) p.payload()).error().reason(), latency, a.port());
        }
        String data = "";
        if (p.payload() instanceof RegisterPayload rp && !rp.data().isEmpty()) {
            data = String.join(",", rp.data().stream().map(v -> "0x" + Long.toHexString(v)).toList());
        } else if (p.payload() instanceof EepromPayload ep && !ep.data().isEmpty()) {
            data = String.join(",", ep.data().stream().map(v -> String.format(Locale.ROOT, "0x%02x", v)).toList());
        }
        return new Result(tid, op, "ok", data, latency, a.port());
    }

    private void received(MgmtServer.Received r) {
        long type = r.bits().get(PacketLayout.BODY1.NMP_TYPE);
        if (type == NmpType.FAULT_REPORT.code()) {
            FaultPayload f = (FaultPayload) ManagementPacket.parse(r.bits()).payload();
            reports++;
            out.printf("report fault=%d port=%d cycle=%d%n", NrcRegisters.faultInput(f.faultCode(), f.port()), f.port(), r.cycle());
            out.flush();
            return;
        }
        answers.put((int) r.bits().get(PacketLayout.BODY1.TRANSACTION_ID), r);
    }

    /** Generous for the request's kind: twice the E2PROM time of all its bytes, plus the register time. */
    long defaultTimeout(ManagementPacket req) {
        if (req.payload() instanceof EepromPayload ep) {
            EepParams p = tb.dut().eepParams;
            long bit = 5L * p.tickCycles();
            long perByte = 60 * bit + (req.nmpType() == NmpType.EEP_WRITE_REQ ? p.writeCycleCycles() + 20 * bit : 0);
            return REGISTER_TIMEOUT + 2 * ep.count() * perByte;
        }
        return REGISTER_TIMEOUT;
    }
}
