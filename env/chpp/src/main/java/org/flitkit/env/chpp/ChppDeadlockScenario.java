package org.flitkit.env.chpp;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.chpp.ChppPairBoard;
import org.flitkit.rtl.chpp.DmaEngine;
import org.flitkit.rtl.chpp.ChppCable;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;

/**
 * The GET-vs-PUT deadlock of paper section 3.4.3 (figures 9 and 10) on two NICs back to back ({@link ChppPairEnv}):
 * both nodes post many GETs to each other at once (PUTs can be added) over long links with small buffers. With GETs
 * sharing the PUT VC the run deadlocks and is diagnosed (no beat on either link and no completion for {@link #STALL}
 * cycles while requests are outstanding: the cycle and what waits where); with GETs on their own VC every request
 * completes and host memory
 * is exact. docs/chpp-network.md, "The deadlock scenario".
 */
public final class ChppDeadlockScenario {
    /** The counts of the PASS line: the run with GETs sharing the PUT VC, then on their own VC, then PUT latencies. */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "shared_stuck_at", "GETs sharing the PUT VC: the cycle after which nothing moved (the deadlock)",
            "shared_get_stall_cycles", "cycles a dispatch held a GET with PUTs behind it, both NICs",
            "shared_cycles", "cycles that run took until the deadlock was detected",
            "own_completed", "GETs on their own VC: requests completed, both NICs",
            "own_cycles", "cycles that run took to complete them all",
            "put1_link_cycles", "1-byte PUT, doorbell to the byte in the receiver's memory, over the credit link (cycles)",
            "put1_xbar_cycles", "the same through the crossbar (cycles)");

    public static final int KEY = 0xD1AD;
    /**
     * The scenario's network: buffers of 32 beats per VC (two 256-byte PUT packets) on a 200-cycle wire, so that the
     * GETs both nodes send before the first answer can come back are more than the far GET path holds.
     */
    public static final int DEPTH = 32;
    public static final int LATENCY = 200;
    /** Cycles without a beat on either link and without a completion, GETs outstanding: a deadlock. */
    public static final int STALL = 2000;
    static final long SRC = 0x1000_0000L;
    static final long DST = 0x2000_0000L;
    static final int SRC_BYTES = 1 << 20;
    static final int DST_STRIDE = 16384;
    /** Where the latency measurement's PUT lands (below the GET destinations). */
    static final long LATENCY_DST = DST - 0x10_0000L;

    /**
     * The workload: every side's functions 0..functions-1 each post {@code gets} GETs and {@code puts} PUTs (alternating,
     * GETs first) of {@code bytes} each to the other side's same function.
     */
    public record Config(boolean getOwnVc, int depth, int latency, int functions, int gets, int puts, int bytes, int gets1, int puts1,
            int bytes1) {
        public Config {
            if (functions < 1 || functions > org.flitkit.formats.chpp.Chpp.FUNCTIONS) {
                throw new IllegalArgumentException("functions " + functions + " outside 1.." + org.flitkit.formats.chpp.Chpp.FUNCTIONS);
            }
            for (int[] gp : new int[][] {{gets, puts}, {gets1, puts1}}) {
                if (gp[0] < 0 || gp[1] < 0 || gp[0] + gp[1] < 1 || gp[0] + gp[1] > 32) {
                    throw new IllegalArgumentException("gets " + gp[0] + " + puts " + gp[1] + " per function outside 1..32 (the doorbell FIFO holds 32)");
                }
            }
            for (int b : new int[] {bytes, bytes1}) {
                if (b < 1 || b > DST_STRIDE - 64) {
                    throw new IllegalArgumentException("bytes " + b + " outside 1.." + (DST_STRIDE - 64));
                }
            }
        }

        /** Bytes of each request side {@code s} posts. */
        public int bytes(int s) {
            return s == 0 ? bytes : bytes1;
        }

        public int gets(int s) {
            return s == 0 ? gets : gets1;
        }

        public int puts(int s) {
            return s == 0 ? puts : puts1;
        }

        public int requests(int s) {
            return functions * (gets(s) + puts(s));
        }

        /** The scenario's workload: all 8 functions post 4 GETs of 1 KB each, each way, at once. */
        public static Config of(boolean getOwnVc) {
            return new Config(getOwnVc, DEPTH, LATENCY, 8, 4, 0, 1024, 4, 0, 1024);
        }
    }

    /** What waited where when nothing moved: per engine and link, the signals of the dependency chain. */
    public record Stuck(int engine, boolean dispatchOnGet, boolean dispatchOnPut, int getQueue, boolean answerWaits,
            boolean txWaits, boolean txGetWaits, boolean rxGetWaits) {
    }

    /** Per link (from engine i): credits and buffered beats per VC. */
    public record LinkState(int link, long[] credits, long[] buffered) {
    }

    /**
     * A run's result: GETs posted and completed per side, the deadlock (cycle of the last movement, detected
     * {@link #STALL} cycles later) or -1, the diagnosis, and the beats each link's VCs carried.
     */
    public record Outcome(int[] posted, int[] completed, long stuckSince, long cycles, List<Stuck> stuck, List<LinkState> links,
            long[][] vcBeats, long[] getStalls, String diagnosis) {
        public boolean deadlocked() {
            return stuckSince >= 0;
        }
    }

    private ChppDeadlockScenario() {
    }

    /**
     * {@code ./hdl run chpp-deadlock}: the shared-VC run must deadlock (diagnosed), the own-VC run must complete
     * exactly with the dispatch never holding a GET; the 1-byte PUT latency through the link is set beside the
     * crossbar's.
     */
    public static ScenarioResult scenario(RunConfig cfg) {
        return scenario(cfg, System.out);
    }

    public static ScenarioResult scenario(RunConfig cfg, PrintStream out) {
        Outcome shared;
        try (ChppPairEnv env = env(cfg, Config.of(false))) {
            shared = run(env, Config.of(false));
            out.println("GETs share the PUT VC (figure 9): " + summary(shared));
            if (!shared.deadlocked()) {
                throw env.tb.fail("GETs sharing the PUT VC did not deadlock: " + summary(shared));
            }
            out.print(shared.diagnosis());
        }
        Outcome own;
        ScenarioResult r;
        long pairLatency;
        try (ChppPairEnv env = env(cfg, Config.of(true))) {
            pairLatency = putLatency(env, 1);
            own = run(env, Config.of(true));
            out.println("GETs on their own VC (figure 10): " + summary(own));
            if (own.deadlocked()) {
                throw env.tb.fail("GETs on their own VC deadlocked:\n" + own.diagnosis());
            }
            if (own.getStalls()[0] + own.getStalls()[1] != 0) {
                throw env.tb.fail("GETs on their own VC: a dispatch held a GET (PUTs waited behind it): " + summary(own));
            }
            env.tb.finish();
            r = env.tb.result();
        }
        long xbar;
        try (ChppMeasurements run = new ChppMeasurements(cfg, SendEngineParams.defaults(), PcieParams.chpp())) {
            xbar = run.latency(ChppMeasurements.Op.PUT, 1).cycles();
        }
        out.printf("1-byte PUT, doorbell to the byte visible in the receiver's memory: %d cycles through ChppCable "
                + "(depth %d, latency %d), %d through the crossbar%n", pairLatency, DEPTH, LATENCY, xbar);
        return r.with("shared_stuck_at", shared.stuckSince()).with("shared_get_stall_cycles", shared.getStalls()[0] + shared.getStalls()[1])
                .with("shared_cycles", shared.cycles()).with("own_completed", own.completed()[0] + own.completed()[1])
                .with("own_cycles", own.cycles()).with("put1_link_cycles", pairLatency).with("put1_xbar_cycles", xbar);
    }

    static String summary(Outcome o) {
        return String.format("%d + %d requests posted, %d + %d completed, %s; dispatch held a GET with PUTs behind it %d + %d cycles",
                o.posted()[0], o.posted()[1], o.completed()[0], o.completed()[1], o.deadlocked() ? "deadlock: nothing moved after cycle "
                        + o.stuckSince() : "all done in " + o.cycles() + " cycles", o.getStalls()[0], o.getStalls()[1]);
    }

    public static ChppPairEnv env(RunConfig cfg, Config c) {
        return new ChppPairEnv(cfg, c.depth(), c.latency(), c.getOwnVc());
    }

    /** One request of {@code side}: a GET (remote {@code src} into local {@code dst}) or a PUT (local into remote). */
    record Req(boolean get, int side, int function, long src, long dst, int len) {
        /** The processor whose memory the data lands in. */
        int target() {
            return get ? side : 1 - side;
        }
    }

    /**
     * Posts the workload and runs until every GET completed or nothing moved for {@link #STALL} cycles; on
     * completion checks host memory (each destination exactly the remote source, nothing written elsewhere).
     */
    public static Outcome run(ChppPairEnv env, Config c) {
        Simulator sim = env.tb.sim();
        ChppPairBoard dut = env.tb.dut();
        Rng rng = env.tb.rng("deadlock");
        List<List<ChppDriver.Qp>> qps = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            byte[] data = new byte[SRC_BYTES];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) rng.nextInt(256);
            }
            env.driver(s).memory().write(SRC, data);
            List<ChppDriver.Qp> l = new ArrayList<>();
            for (int f = 0; f < c.functions(); f++) {
                l.add(env.driver(s).open(f, 0, KEY));
            }
            qps.add(l);
        }
        env.tb.run(300);
        long start = env.tb.cycle();
        // all at once: every function of both sides posts its requests in the same cycle
        List<Req> all = new ArrayList<>();
        int[] posted = new int[2];
        for (int s = 0; s < 2; s++) {
            for (int f = 0; f < c.functions(); f++) {
                int g = 0;
                int p = 0;
                while (g < c.gets(s) || p < c.puts(s)) {
                    boolean get = g < c.gets(s) && (g <= p || p >= c.puts(s));
                    // destinations: GETs in the requester's memory, PUTs in the receiver's; one slot per request
                    int idx = s * 1024 + f * 32 + g + p;
                    long dst = DST + (long) idx * DST_STRIDE + rng.nextInt(64);
                    int len = c.bytes(s);
                    long src = SRC + rng.nextInt(SRC_BYTES - len);
                    ChppDriver.Qp q = qps.get(s).get(f);
                    if (get) {
                        q.get(qps.get(1 - s).get(f).id(), KEY, src, dst, len, false, true);
                        g++;
                    } else {
                        q.put(qps.get(1 - s).get(f).id(), KEY, src, dst, len, true, true);
                        p++;
                    }
                    all.add(new Req(get, s, f, src, dst, len));
                    posted[s]++;
                }
            }
        }
        int total = posted[0] + posted[1];
        // completed[s]: requests of side s whose data has landed (a GET's answer, a PUT's receive completion)
        int[] completed = new int[2];
        int[] putsSent = new int[2];
        long lastMove = env.tb.cycle();
        long lastBeats = -1;
        long stuckSince = -1;
        while (completed[0] + completed[1] < total || putsSent[0] + putsSent[1] < c.functions() * (c.puts(0) + c.puts(1))) {
            env.tb.run(16);
            int before = completed[0] + completed[1] + putsSent[0] + putsSent[1];
            for (int s = 0; s < 2; s++) {
                for (ChppDriver.Qp q : qps.get(s)) {
                    for (SendCompletion sc : q.pollSend()) {
                        check(env, sc.status() == CompletionStatus.OK && sc.bytes() == c.bytes(s), "processor " + s + ": send completion " + sc);
                        putsSent[s]++;
                    }
                    for (ReceiveCompletion rc : q.pollReceive()) {
                        check(env, rc.type() == PktType.PUT && rc.status() == CompletionStatus.OK,
                                "processor " + s + ": receive completion " + rc + " is not an OK PUT");
                        // an answer to our GET completes our request; a plain PUT completes the other side's
                        completed[rc.resp() ? s : 1 - s]++;
                    }
                }
            }
            long beats = sim.peek(dut.links.get(0).wireBeats) + sim.peek(dut.links.get(1).wireBeats);
            if (beats != lastBeats || completed[0] + completed[1] + putsSent[0] + putsSent[1] != before) {
                lastBeats = beats;
                lastMove = env.tb.cycle();
            } else if (env.tb.cycle() - lastMove >= STALL) {
                stuckSince = lastMove;
                break;
            }
        }
        long cycles = env.tb.cycle() - start;
        if (stuckSince < 0) {
            // the last credits are still on their way back over the wire
            env.tb.run(2L * c.latency() + 2);
        }
        List<Stuck> stuck = new ArrayList<>();
        List<LinkState> links = new ArrayList<>();
        long[][] vcBeats = new long[2][];
        long[] getStalls = new long[2];
        for (int i = 0; i < 2; i++) {
            getStalls[i] = sim.peek(dut.engines.get(i).receive.getStalls);
            stuck.add(stuck(sim, dut.engines.get(i), i));
            ChppCable l = dut.links.get(i);
            long[] cr = new long[l.vcs];
            long[] bu = new long[l.vcs];
            vcBeats[i] = new long[l.vcs];
            for (int v = 0; v < l.vcs; v++) {
                cr[v] = sim.peek(l.credits.get(v));
                bu[v] = sim.peek(l.buffered.get(v));
                vcBeats[i][v] = sim.peek(l.vcBeats.get(v));
            }
            links.add(new LinkState(i, cr, bu));
        }
        String diagnosis = stuckSince < 0 ? "" : diagnose(stuckSince, env.tb.cycle(), posted, completed, stuck, links, c);
        if (stuckSince < 0) {
            verify(env, all);
        }
        return new Outcome(posted, completed, stuckSince, cycles, stuck, links, vcBeats, getStalls, diagnosis);
    }

    private static boolean waits(Simulator sim, Decoupled<? extends Data> d) {
        return sim.peek(d.valid) != 0 && sim.peek(d.ready) == 0;
    }

    static Stuck stuck(Simulator sim, DmaEngine e, int i) {
        var d = e.receive.dispatch;
        return new Stuck(i, waits(sim, d.getOut), waits(sim, d.putOut), (int) sim.peek(e.receive.getQueue.count),
                waits(sim, e.receive.answer), waits(sim, e.tx), waits(sim, e.txGet), waits(sim, e.rxGet));
    }

    static String diagnose(long since, long now, int[] posted, int[] completed, List<Stuck> stuck, List<LinkState> links, Config c) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("DEADLOCK detected at cycle %d: no beat on either link and no request completed since cycle %d, "
                + "%d of %d requests outstanding%n", now, since, posted[0] + posted[1] - completed[0] - completed[1], posted[0] + posted[1]));
        for (Stuck s : stuck) {
            int o = 1 - s.engine();
            LinkState in = links.get(o);
            LinkState out = links.get(s.engine());
            b.append(String.format("  engine %d: ", s.engine()));
            List<String> w = new ArrayList<>();
            if (s.dispatchOnGet()) {
                w.add(String.format("receive dispatch holds a GET it cannot pass (GET queue %d/%d beats, GetAnswer full%s)",
                        s.getQueue(), org.flitkit.rtl.chpp.receive.ReceiveEngine.GET_QUEUE_BEATS,
                        s.answerWaits() ? ", its PUT descriptor refused by the busy send engine" : ""));
            }
            if (s.dispatchOnPut()) {
                w.add("receive dispatch holds a PUT its upload does not take");
            }
            if (s.rxGetWaits()) {
                w.add("a GET waits on rxGet for room in the GET path");
            }
            if (s.txWaits()) {
                w.add(String.format("its PUT/NAP packets wait for link %d (VC %d: %d credits, far buffer %d/%d beats)",
                        s.engine(), ChppCable.VC_DATA, out.credits()[0], out.buffered()[0], c.depth()));
            }
            if (s.txGetWaits()) {
                w.add(String.format("its GET packets wait for link %d (VC %d)", s.engine(), c.getOwnVc() ? ChppCable.VC_GET : ChppCable.VC_DATA));
            }
            if (w.isEmpty()) {
                w.add("nothing waiting at its network ports");
            }
            b.append(String.join("; ", w));
            b.append(String.format("; link %d into it: data VC %d credits, buffer %d/%d beats", o, in.credits()[0], in.buffered()[0], c.depth()));
            if (in.credits().length > 1) {
                b.append(String.format(", GET VC %d credits, buffer %d/%d beats", in.credits()[1], in.buffered()[1], c.depth()));
            }
            b.append('\n');
        }
        boolean cycle = stuck.stream().allMatch(s -> s.dispatchOnGet() && s.txWaits());
        if (cycle) {
            b.append("  the cycle: each engine's dispatch holds a GET its own send engine cannot answer, because the answer's PUTs "
                    + "wait for the other engine's dispatch through a full link (paper figure 9: GETs and PUTs in one queue)\n");
        }
        return b.toString();
    }

    /** Each GET's destination holds the remote source and nothing else was written below the driver's area. */
    static void verify(ChppPairEnv env, List<Req> all) {
        List<TreeMap<Long, Long>> allowed = List.of(new TreeMap<>(), new TreeMap<>());
        for (Req g : all) {
            byte[] want = env.driver(1 - g.target()).memory().read(g.src(), g.len());
            byte[] got = env.driver(g.target()).memory().read(g.dst() - 8, g.len() + 16);
            for (int i = 0; i < got.length; i++) {
                int k = i - 8;
                byte w = k >= 0 && k < g.len() ? want[k] : 0;
                check(env, got[i] == w, "processor " + g.side() + (g.get() ? " GET" : " PUT") + " of " + g.len() + " bytes into 0x" + Long.toHexString(g.dst())
                        + ": byte " + k + " is " + got[i] + ", expected " + w);
            }
            allowed.get(g.target()).put(g.dst(), g.dst() + g.len());
        }
        for (int s = 0; s < 2; s++) {
            allowed.get(s).put(ChppDriver.RINGS, Long.MAX_VALUE);
            allowed.get(s).put(LATENCY_DST, LATENCY_DST + 64);
            for (PcieHost.Write w : env.hosts.get(s).writes()) {
                Map.Entry<Long, Long> e = allowed.get(s).floorEntry(w.addr());
                check(env, e != null && w.addr() + w.data().length <= e.getValue(), "processor " + s + ": write of "
                        + w.data().length + " bytes at 0x" + Long.toHexString(w.addr()) + " outside every GET destination");
            }
        }
    }

    /**
     * A {@code bytes}-byte PUT from processor 0 to 1 alone on the idle pair: cycles from the doorbell write to the last
     * byte visible in the receiver's memory (as {@link ChppMeasurements#latency} measures it through the crossbar).
     */
    public static long putLatency(ChppPairEnv env, int bytes) {
        ChppDriver.Qp a = env.driver(0).open(7, 3, KEY);
        ChppDriver.Qp b = env.driver(1).open(7, 3, KEY);
        byte[] data = new byte[bytes];
        env.tb.rng("latency").nextBytes(data);
        env.driver(0).memory().write(SRC + SRC_BYTES, data);
        env.tb.run(300);
        int writeLatency = env.hosts.get(1).params().dma().writeLatencyCycles();
        long[] last = {-1};
        long dst = LATENCY_DST;
        env.hosts.get(1).onWrite(w -> {
            if (w.addr() < ChppDriver.RINGS && w.addr() <= dst + bytes - 1 && w.addr() + w.data().length > dst) {
                last[0] = Math.max(last[0], w.cycle() + writeLatency);
            }
        });
        long start = env.tb.cycle();
        a.put(b.id(), KEY, SRC + SRC_BYTES, dst, bytes, true, false);
        List<SendCompletion> sent = new ArrayList<>();
        env.tb.runUntil("1-byte PUT sent and written", () -> {
            sent.addAll(a.pollSend());
            return !sent.isEmpty() && last[0] >= 0 && env.tb.cycle() >= last[0];
        }, 20_000);
        env.tb.run(200);
        check(env, sent.get(0).status() == CompletionStatus.OK, "latency PUT: " + sent.get(0));
        byte[] got = env.driver(1).memory().read(dst, bytes);
        check(env, java.util.Arrays.equals(got, data), "latency PUT: " + java.util.Arrays.toString(got) + " landed, "
                + java.util.Arrays.toString(data) + " sent");
        return last[0] - start;
    }

    private static void check(ChppPairEnv env, boolean ok, String what) {
        if (!ok) {
            throw env.tb.fail(what);
        }
    }
}
