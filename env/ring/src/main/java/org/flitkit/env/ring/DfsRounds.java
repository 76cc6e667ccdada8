package org.flitkit.env.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flitkit.env.ring.topo.QuasiCompleteDigraph;
import org.flitkit.env.ring.topo.SwitchGraph;
import org.flitkit.rtl.ring.DfsFlit;
import org.flitkit.rtl.ring.DfsNetwork;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;

/**
 * Rounds of traffic through the distributed-full-switch RTL on the quasi-complete digraph: in each round every
 * subscriber sends one packet of {@code flits} flits at once, to a random permutation of the subscribers (or to
 * uniformly random ones), each source choosing its own link (the one to the switch joining it to the destination).
 * Measures the cycles per round and the cycles any pilot waited (docs/multiring.md, "Distributed full switch").
 */
public final class DfsRounds {
    /** A delivered packet: source, destination, flit count and the sum of its data. */
    record Delivered(int src, int dst, int flits, long sum) {
    }

    public record Measured(SwitchGraph graph, int flits, int rounds, boolean permutation, long minRound, long maxRound, long blocked, long delivered,
            ScenarioResult result) {
        public List<String> report() {
            int n = graph.nodes();
            int m = graph.ports();
            return List.of(String.format(Locale.ROOT, "DFS on %s: N=%d subscribers, %d switches of %dx%d, %d rounds of %s, "
                    + "%d-flit packets", graph.describe(), n, n, m, m, rounds, permutation ? "random permutations" : "uniformly random destinations", flits),
                    String.format(Locale.ROOT, "packets delivered=%d  cycles per round min=%d max=%d  blocked pilot cycles=%d", delivered, minRound,
                            maxRound, blocked));
        }
    }

    private DfsRounds() {
    }

    /** One subscriber's sending side: its packet of the round, on the link its destination needs. */
    private static final class Source extends Component {
        final DfsNetwork dut;
        final SwitchGraph g;
        final int self;
        final OutOfOrderScoreboard<Integer, Delivered> board;
        int link = -1;
        int dst;
        int flits;
        int next;
        long seed;

        Source(DfsNetwork dut, SwitchGraph g, int self, OutOfOrderScoreboard<Integer, Delivered> board) {
            super("source" + self);
            this.dut = dut;
            this.g = g;
            this.self = self;
            this.board = board;
        }

        void send(int to, int count) {
            dst = to;
            flits = count;
            next = 0;
            seed = rng().nextInt(1 << 12);
            int sw = g.via(self, to);
            link = linkOf(g, self, sw);
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += data(i);
            }
            board.expect(new Delivered(self, to, count, sum));
        }

        long data(int i) {
            return i == 0 ? self : (seed * 16 + i) & 0xFFFF;
        }

        boolean idle() {
            return link < 0;
        }

        @Override
        protected void drive() {
            for (int k = 0; k < g.ports(); k++) {
                sim().poke(dut.send.get(self * g.ports() + k).valid, k == link);
            }
            if (link >= 0) {
                DfsFlit f = dut.send.get(self * g.ports() + link);
                sim().poke(f.dst, dst);
                sim().poke(f.last, next == flits - 1);
                sim().poke(f.data, data(next));
            }
        }

        @Override
        protected void sample() {
            if (link >= 0 && sim().peekBool(dut.sendReady.get(self * g.ports() + link)) && ++next == flits) {
                link = -1;
            }
        }
    }

    /** Subscriber u's k-th outgoing link is its k-th (switch, port) pair in switch order, as {@link DfsNetwork} numbers them. */
    static int linkOf(SwitchGraph g, int u, int sw) {
        int k = 0;
        for (int i = 0; i < sw; i++) {
            for (int j = 0; j < g.ports(); j++) {
                k += g.from(i, j) == u ? 1 : 0;
            }
        }
        return k;
    }

    /** Every incoming link: packets reassembled and handed to the scoreboard at their last flit. */
    private static final class Sinks extends Component {
        final DfsNetwork dut;
        final int m;
        final OutOfOrderScoreboard<Integer, Delivered> board;
        final int[] src;
        final int[] count;
        final long[] sum;

        Sinks(DfsNetwork dut, int n, int m, OutOfOrderScoreboard<Integer, Delivered> board) {
            super("sinks");
            this.dut = dut;
            this.m = m;
            this.board = board;
            int links = n * m;
            src = new int[links];
            count = new int[links];
            sum = new long[links];
        }

        @Override
        protected void sample() {
            for (int l = 0; l < src.length; l++) {
                DfsFlit f = dut.recv.get(l);
                if (sim().peekBool(f.valid)) {
                    long d = sim().peek(f.data);
                    if (count[l] == 0) {
                        src[l] = (int) d;
                    }
                    count[l]++;
                    sum[l] += d;
                    if (sim().peekBool(f.last)) {
                        int dst = l / m;
                        checkEqual("destination field of a flit on subscriber " + dst + "'s link", (long) dst, sim().peek(f.dst));
                        board.observe(new Delivered(src[l], dst, count[l], sum[l]));
                        count[l] = 0;
                        sum[l] = 0;
                    }
                }
            }
        }
    }

    /** On the quasi-complete digraph of m x m switches. */
    public static Measured run(int m, int flits, int rounds, boolean permutation, RunConfig config) {
        if (m < 2 || m > 8) {
            throw new IllegalArgumentException("--m must be in 2..8 (N = m^2 subscribers), got " + m);
        }
        return run(new QuasiCompleteDigraph(m), flits, rounds, permutation, config);
    }

    public static Measured run(SwitchGraph g, int flits, int rounds, boolean permutation, RunConfig config) {
        if (flits < 1 || flits > 4096 || rounds < 1) {
            throw new IllegalArgumentException("--flits must be in 1..4096 and --rounds at least 1");
        }
        int m = g.ports();
        int n = g.nodes();
        int[][] from = new int[n][m];
        int[][] to = new int[n][m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                from[i][j] = g.from(i, j);
                to[i][j] = g.to(i, j);
            }
        }
        try (Testbench<DfsNetwork> tb = Testbench.create(() -> new DfsNetwork(m, from, to), config)) {
            OutOfOrderScoreboard<Integer, Delivered> board = new OutOfOrderScoreboard<>("scoreboard", d -> d.src() * 1024 + d.dst());
            List<Source> sources = new ArrayList<>();
            for (int u = 0; u < n; u++) {
                sources.add(tb.add(new Source(tb.dut(), g, u, board)));
            }
            tb.add(new Sinks(tb.dut(), n, m, board));
            tb.add(board);
            tb.reset(2);
            Rng rng = tb.rng("destinations");
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int r = 0; r < rounds; r++) {
                int[] dst = new int[n];
                for (int u = 0; u < n; u++) {
                    dst[u] = permutation ? u : rng.nextInt(n);
                }
                if (permutation) {
                    for (int u = n - 1; u > 0; u--) {
                        int k = rng.nextInt(u + 1);
                        int t = dst[u];
                        dst[u] = dst[k];
                        dst[k] = t;
                    }
                }
                for (int u = 0; u < n; u++) {
                    sources.get(u).send(dst[u], flits);
                }
                long c = tb.runUntil("round " + r + " delivered", board::isEmpty, 100L * n * flits + 100);
                min = Math.min(min, c);
                max = Math.max(max, c);
            }
            tb.finish();
            long blocked = tb.sim().peek(tb.dut().blocked);
            return new Measured(g, flits, rounds, permutation, min, max, blocked, board.matched(),
                    tb.result().with("delivered", board.matched()).with("blocked", blocked));
        }
    }
}
