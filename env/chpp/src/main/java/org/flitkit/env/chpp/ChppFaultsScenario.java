package org.flitkit.env.chpp;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.rtl.chpp.TagAllocator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;

/**
 * Both engines of a controller send random PUTs, GETs, NAP indirects and NAP immediates (and, in a run without
 * faults, chains) to each other from all 8 functions while a fraction of every host memory read fails (UR, CA or a
 * completion that never comes, a third each): every request must end once (a send completion, OK or the read's
 * error; a GET at its requester, with its answer's last packet or GET_FAILED), every tag must be free at the end,
 * and host memory must hold exactly what the completions say was sent, nothing elsewhere (docs/chpp-nic.md, "Faults").
 */
public final class ChppFaultsScenario {
    public static final int KEY = 0xFA17;
    static final long SRC = 0x1000_0000L;
    static final long DST = 0x2000_0000L;
    static final int DST_STRIDE = 8192;
    static final long NAP_BUFFERS = 0x4000_0000L;
    static final int NAP_LIST = 1024;
    /** Requests outstanding per function at most (the doorbell FIFO holds 32). */
    static final int WINDOW = 12;
    /** Completion timeout of the run: short, so lost completions end quickly. */
    public static final int TIMEOUT = 2000;

    /** Chains only in runs without faults (the faulted run's mix is the must-show's: PUT, GET, NAP). */
    enum Op { PUT, NAP_INDIRECT, NAP_IMMEDIATE, GET, CHAIN }

    /**
     * The QP of each function that GETs are sent to: it posts nothing itself, so every entry on its send ring is the
     * failure of an answer (which carries the GET's cookie, not one of this QP's) and is matched to its GET.
     */
    static final int GET_TARGET_QP = 1;

    /** One request as the scoreboard remembers it. */
    static final class Req {
        final int side;
        final int function;
        final int cookie;
        final Op op;
        final long src;
        final int len;
        final long dst;
        CompletionStatus status;
        long sent = -1;
        boolean received;
        /** GET: how it ended at the requester (OK or GET_FAILED) and the bytes that arrived. */
        CompletionStatus end;
        long arrived = -1;
        /** GET: the answering side's send-ring failure of the answer (status, bytes sent before it). */
        CompletionStatus answerStatus;
        long answerSent = -1;

        Req(int side, int function, int cookie, Op op, long src, int len, long dst) {
            this.side = side;
            this.function = function;
            this.cookie = cookie;
            this.op = op;
            this.src = src;
            this.len = len;
            this.dst = dst;
        }
    }

    /**
     * What a run found. Every request ends once: {@code requests = ok + readErrors + timeouts + unreadable}. Every GET
     * too: {@code gets = getsOk + getFailed + getsUnreadable + getsNotSent} (answered in full; ended GET_FAILED at the
     * requester; its descriptor unreadable, so it never became a request; an error on its own send completion).
     */
    public record Outcome(int requests, int ok, int readErrors, int timeouts, int unreadable, int noBuffer, long reads,
            long faults, long cycles, int freeTags0, int freeTags1, int gets, int getsOk, int getFailed, int getsUnreadable,
            int getsNotSent) {
    }

    /** What each count of the result line means, in its order (for {@code ./hdl run chpp-faults --help}). */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "requests", "PUT, GET and NAP requests posted; each ends once, as ok, read_errors, timeouts or unreadable",
            "ok", "requests that ended OK (a GET: answered in full)",
            "read_errors", "requests ended by an error completion (a GET: its answer's, at the target)",
            "timeouts", "requests ended by a completion timeout (a GET: its answer's, at the target)",
            "unreadable", "requests whose descriptor could not be read (a completion with Cookie 0, no request sent)",
            "gets", "GETs among the requests: gets_answered + gets_failed + gets_unreadable + gets_not_sent",
            "gets_answered", "GETs answered in full at the requester",
            "gets_failed", "GETs that ended GET_FAILED at the requester (a read of their data failed at the target)",
            "gets_unreadable", "GETs whose own descriptor could not be read, so they never left (also in unreadable)",
            "gets_not_sent", "GETs whose own send completion at the requester was an error, so they never left",
            "no_buffer", "NAPs that found no receive buffer (NO_RECEIVE_BUFFER)",
            "reads", "host memory reads the NICs made (descriptors and data)",
            "failed_reads", "reads made to fail (UR, CA or never completed), 10 % of them at random");

    private ChppFaultsScenario() {
    }

    public static ScenarioResult scenario(RunConfig cfg) {
        return scenario(cfg, 2000, 0.10, System.out);
    }

    public static ScenarioResult scenario(RunConfig cfg, int requests, double rate, PrintStream out) {
        Outcome o;
        ScenarioResult r;
        try (ChppEnv env = env(cfg)) {
            o = run(env, requests, rate);
            env.tb.finish();
            r = env.tb.result();
        }
        out.printf("%d requests, %.0f %% of reads failing: %d OK, %d ended by an error completion, %d by a completion timeout, "
                + "%d descriptors unreadable; %d GETs: %d answered, %d GET_FAILED at the requester, %d with an unreadable descriptor, "
                + "%d failed before leaving; %d NAPs found no buffer; %d reads, %d failed; all %d + %d tags free%n", o.requests(),
                rate * 100, o.ok(), o.readErrors(), o.timeouts(), o.unreadable(), o.gets(), o.getsOk(), o.getFailed(), o.getsUnreadable(),
                o.getsNotSent(), o.noBuffer(), o.reads(), o.faults(), o.freeTags0(), o.freeTags1());
        return r.with("requests", o.requests()).with("ok", o.ok()).with("read_errors", o.readErrors()).with("timeouts", o.timeouts())
                .with("unreadable", o.unreadable()).with("gets", o.gets()).with("gets_answered", o.getsOk())
                .with("gets_failed", o.getFailed()).with("gets_unreadable", o.getsUnreadable()).with("gets_not_sent", o.getsNotSent())
                .with("no_buffer", o.noBuffer()).with("reads", o.reads()).with("failed_reads", o.faults());
    }

    public static ChppEnv env(RunConfig cfg) {
        return new ChppEnv(cfg, 2, 2, ChppParams.paper().withCompletionTimeout(TIMEOUT), SendEngineParams.defaults(), PcieParams.chpp());
    }

    /** Runs {@code requests} requests with {@code rate} of the reads failing; throws a testbench failure on any mismatch. */
    public static Outcome run(ChppEnv env, int requests, double rate) {
        int n = org.flitkit.formats.chpp.Chpp.FUNCTIONS;
        long[] faults = {0};
        long[] reads = {0};
        for (PcieHost h : env.hosts) {
            h.readFaults((addr, len, rng) -> {
                reads[0]++;
                if (!rng.chance(rate)) {
                    return PcieHost.ReadOutcome.OK;
                }
                faults[0]++;
                return switch (rng.nextInt(3)) {
                    case 0 -> PcieHost.ReadOutcome.UR;
                    case 1 -> PcieHost.ReadOutcome.CA;
                    default -> PcieHost.ReadOutcome.LOST;
                };
            });
        }
        List<List<ChppDriver.Qp>> qps = new ArrayList<>();
        List<List<ChppDriver.Qp>> targets = new ArrayList<>();
        Rng rng = env.tb.rng("requests");
        byte[] data = new byte[1 << 20];
        for (int s = 0; s < 2; s++) {
            List<ChppDriver.Qp> l = new ArrayList<>();
            List<ChppDriver.Qp> t = new ArrayList<>();
            for (int f = 0; f < n; f++) {
                l.add(env.driver(s).open(f, 0, KEY));
                t.add(env.driver(s).open(f, GET_TARGET_QP, KEY));
            }
            qps.add(l);
            targets.add(t);
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) rng.nextInt(256);
            }
            env.driver(s).memory().write(SRC, data);
            env.driver(s).openReceiveBuffers(NAP_LIST, NAP_BUFFERS, NAP_LIST / 2);
        }
        env.tb.run(300);

        List<Req> all = new ArrayList<>();
        Map<String, Req> byCookie = new HashMap<>();
        // GETs by requester/function/cookie: their ends at the requester and their answers' failures find them here
        Map<String, Req> getsByCookie = new HashMap<>();
        int[][] outstanding = new int[2][n];
        // per sending QP: NAPs in posting order, for the receive side to find its message
        Map<EndpointId, ArrayDeque<Req>> naps = new HashMap<>();
        int[] unreadable = new int[2 * n];
        int noBuffer = 0;
        int[] counts = {0};
        int gets = 0;
        int posted = 0;
        int ended = 0;
        long start = env.tb.cycle();
        while (ended < requests) {
            while (posted < requests) {
                int s = rng.nextInt(2);
                int f = rng.nextInt(n);
                if (outstanding[s][f] >= WINDOW) {
                    break;
                }
                ChppDriver.Qp q = qps.get(s).get(f);
                EndpointId to = qps.get(1 - s).get(f).id();
                int pick = rng.nextInt(10);
                Op op = rate > 0 ? (pick < 4 ? Op.PUT : pick < 6 ? Op.GET : pick < 8 ? Op.NAP_INDIRECT : Op.NAP_IMMEDIATE)
                        : pick < 3 ? Op.PUT : pick < 5 ? Op.CHAIN : pick < 7 ? Op.GET : pick < 9 ? Op.NAP_INDIRECT : Op.NAP_IMMEDIATE;
                boolean nap = op == Op.NAP_INDIRECT || op == Op.NAP_IMMEDIATE;
                int len = nap ? 1 + rng.nextInt(2048) : 1 + rng.nextInt(6000);
                long src = SRC + rng.nextInt(data.length - len);
                long dst = DST + (long) posted * DST_STRIDE + rng.nextInt(64);
                int cookie = switch (op) {
                    case PUT -> q.put(to, KEY, src, dst, len, true, true);
                    case NAP_INDIRECT -> q.napIndirect(to, KEY, src, len, true);
                    case NAP_IMMEDIATE -> q.napImmediate(to, KEY, env.driver(s).memory().read(src, len), true);
                    case GET -> q.get(targets.get(1 - s).get(f).id(), KEY, src, dst, len, true, true);
                    case CHAIN -> q.chain(to, KEY, cut(rng, src, len), cut(rng, dst, len), true, true);
                };
                Req r = new Req(s, f, cookie, op, src, len, dst);
                all.add(r);
                byCookie.put(s + "/" + f + "/" + cookie, r);
                if (nap) {
                    naps.computeIfAbsent(q.id(), k -> new ArrayDeque<>()).add(r);
                }
                if (op == Op.GET) {
                    getsByCookie.put(s + "/" + f + "/" + cookie, r);
                }
                gets += op == Op.GET ? 1 : 0;
                outstanding[s][f]++;
                posted++;
            }
            env.tb.run(8);
            for (int s = 0; s < 2; s++) {
                for (int f = 0; f < n; f++) {
                    for (SendCompletion c : qps.get(s).get(f).pollSend()) {
                        outstanding[s][f]--;
                        if (c.kind() == null && c.cookie() == 0) {
                            check(env, c.status() == CompletionStatus.PCIE_ERROR || c.status() == CompletionStatus.COMPLETION_TIMEOUT,
                                    "unreadable descriptor with status " + c.status());
                            unreadable[s * n + f]++;
                            ended++;
                            continue;
                        }
                        Req r = byCookie.remove(s + "/" + f + "/" + c.cookie());
                        check(env, r != null, "send completion for no outstanding request: " + c + " on processor " + s + " function " + f);
                        r.status = c.status();
                        r.sent = c.bytes();
                        check(env, c.status() != CompletionStatus.OK || c.bytes() == r.len, "OK completion of " + c.bytes() + " bytes for " + r.len);
                        check(env, c.status() == CompletionStatus.OK || c.status() == CompletionStatus.PCIE_ERROR || c.status() == CompletionStatus.COMPLETION_TIMEOUT,
                                "unexpected status " + c);
                        // a GET that left ends at its requester; one that failed here never left
                        if (r.op != Op.GET || r.status != CompletionStatus.OK || r.end != null) {
                            ended++;
                        }
                    }
                    ended += receiveAll(env, qps.get(s).get(f), s, f, naps, getsByCookie, counts);
                    answerFailures(env, targets.get(s).get(f), s, f, getsByCookie);
                }
            }
            if (env.tb.cycle() - start > 400L * requests + 200_000) {
                throw env.tb.fail("only " + ended + " of " + requests + " requests ended");
            }
        }
        // late completions and quarantined tags: wait until every engine is quiet and the quarantine has passed
        env.tb.runUntil("hosts idle", env::hostsIdle, 100_000);
        env.tb.run(2L * TIMEOUT + 100);
        for (int s = 0; s < 2; s++) {
            for (int f = 0; f < n; f++) {
                check(env, receiveAll(env, qps.get(s).get(f), s, f, naps, getsByCookie, counts) == 0, "a GET ended after the end");
                answerFailures(env, targets.get(s).get(f), s, f, getsByCookie);
                check(env, qps.get(s).get(f).pollSend().isEmpty(), "a second send completion");
                check(env, targets.get(s).get(f).pollReceive().isEmpty(), "a receive completion on a GET target QP");
            }
        }
        noBuffer = counts[0];
        verify(env, all, byCookie, unreadable, naps, SendEngineParams.defaults().mtu());
        int getsOk = (int) all.stream().filter(r -> r.op == Op.GET && r.end == CompletionStatus.OK).count();
        int getFailed = (int) all.stream().filter(r -> r.op == Op.GET && r.end == CompletionStatus.GET_FAILED).count();
        int getsUnreadable = (int) all.stream().filter(r -> r.op == Op.GET && r.status == null).count();
        int getsNotSent = (int) all.stream().filter(r -> r.op == Op.GET && r.status != null && r.status != CompletionStatus.OK).count();
        check(env, getsOk + getFailed + getsUnreadable + getsNotSent == gets, gets + " GETs but " + getsOk + " answered, "
                + getFailed + " GET_FAILED, " + getsUnreadable + " unreadable and " + getsNotSent + " not sent");
        if (rate == 0) {
            check(env, getsOk == gets, gets + " GETs but " + getsOk + " answered");
        }
        Simulator sim = env.tb.sim();
        int[] free = new int[2];
        for (int s = 0; s < 2; s++) {
            TagAllocator t = env.tb.dut().engines.get(s).pcie.tags;
            free[s] = (int) sim.peek(t.freeCount);
            check(env, sim.peek(t.inFlight) == 0 && sim.peek(t.quarantined) == 0 && free[s] == t.params.tags(),
                    "processor " + s + ": tags not all free at the end: free " + free[s] + ", in flight 0x"
                            + Long.toHexString(sim.peek(t.inFlight)) + ", quarantined 0x" + Long.toHexString(sim.peek(t.quarantined)));
        }
        int ok = (int) all.stream().filter(r -> outcome(r) == CompletionStatus.OK).count();
        int errs = (int) all.stream().filter(r -> outcome(r) == CompletionStatus.PCIE_ERROR).count();
        int tos = (int) all.stream().filter(r -> outcome(r) == CompletionStatus.COMPLETION_TIMEOUT).count();
        int unr = java.util.Arrays.stream(unreadable).sum();
        return new Outcome(requests, ok, errs, tos, unr, noBuffer, reads[0], faults[0], env.tb.cycle() - start, free[0], free[1],
                gets, getsOk, getFailed, getsUnreadable, getsNotSent);
    }

    /**
     * How a request ended: its send completion's status; for a GET that left, OK if answered, else the cause its
     * answer failed with at the target (PCIE_ERROR or COMPLETION_TIMEOUT, from the target's send ring).
     */
    private static CompletionStatus outcome(Req r) {
        if (r.op == Op.GET && r.status == CompletionStatus.OK) {
            return r.end == CompletionStatus.OK ? CompletionStatus.OK : r.answerStatus;
        }
        return r.status;
    }

    /**
     * The receive completions of requester QP {@code q} (processor {@code s}, function {@code f}): NAPs and PUTs, and
     * the ends of its GETs (matched by the driver to the GET whose destination holds the Address). Returns how many
     * GETs ended for good (their send completion already seen); {@code counts[0]} counts NAPs without a buffer.
     */
    private static int receiveAll(ChppEnv env, ChppDriver.Qp q, int s, int f, Map<EndpointId, ArrayDeque<Req>> naps,
            Map<String, Req> gets, int[] counts) {
        int ended = 0;
        for (ReceiveCompletion rc : q.pollReceive()) {
            ChppDriver.GetEnd e;
            try {
                e = q.getEnded(rc);
            } catch (IllegalStateException x) {
                throw env.tb.fail(x.getMessage());
            }
            if (e == null) {
                counts[0] += receive(env, rc, naps, s);
                continue;
            }
            Req r = gets.get(s + "/" + f + "/" + e.get().cookie());
            check(env, r != null && r.end == null, "GET end " + e + " for no GET in flight");
            check(env, e.status() == CompletionStatus.OK || e.status() == CompletionStatus.GET_FAILED, "GET " + r.cookie + " ended with " + rc);
            check(env, r.status == null || r.status == CompletionStatus.OK, "GET " + r.cookie + " failed at its requester (" + r.status
                    + ") and still ended with " + rc);
            check(env, rc.src().equals(new EndpointId(1 - s, f, GET_TARGET_QP)), "GET answer from " + rc.src());
            r.end = e.status();
            r.arrived = e.bytesArrived();
            // the send completion came first: this ends the GET; else its send completion will
            ended += r.status == CompletionStatus.OK ? 1 : 0;
        }
        return ended;
    }

    /**
     * The send ring of GET target QP {@code t} (processor {@code s}, function {@code f}): only failures of its
     * answers, each carrying the cookie of the other side's GET.
     */
    private static void answerFailures(ChppEnv env, ChppDriver.Qp t, int s, int f, Map<String, Req> gets) {
        for (SendCompletion c : t.pollSend()) {
            Req r = gets.get((1 - s) + "/" + f + "/" + c.cookie());
            check(env, r != null && r.answerStatus == null, "answer failure " + c + " on processor " + s + " function " + f
                    + " for no GET of the other side");
            check(env, c.kind() == org.flitkit.formats.chpp.DescKind.PUT
                    && (c.status() == CompletionStatus.PCIE_ERROR || c.status() == CompletionStatus.COMPLETION_TIMEOUT) && c.bytes() < r.len,
                    "answer failure " + c + " of a GET of " + r.len + " bytes");
            r.answerStatus = c.status();
            r.answerSent = c.bytes();
        }
    }

    /** A receive completion at processor {@code s}: a NAP (its message, or NO_RECEIVE_BUFFER) or a PUT's last packet. */
    private static int receive(ChppEnv env, ReceiveCompletion rc, Map<EndpointId, ArrayDeque<Req>> naps, int s) {
        if (rc.type() == PktType.PUT) {
            check(env, rc.status() == CompletionStatus.OK && !rc.resp(), "PUT receive completion " + rc);
            return 0;
        }
        ArrayDeque<Req> q = naps.get(rc.src());
        check(env, q != null, "NAP receive completion from " + rc.src() + " which sent no NAP");
        // NAPs of one QP arrive in order, but one whose descriptor or data read failed never left: the message is
        // the first one of its length not known to have failed (and, when written, with its bytes)
        Req r = null;
        for (Req c : q) {
            boolean mayHaveLeft = c.status == null || c.status == CompletionStatus.OK;
            if (mayHaveLeft && c.len == rc.length() && (rc.status() != CompletionStatus.OK || java.util.Arrays.equals(
                    env.driver(s).memory().read(rc.address(), c.len), env.driver(c.side).memory().read(c.src, c.len)))) {
                r = c;
                break;
            }
        }
        check(env, r != null, "NAP receive completion " + rc + " matches no NAP that may have been sent");
        q.remove(r);
        r.received = true;
        if (rc.status() == CompletionStatus.NO_RECEIVE_BUFFER) {
            return 1;
        }
        check(env, rc.status() == CompletionStatus.OK, "NAP receive completion " + rc);
        env.driver(s).postReceiveBuffers(List.of(rc.address()));
        return 0;
    }

    /**
     * Every request ended once; a PUT's destination holds exactly its sent bytes and zeros after; a NAP sent OK was
     * received; nothing was written outside the destinations, the NAP buffers and the rings.
     */
    private static void verify(ChppEnv env, List<Req> all, Map<String, Req> unmatched, int[] unreadable,
            Map<EndpointId, ArrayDeque<Req>> naps, int mtu) {
        int n = org.flitkit.formats.chpp.Chpp.FUNCTIONS;
        int[] left = new int[2 * n];
        for (Req r : unmatched.values()) {
            left[r.side * n + r.function]++;
        }
        for (int i = 0; i < 2 * n; i++) {
            check(env, left[i] == unreadable[i], "processor " + i / n + " function " + i % n + ": " + left[i]
                    + " requests without a completion but " + unreadable[i] + " unreadable-descriptor completions");
        }
        List<TreeMap<Long, Long>> allowed = List.of(new TreeMap<>(), new TreeMap<>());
        for (Req r : all) {
            long sent = r.status == null ? 0 : r.sent;
            if (r.op == Op.PUT || r.op == Op.CHAIN || r.op == Op.GET) {
                // a GET's data goes the other way: from the remote side's source into the requester's memory
                int at = r.op == Op.GET ? r.side : 1 - r.side;
                if (r.op == Op.GET) {
                    sent = getBytes(env, r, mtu);
                }
                byte[] got = env.driver(at).memory().read(r.dst - 8, r.len + 16);
                byte[] src = env.driver(1 - at).memory().read(r.src, r.len);
                for (int i = 0; i < got.length; i++) {
                    int k = i - 8;
                    byte want = k >= 0 && k < sent ? src[k] : 0;
                    check(env, got[i] == want, r.op + " of " + r.len + " bytes (" + r.status + ", " + sent + " sent) to 0x"
                            + Long.toHexString(r.dst) + ": byte " + k + " is " + got[i] + ", expected " + want);
                }
                if (sent > 0) {
                    allowed.get(at).put(r.dst, r.dst + sent);
                }
            } else if (r.status == CompletionStatus.OK) {
                check(env, r.received, "NAP of " + r.len + " bytes sent OK but never received");
            }
        }
        for (int at = 0; at < 2; at++) {
            allowed.get(at).put(NAP_BUFFERS, NAP_BUFFERS + (long) NAP_LIST * 2048);
            allowed.get(at).put(ChppDriver.RINGS, ChppDriver.DESCRIPTORS);
            for (PcieHost.Write w : env.hosts.get(at).writes()) {
                Map.Entry<Long, Long> e = allowed.get(at).floorEntry(w.addr());
                check(env, e != null && w.addr() + w.data().length <= e.getValue(), "processor " + at + ": write of "
                        + w.data().length + " bytes at 0x" + Long.toHexString(w.addr()) + " outside every destination");
            }
        }
    }

    /**
     * The bytes a GET put into its requester's memory, with its end checked: a GET that left (send completion OK)
     * ended at the requester; OK means all its bytes and no answer failure; GET_FAILED means the whole packets before
     * the failure (a multiple of the MTU, as many as the target's failure completion says it sent); one that never
     * left wrote nothing.
     */
    private static long getBytes(ChppEnv env, Req r, int mtu) {
        String what = "GET " + r.side + "/" + r.function + "/" + r.cookie + " of " + r.len + " bytes";
        if (r.status != CompletionStatus.OK) {
            check(env, r.end == null && r.answerStatus == null, what + " failed at the requester (" + r.status + ") but was answered");
            return 0;
        }
        check(env, r.end != null, what + " left but never ended at the requester");
        if (r.end == CompletionStatus.OK) {
            check(env, r.answerStatus == null && r.arrived == r.len, what + " answered OK but its answer failed: " + r.answerStatus);
            return r.len;
        }
        check(env, r.answerStatus != null, what + " ended GET_FAILED with no failure on the target's send ring");
        check(env, r.arrived == r.answerSent && r.arrived % mtu == 0 && r.arrived < r.len, what + ": GET_FAILED after "
                + r.arrived + " bytes, the target sent " + r.answerSent + " (packets of " + mtu + ")");
        return r.arrived;
    }

    /** {@code len} bytes from {@code base} as 1 to 3 segments cut at random points (a chain's list). */
    private static List<org.flitkit.formats.chpp.Descriptor.Segment> cut(Rng rng, long base, int len) {
        List<org.flitkit.formats.chpp.Descriptor.Segment> l = new ArrayList<>();
        int parts = Math.min(len, 1 + rng.nextInt(3));
        long at = base;
        int left = len;
        for (int i = parts; i > 1; i--) {
            int piece = 1 + rng.nextInt(left - i + 1);
            l.add(new org.flitkit.formats.chpp.Descriptor.Segment(at, piece));
            at += piece;
            left -= piece;
        }
        l.add(new org.flitkit.formats.chpp.Descriptor.Segment(at, left));
        return l;
    }

    private static void check(ChppEnv env, boolean ok, String what) {
        if (!ok) {
            throw env.tb.fail(what);
        }
    }
}
