package org.flitkit.env.chpp;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.chpp.ChppController;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;

/**
 * Measurements on two engines of one controller (paper section 5: latency from the doorbell write to the last
 * byte in the receiver's memory, bandwidth of streams of requests, the processing latency without memory reads):
 * processor 0's QP sends to processor 1's, each operation measured alone on an idle controller. docs/chpp-nic.md,
 * "Measurements".
 */
public final class ChppMeasurements implements AutoCloseable {
    /** The four primitives of the paper's table 2. */
    public enum Op {
        NAP_IMMEDIATE, NAP_INDIRECT, PUT, GET
    }

    /** One operation alone: cycles from the doorbell write to the last data byte visible in the receiver's memory. */
    public record Latency(Op op, int bytes, long cycles, long memoryReadCycles, long barCycles, long writeCycles) {
        /** The engines' own share: the total without BAR write, memory reads and the final posted write. */
        public long processingCycles() {
            return cycles - memoryReadCycles - barCycles - writeCycles;
        }
    }

    /** A stream of requests: bytes moved and the cycles from the first doorbell to the last byte visible. */
    public record Stream(Op op, int bytes, int requests, long cycles) {
        public double bytesPerCycle() {
            return (double) bytes * requests / cycles;
        }

        /** GB/s at the cHPP clock. */
        public double gbps() {
            return bytesPerCycle() * PcieParams.CHPP_CLOCK_MHZ * 1e6 / 1e9;
        }
    }

    static final int KEY = 0xC0DE;
    /** Source data of the sender (and of the GET's remote side), the PUT/GET destination, the NAP buffers. */
    static final long SRC = 0x1000_0000L;
    static final long DST = 0x2000_0000L;
    static final long NAP_BUFFERS = 0x4000_0000L;
    static final int NAP_LIST = 1024;

    public final ChppEnv env;
    private final ChppDriver.Qp a;
    private final ChppDriver.Qp b;
    private final PcieParams pp;
    private final List<ReadMonitor> reads = new ArrayList<>();
    /** Cycle the last data byte became visible at each host (ring entries excluded). */
    private final long[] lastData = new long[2];

    public ChppMeasurements(RunConfig cfg, SendEngineParams sp, PcieParams pp) {
        this(cfg, ChppParams.paper(), sp, pp);
    }

    public ChppMeasurements(RunConfig cfg, ChppParams p, SendEngineParams sp, PcieParams pp) {
        this.pp = pp;
        env = new ChppEnv(cfg, 2, 2, p, sp, pp);
        ChppController c = env.tb.dut();
        for (int i = 0; i < 2; i++) {
            final int h = i;
            reads.add(env.tb.add(new ReadMonitor("reads" + i, c, i)));
            env.hosts.get(i).onWrite(w -> {
                if (w.addr() < ChppDriver.RINGS) {
                    lastData[h] = Math.max(lastData[h], w.cycle() + pp.dma().writeLatencyCycles());
                }
            });
        }
        a = env.driver(0).open(0, 0, KEY);
        b = env.driver(1).open(0, 0, KEY);
        env.driver(1).openReceiveBuffers(NAP_LIST, NAP_BUFFERS, NAP_LIST);
        byte[] data = new byte[1 << 21];
        new java.util.Random(1).nextBytes(data);
        env.driver(0).memory().write(SRC, data);
        env.driver(1).memory().write(SRC, data);
        env.tb.run(500);
    }

    /** One {@code op} of {@code bytes} alone on the idle controller. */
    public Latency latency(Op op, int bytes) {
        long start = env.tb.cycle();
        reads.forEach(ReadMonitor::clear);
        int target = op == Op.GET ? 0 : 1;
        lastData[target] = 0;
        post(op, bytes, start);
        finish(1, op);
        long end = lastData[target];
        long mem = union(start, end);
        return new Latency(op, bytes, end - start, mem, pp.mmioLatencyCycles(), pp.dma().writeLatencyCycles());
    }

    /** {@code requests} back-to-back {@code op}s of {@code bytes}, at most {@code window} outstanding. */
    public Stream stream(Op op, int bytes, int requests, int window) {
        long start = env.tb.cycle();
        int target = op == Op.GET ? 0 : 1;
        lastData[target] = 0;
        int posted = 0;
        int done = 0;
        while (done < requests) {
            while (posted < requests && posted - done < window) {
                post(op, bytes, posted);
                posted++;
            }
            env.tb.run(1);
            done += collect(op);
            if (env.tb.cycle() - start > 50_000_000L) {
                throw env.tb.fail(op + " stream of " + requests + " x " + bytes + " B: only " + done + " done");
            }
        }
        return new Stream(op, bytes, requests, lastData[target] - start);
    }

    /** Bytes each of the 8 functions has moved, sampled every {@code every} cycles (paper section 5.5, figure 20). */
    public record Shares(long every, List<long[]> samples) {
        /** Largest relative distance of any function's share from 1/8 in sample {@code i}. */
        public double deviation(int i) {
            long[] b = samples.get(i);
            long total = java.util.Arrays.stream(b).sum();
            if (total == 0) {
                return 1.0;
            }
            double fair = 1.0 / b.length;
            double worst = 0;
            for (long x : b) {
                worst = Math.max(worst, Math.abs((double) x / total - fair) / fair);
            }
            return worst;
        }

        /** The first cycle from which every later sample's deviation stays within {@code tolerance}; -1 if never. */
        public long settledAt(double tolerance) {
            double[] d = new double[samples.size()];
            for (int i = 0; i < d.length; i++) {
                d[i] = deviation(i);
            }
            return settledAt(d, every, tolerance);
        }

        /** The same for deviations already taken, sample i at cycle (i + 1) x {@code every}. */
        public static long settledAt(double[] deviations, long every, double tolerance) {
            int k = deviations.length;
            while (k > 0 && deviations[k - 1] <= tolerance) {
                k--;
            }
            return k == deviations.length ? -1 : (k + 1) * every;
        }
    }

    /**
     * Every function of processor 0 (QP 0 each) keeps {@code window} PUTs of random sizes 1..{@code maxBytes} (seeded)
     * outstanding toward processor 1 for {@code cycles}; bytes per function counted from their send completions.
     */
    public Shares fairness(long cycles, int maxBytes, int window, long every, long seed) {
        int n = org.flitkit.formats.chpp.Chpp.FUNCTIONS;
        List<ChppDriver.Qp> qps = new ArrayList<>();
        qps.add(a);
        for (int f = 1; f < n; f++) {
            qps.add(env.driver(0).open(f, 0, KEY));
        }
        env.tb.run(200);
        java.util.Random rnd = new java.util.Random(seed);
        int[] outstanding = new int[n];
        long[] bytes = new long[n];
        List<long[]> samples = new ArrayList<>();
        long start = env.tb.cycle();
        while (env.tb.cycle() - start < cycles) {
            for (int f = 0; f < n; f++) {
                while (outstanding[f] < window) {
                    int len = 1 + rnd.nextInt(maxBytes);
                    long off = rnd.nextInt(1 << 20);
                    qps.get(f).put(b.id(), KEY, SRC + off, DST + off, len, true, false);
                    outstanding[f]++;
                }
            }
            env.tb.run(16);
            for (int f = 0; f < n; f++) {
                for (SendCompletion c : qps.get(f).pollSend()) {
                    if (c.status() != CompletionStatus.OK) {
                        throw env.tb.fail("fairness: function " + f + " send completion " + c);
                    }
                    outstanding[f]--;
                    bytes[f] += c.bytes();
                }
            }
            if ((env.tb.cycle() - start) / every > samples.size()) {
                samples.add(bytes.clone());
            }
        }
        return new Shares(every, samples);
    }

    /** Mean cycles from a read request to its last completion, over the reads since the last {@link #latency} call. */
    public double meanReadCycles() {
        return reads.stream().flatMap(m -> m.intervals.stream()).mapToLong(v -> v[1] - v[0]).average().orElse(0);
    }

    private void post(Op op, int bytes, long salt) {
        // 4 KB-aligned buffers, as a benchmark allocates them (an unaligned destination costs a second write per
        // packet at every 128-byte boundary it straddles)
        long off = (salt * 4096) % (1 << 20);
        switch (op) {
            case NAP_IMMEDIATE -> a.napImmediate(b.id(), KEY, env.driver(0).memory().read(SRC + off, bytes), true);
            case NAP_INDIRECT -> a.napIndirect(b.id(), KEY, SRC + off, bytes, true);
            case PUT -> a.put(b.id(), KEY, SRC + off, DST + off, bytes, true, false);
            case GET -> a.get(b.id(), KEY, SRC + off, DST + off, bytes, false, true);
        }
    }

    /**
     * Operations finished since the last call: a NAP's receive completion at the receiver (its buffer goes back on
     * the list), a PUT's send completion, a GET's receive completion at the requester (the answer's last packet).
     */
    private int collect(Op op) {
        int done = 0;
        for (SendCompletion s : a.pollSend()) {
            if (s.status() != CompletionStatus.OK) {
                throw env.tb.fail(op + ": send completion " + s);
            }
            done += op == Op.PUT ? 1 : 0;
        }
        for (ReceiveCompletion r : a.pollReceive()) {
            // a GET ends at the requester: its answer's last packet (OK) or the answer's failure (GET_FAILED)
            ChppDriver.GetEnd g = a.getEnded(r);
            if (r.status() != CompletionStatus.OK || g == null || !g.ok()) {
                throw env.tb.fail(op + ": receive completion at the requester " + r + (g == null ? " (no GET's end)" : " ends " + g));
            }
            done += op == Op.GET ? 1 : 0;
        }
        for (ReceiveCompletion r : b.pollReceive()) {
            if (r.status() != CompletionStatus.OK) {
                throw env.tb.fail(op + ": receive completion " + r);
            }
            done++;
            env.driver(1).postReceiveBuffers(List.of(r.address()));
        }
        return done;
    }

    private void finish(int n, Op op) {
        int[] done = {0};
        env.tb.runUntil(op + " done", () -> {
            done[0] += collect(op);
            return done[0] >= n;
        }, 200_000);
        env.tb.runUntil("hosts idle", () -> env.hostsIdle() && quiet(), 10_000);
    }

    private boolean quiet() {
        Simulator s = env.tb.sim();
        ChppController c = env.tb.dut();
        for (int i = 0; i < 2; i++) {
            if (s.peek(c.dmaRq.get(i).valid) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Cycles within [from, to] covered by some read of either engine (request out to its last completion in). */
    private long union(long from, long to) {
        List<long[]> iv = new ArrayList<>();
        reads.forEach(m -> iv.addAll(m.intervals));
        iv.sort((x, y) -> Long.compare(x[0], y[0]));
        long covered = 0;
        long curS = -1;
        long curE = -1;
        for (long[] v : iv) {
            long s = Math.max(v[0], from);
            long e = Math.min(v[1], to);
            if (e <= s) {
                continue;
            }
            if (s > curE) {
                covered += curE - curS;
                curS = s;
                curE = e;
            } else {
                curE = Math.max(curE, e);
            }
        }
        return covered + curE - curS;
    }

    @Override
    public void close() {
        env.close();
    }

    /** Every memory read of one engine: the cycle its request left and the cycle its last completion beat came. */
    static final class ReadMonitor extends Component {
        private final ChppController c;
        private final int port;
        private final long[] issued = new long[256];
        private final boolean[] counted = new boolean[256];
        final List<long[]> intervals = new ArrayList<>();

        ReadMonitor(String name, ChppController c, int port) {
            super(name);
            this.c = c;
            this.port = port;
        }

        void clear() {
            intervals.clear();
        }

        @Override
        protected void sample() {
            Simulator s = sim();
            var rq = c.dmaRq.get(port);
            if (s.peek(rq.valid) != 0 && s.peek(rq.ready) != 0 && s.peek(rq.bits.write) == 0) {
                int t = (int) s.peek(rq.bits.tag);
                issued[t] = cycle();
                // buffer management's list reads run in the background, off the operation's path
                long addr = s.peek(rq.bits.addr);
                counted[t] = addr < ChppDriver.BUFFER_LIST || addr >= ChppDriver.BUFFER_LIST + (1L << 24);
            }
            var cp = c.dmaCpl.get(port);
            if (s.peek(cp.valid) != 0 && s.peek(cp.ready) != 0
                    && (s.peek(cp.bits.last) != 0 || s.peek(cp.bits.status) != Pcie.SC)) {
                int t = (int) s.peek(cp.bits.tag);
                if (counted[t]) {
                    intervals.add(new long[] {issued[t], cycle()});
                }
            }
        }
    }
}
