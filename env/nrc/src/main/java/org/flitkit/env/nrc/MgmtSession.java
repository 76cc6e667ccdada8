package org.flitkit.env.nrc;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.formats.core.BitVector;
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
 * Runs a {@link MgmtScript} against a simulated NRC like the management server does: requests into the
 * current port through a {@link MgmtTransport}, each waited for unless sent {@code nowait}, answers matched
 * by TransactionID and printed as they arrive (one line per request, one per fault report), and a summary.
 * Spec: 20-th2-management.md, "Management packets and descriptors"; console format in docs/th2-nrc.md
 * ("./hdl mgmt").
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

    /**
     * One request's outcome (also printed): {@code target} names what it addressed ({@code reg=NAME@0xADDR,..} or
     * {@code addr=0x..,..} for E2PROM bytes), {@code fields} decodes the values read or written of registers that
     * pack several values ({@code NAME{field=v,..};..}, empty when none does).
     */
    public record Result(int tid, String op, String target, String status, String detail, long latency, int port, String fields) {
        public String line() {
            String head = "txn=" + tid + " op=" + op + (target.isEmpty() ? "" : " " + target);
            String tail = fields.isEmpty() ? "" : " fields=" + fields;
            return switch (status) {
                case "ok" -> head + " status=ok" + (detail.isEmpty() ? "" : " data=" + detail) + " latency=" + latency + tail;
                case "error" -> head + " status=error reason=" + detail + " latency=" + latency;
                default -> head + " status=timeout" + tail;
            };
        }
    }

    /** A request sent and not yet answered: what its line needs, and when it times out. */
    private record Pending(String op, ManagementPacket req, long start, long limit, int port) {
        /** The fields of the values a register write sends (empty for other requests). */
        String written() {
            return req.payload() instanceof RegisterPayload rp && !rp.data().isEmpty() ? fields(rp.addresses(), rp.data()) : "";
        }
    }

    /** The NRC's registers by address, for the names and fields in the lines. */
    private static final Map<Integer, RegDef> REGISTERS = NrcRegisters.map().stream()
            .collect(java.util.stream.Collectors.toMap(RegDef::addr, d -> d));

    private final Testbench<?> tb;
    private final EepParams eep;
    private final MgmtTransport transport;
    private final FaultDriver faults;
    private final PrintWriter out;
    /** outstanding requests by TransactionID, oldest first */
    private final Map<Integer, Pending> pending = new LinkedHashMap<>();
    private final List<Result> results = new ArrayList<>();
    private int port;
    private Requests.Path path = Requests.Path.LOCAL;
    private int dest = 0xFFFF;
    private boolean corruptNext;
    private Long timeout;
    private int nextTid = 1;
    private int reports;

    /** Sets up the server side of every port and the fault inputs, and resets the NRC. */
    public MgmtSession(Testbench<Nrc> tb, PrintWriter out) {
        this(tb, new MgmtServer(tb, Throttle.NONE), tb.add(new FaultDriver("faults", tb.dut().faults)), tb.dut().eepParams, out);
        BoardLinks.apply(tb.sim(), tb.dut());
        tb.reset(2);
        tb.runUntil("the power-up load from the E2PROM", () -> !tb.sim().peekBool(tb.dut().booting), BOOT_TIMEOUT);
    }

    /**
     * A session over any transport (e.g. through a NIC and the host API), on a design already reset and booted:
     * {@code faults} drives the NRC's fault inputs, {@code eep} is the NRC's E2PROM timing (for default timeouts).
     */
    public MgmtSession(Testbench<?> tb, MgmtTransport transport, FaultDriver faults, EepParams eep, PrintWriter out) {
        this.tb = tb;
        this.out = out;
        this.transport = transport;
        this.faults = faults;
        this.eep = eep;
        transport.onReceive(this::received);
    }

    public List<Result> results() {
        return results;
    }

    public int reports() {
        return reports;
    }

    /** Runs every command, waits for the outstanding answers and the drain, then prints the summary line. */
    public void run(MgmtScript script) {
        long t0 = System.nanoTime();
        for (MgmtScript.Command c : script.commands()) {
            execute(c);
        }
        sync();
        runFor(DRAIN);
        long ok = results.stream().filter(r -> r.status.equals("ok")).count();
        long err = results.stream().filter(r -> r.status.equals("error")).count();
        long to = results.stream().filter(r -> r.status.equals("timeout")).count();
        // cycles: the simulated time since reset (boot included); time: the wall time of the script
        out.printf(Locale.ROOT, "summary requests=%d ok=%d errors=%d timeouts=%d reports=%d cycles=%d time=%.2fs%n", results.size(), ok, err, to,
                reports, tb.cycle(), (System.nanoTime() - t0) / 1e9);
        out.flush();
    }

    private void execute(MgmtScript.Command c) {
        if (c instanceof MgmtScript.Port p) {
            if (p.port() != port) {
                // the server's cable moves to another port: what was sent through the old one is answered (or has
                // timed out) first, the same whether the packets go straight in or through the NIC and a cable
                sync();
            }
            port = p.port();
        } else if (c instanceof MgmtScript.Route r) {
            path = new Requests.Path(r.forward(), r.backward());
        } else if (c instanceof MgmtScript.Dest d) {
            dest = d.destId();
        } else if (c instanceof MgmtScript.Request r) {
            request(op(r), packet(r));
        } else if (c instanceof MgmtScript.NoWait n) {
            submit(op(n.request()), packet(n.request()));
        } else if (c instanceof MgmtScript.Sync) {
            sync();
        } else if (c instanceof MgmtScript.CorruptNext) {
            corruptNext = true;
        } else if (c instanceof MgmtScript.Fault f) {
            faults.pulse(f.input(), FAULT_PULSE);
        } else if (c instanceof MgmtScript.Wait w) {
            runFor(w.cycles());
        } else if (c instanceof MgmtScript.Timeout t) {
            timeout = t.cycles();
        }
    }

    private static String op(MgmtScript.Request r) {
        if (r instanceof MgmtScript.Read) {
            return "read";
        } else if (r instanceof MgmtScript.Write) {
            return "write";
        } else if (r instanceof MgmtScript.EepromRead) {
            return "eeprom-read";
        }
        return "eeprom-write";
    }

    private ManagementPacket packet(MgmtScript.Request r) {
        if (r instanceof MgmtScript.Read x) {
            return Requests.read(port, path, dest, tid(), x.addresses());
        } else if (r instanceof MgmtScript.Write x) {
            return Requests.write(port, path, dest, tid(), x.addresses(), x.values());
        } else if (r instanceof MgmtScript.EepromRead x) {
            return Requests.eepromRead(port, path, dest, tid(), x.addresses());
        }
        MgmtScript.EepromWrite x = (MgmtScript.EepromWrite) r;
        return Requests.eepromWrite(port, path, dest, tid(), x.addresses(), x.values());
    }

    private int tid() {
        int t = nextTid;
        nextTid = nextTid == 0xFFFF ? 1 : nextTid + 1;
        return t;
    }

    /** Sends one request and waits for its answer or the timeout; prints and returns the outcome. */
    public Result request(String op, ManagementPacket req) {
        int tid = submit(op, req);
        while (pending.containsKey(tid)) {
            step();
        }
        for (int i = results.size() - 1; ; i--) {
            if (results.get(i).tid() == tid) {
                return results.get(i);
            }
        }
    }

    /** Sends one request without waiting; its line prints when the answer arrives (or it times out). Returns its TID. */
    public int submit(String op, ManagementPacket req) {
        BitVector bits = req.toBits();
        if (corruptNext) {
            bits = Requests.corrupted(bits);
            corruptNext = false;
        }
        int tid = req.transactionId();
        if (pending.containsKey(tid)) {
            throw new IllegalStateException("TransactionID " + tid + " is still outstanding (65535 requests unanswered)");
        }
        long limit = timeout != null ? timeout : defaultTimeout(req);
        pending.put(tid, new Pending(op, req, tb.cycle(), limit, port));
        transport.send(port, bits);
        return tid;
    }

    /** Waits until every request sent so far is answered or has timed out. */
    public void sync() {
        while (!pending.isEmpty()) {
            step();
        }
    }

    /** Runs {@code cycles} cycles, timing out outstanding requests on the way. */
    private void runFor(long cycles) {
        long end = tb.cycle() + cycles;
        while (tb.cycle() < end) {
            long next = pending.values().stream().mapToLong(p -> p.start + p.limit).min().orElse(end);
            tb.run(Math.max(1, Math.min(end, next) - tb.cycle()));
            expire();
        }
    }

    private void step() {
        tb.run(1);
        expire();
    }

    /** Requests whose wait is over without an answer: a timeout line each. */
    private void expire() {
        List<Integer> over = new ArrayList<>();
        pending.forEach((tid, p) -> {
            if (tb.cycle() - p.start >= p.limit) {
                over.add(tid);
            }
        });
        for (int tid : over) {
            Pending p = pending.remove(tid);
            transport.abandon(tid);
            finish(new Result(tid, p.op, target(p.req), "timeout", "", p.limit, p.port, p.written()));
        }
    }

    private void finish(Result r) {
        results.add(r);
        out.println(r.line());
        out.flush();
    }

    private Result outcome(int tid, Pending pend, MgmtServer.Received a, long latency) {
        ManagementPacket p = ManagementPacket.parse(a.bits());
        if (p.nmpType().isError()) {
            return new Result(tid, pend.op, target(pend.req), "error", ((ErrorPayload) p.payload()).error().reason(), latency, a.port(), "");
        }
        String data = "";
        String fields = pend.written();
        if (p.payload() instanceof RegisterPayload rp && !rp.data().isEmpty()) {
            data = String.join(",", rp.data().stream().map(v -> "0x" + Long.toHexString(v)).toList());
            fields = fields(rp.addresses(), rp.data());
        } else if (p.payload() instanceof EepromPayload ep && !ep.data().isEmpty()) {
            data = String.join(",", ep.data().stream().map(v -> String.format(Locale.ROOT, "0x%02x", v)).toList());
        }
        return new Result(tid, pend.op, target(pend.req), "ok", data, latency, a.port(), fields);
    }

    /** {@code reg=NAME@0xADDR,..} of a register request ({@code ?} for an unmapped address), {@code addr=0x..,..} of an E2PROM one. */
    static String target(ManagementPacket req) {
        if (req.payload() instanceof RegisterPayload rp) {
            return "reg=" + String.join(",", rp.addresses().stream().map(a -> {
                RegDef d = REGISTERS.get(a);
                return (d == null ? "?" : d.name()) + String.format(Locale.ROOT, "@0x%03x", a);
            }).toList());
        }
        if (req.payload() instanceof EepromPayload ep) {
            return "addr=" + String.join(",", ep.addresses().stream().map(a -> String.format(Locale.ROOT, "0x%04x", a)).toList());
        }
        return "";
    }

    /** {@code NAME{field=v,..}} for each register among {@code addresses} that packs several values, joined by {@code ;}. */
    static String fields(List<Integer> addresses, List<Long> values) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < addresses.size() && i < values.size(); i++) {
            RegDef d = REGISTERS.get(addresses.get(i));
            if (d != null && d.fields() != null) {
                l.add(d.name() + "{" + d.decode(values.get(i)) + "}");
            }
        }
        return String.join(";", l);
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
        int tid = (int) r.bits().get(PacketLayout.BODY1.TRANSACTION_ID);
        Pending p = pending.remove(tid);
        if (p != null) { // else an answer after its request timed out: its timeout line is out already
            finish(outcome(tid, p, r, r.cycle() - p.start));
        }
    }

    /** Generous for the request's kind: twice the E2PROM time of all its bytes, plus the register time. */
    long defaultTimeout(ManagementPacket req) {
        if (req.payload() instanceof EepromPayload ep) {
            EepParams p = eep;
            long bit = 5L * p.tickCycles();
            long perByte = 60 * bit + (req.nmpType() == NmpType.EEP_WRITE_REQ ? p.writeCycleCycles() + 20 * bit : 0);
            return REGISTER_TIMEOUT + 2 * ep.count() * perByte;
        }
        return REGISTER_TIMEOUT;
    }
}
