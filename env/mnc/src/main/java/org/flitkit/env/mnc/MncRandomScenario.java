package org.flitkit.env.mnc;

import org.flitkit.testbench.ScenarioOptions;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;

/**
 * {@code ./hdl run mnc-random}: several nodes with several rails each, many flows (node, port to node, port)
 * sending messages of random sizes (short ones on one link, long ones striped) at once; one in-order
 * scoreboard per flow checks that every message is delivered exactly once, in order, byte exact (multi-rail
 * paper, section 2: MNC keeps GM's reliable, ordered delivery).
 */
public final class MncRandomScenario {
    /** Cycles a run may take before it fails. */
    public static final long CYCLE_BUDGET = 2_000_000_000L;
    public static final Map<String, String> OPTIONS = options();
    /** What the PASS line counts (for {@code ./hdl run mnc-random --help}). */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "delivered", "messages delivered to their port exactly once, in order per flow, byte exact (the run fails otherwise)",
            "flows", "(source node, destination node, port) triples that carried messages",
            "striped", "long messages the dispatch units split over several links (equal to the long messages posted)",
            "sreqs", "SReq/SAck exchanges that chose receive links (one per striped message)",
            "data_bytes", "payload bytes that crossed the links",
            "control_packets", "SReq and SAck packets that crossed the links");

    /**
     * @param messages  messages over all flows
     * @param nodes     nodes (2..16)
     * @param rails     rails per node (1..4)
     * @param ports     GM ports per node (flows per node pair and direction)
     * @param maxBytes  largest message
     * @param policy    link allocation policy
     */
    public record Options(long messages, int nodes, int rails, int ports, int maxBytes, MncParams.Policy policy) {
        public Options {
            if (messages < 1) {
                throw new IllegalArgumentException("--messages must be at least 1, got " + messages);
            }
            if (nodes < 2 || nodes > 16) {
                throw new IllegalArgumentException("--nodes must be in 2..16, got " + nodes);
            }
            if (rails < 1 || rails > 4) {
                throw new IllegalArgumentException("--rails must be in 1..4, got " + rails);
            }
            if (ports < 1 || ports > 16) {
                throw new IllegalArgumentException("--ports must be in 1..16, got " + ports);
            }
            if (maxBytes < 1 || maxBytes > MncHost.MAX_MESSAGE) {
                throw new IllegalArgumentException("--max-bytes must be in 1.." + MncHost.MAX_MESSAGE + ", got " + maxBytes);
            }
        }

        public static Options defaults() {
            return new Options(2_000, 4, 2, 4, 8 * 1024, MncParams.Policy.DYNAMIC);
        }

        public static Options parse(Map<String, String> values) {
            ScenarioOptions.requireKnown("mnc-random", values, OPTIONS);
            Options d = defaults();
            String pol = values.get("policy");
            MncParams.Policy policy = d.policy();
            if (pol != null) {
                try {
                    policy = MncParams.Policy.valueOf(pol.toUpperCase().replace('-', '_'));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--policy must be dynamic, static or one-direction, got '" + pol + "'");
                }
            }
            return new Options(ScenarioOptions.integer(values, "messages", d.messages()), (int) ScenarioOptions.integer(values, "nodes", d.nodes()),
                    (int) ScenarioOptions.integer(values, "rails", d.rails()), (int) ScenarioOptions.integer(values, "ports", d.ports()),
                    (int) ScenarioOptions.integer(values, "max-bytes", d.maxBytes()), policy);
        }
    }

    /** Messages a host keeps outstanding (posted and not yet sent). */
    static final int WINDOW = 16;
    /** Striping threshold of this scenario: low, so that random sizes exercise both paths. */
    static final int THRESHOLD = 2 * 1024;

    private MncRandomScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, Options.defaults());
    }

    public static ScenarioResult run(RunConfig cfg, Options o) {
        MncParams p = MncEnvs.params(o.rails()).withPolicy(o.policy()).withThreshold(THRESHOLD);
        try (MncEnv env = new MncEnv(cfg, o.nodes(), p, Platform.paper())) {
            Map<Long, InOrderScoreboard<Msg>> boards = new LinkedHashMap<>();
            for (int s = 0; s < o.nodes(); s++) {
                for (int d = 0; d < o.nodes(); d++) {
                    for (int port = 0; port < o.ports() && s != d; port++) {
                        InOrderScoreboard<Msg> b = new InOrderScoreboard<>("flow_" + s + "_" + d + "_" + port);
                        b.format(Msg::toString);
                        boards.put(key(s, d, port), env.tb.add(b));
                    }
                }
            }
            long[] delivered = {0};
            long[] striped = {0};
            for (MncHost h : env.hosts()) {
                for (int port = 0; port < o.ports(); port++) {
                    h.open(port);
                }
                h.listener((at, src, port, seq, data) -> {
                    boards.get(key(src, at.node(), port)).observe(new Msg(seq, ByteBuffer.wrap(data)));
                    delivered[0]++;
                });
            }
            Traffic traffic = env.tb.add(new Traffic(env, o, p, boards, striped));
            env.tb.runUntil(o.messages() + " messages delivered", () -> traffic.done() && delivered[0] == o.messages(), cfg.cycles());
            env.tb.runUntil("the platform to drain", env::idle, 1_000_000);
            env.tb.finish();
            long sreqs = 0;
            long stripedHw = 0;
            long stale = 0;
            for (var node : env.cluster().nodes()) {
                sreqs += env.tb.sim().peek(node.dispatch.sreqs);
                stripedHw += env.tb.sim().peek(node.dispatch.striped);
                stale += env.tb.sim().peek(node.dispatch.staleSacks);
            }
            if (stale != 0) {
                throw env.tb.fail(stale + " SAcks arrived at a dispatch unit that awaited none");
            }
            if (stripedHw != striped[0]) {
                throw env.tb.fail("the dispatch units striped " + stripedHw + " messages, the traffic posted " + striped[0] + " long ones");
            }
            return env.tb.result().with("delivered", delivered[0]).with("flows", boards.size()).with("striped", stripedHw)
                    .with("sreqs", sreqs).with("data_bytes", env.linkDataBytes()).with("control_packets", env.controlPackets());
        }
    }

    /** A message as the scoreboard sees it: its sequence number in its flow and its bytes. */
    record Msg(int seq, ByteBuffer data) {
        @Override
        public String toString() {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(data.duplicate());
            return "seq " + seq + ", " + data.remaining() + " bytes, CRC-32 0x" + Long.toHexString(crc.getValue());
        }
    }

    private static long key(int src, int dst, int port) {
        return ((long) src << 16) | ((long) dst << 8) | port;
    }

    /** Every host keeps up to {@link #WINDOW} messages outstanding, each to a random port of a random other node, random size. */
    static final class Traffic extends Component {
        private final MncEnv env;
        private final Options o;
        private final MncParams params;
        private final Map<Long, InOrderScoreboard<Msg>> boards;
        private final long[] striped;
        private long posted;

        Traffic(MncEnv env, Options o, MncParams params, Map<Long, InOrderScoreboard<Msg>> boards, long[] striped) {
            super("traffic");
            this.env = env;
            this.o = o;
            this.params = params;
            this.boards = boards;
            this.striped = striped;
        }

        @Override
        protected void drive() {
            if (posted == o.messages()) {
                return;
            }
            // the hosts in turn, a different one first each cycle (host j - shift first)
            List<MncHost> hosts = env.hosts();
            int n = hosts.size();
            int shift = (int) (cycle() % n);
            for (int j = 0; j < n; j++) {
                MncHost h = hosts.get(((j - shift) % n + n) % n);
                while (posted < o.messages() && h.outstanding() < WINDOW) {
                    int dst = (h.node() + 1 + rng().nextInt(o.nodes() - 1)) % o.nodes();
                    int port = rng().nextInt(o.ports());
                    // half short (1..threshold-1 bytes), half up to maxBytes
                    int len = rng().nextBoolean() ? 1 + rng().nextInt(Math.min(o.maxBytes(), THRESHOLD - 1))
                            : 1 + rng().nextInt(o.maxBytes());
                    byte[] data = new byte[len];
                    rng().nextBytes(data);
                    int seq = h.send(port, dst, data, null);
                    boards.get(key(h.node(), dst, port)).expect(new Msg(seq, ByteBuffer.wrap(data.clone())));
                    if (len >= params.stripeThreshold() && params.stripes()) {
                        striped[0]++;
                    }
                    posted++;
                }
            }
        }

        boolean done() {
            return posted == o.messages();
        }

        @Override
        public List<String> describeState() {
            return List.of("posted " + posted + " of " + o.messages() + " messages");
        }
    }

    private static Map<String, String> options() {
        Options d = Options.defaults();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("messages", "messages to deliver over all flows (default " + d.messages() + ")");
        m.put("nodes", "nodes (default " + d.nodes() + ")");
        m.put("rails", "NICs per node (default " + d.rails() + ")");
        m.put("ports", "GM ports per node, one flow per port and node pair (default " + d.ports() + ")");
        m.put("max-bytes", "largest message in bytes (default " + d.maxBytes() + ")");
        m.put("policy", "dynamic, static or one-direction (default dynamic)");
        return Collections.unmodifiableMap(m);
    }
}
