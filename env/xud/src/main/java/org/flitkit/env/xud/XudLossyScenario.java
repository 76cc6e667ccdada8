package org.flitkit.env.xud;

import org.flitkit.testbench.ScenarioOptions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.host.DmaParams;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;

/**
 * {@code ./hdl run xud-lossy}: several endpoints, every QP connected to every QP of the other endpoints,
 * messages of random length on random connections through the window layer and a lossy network; every
 * message must be delivered exactly once, in order per window. Ends with the deliveries and the work the
 * layer did to get there (timeouts, NAKs, resends, duplicates it dropped). Paper sections 3 and 4.
 */
public final class XudLossyScenario {
    /** The counts of the PASS line: the messages' fate first, then the window layers' work, then the network's faults. */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "delivered", "messages delivered to their application exactly once, in window order",
            "lost", "messages never delivered (the run fails unless 0)",
            "duplicated", "messages delivered twice or more (the run fails unless 0)",
            "timeouts", "sends the adapters completed with TIMEOUT (no ACK in time), each resent by the window layer",
            "naks", "sends completed with NAK (the receiver saw a PSN gap), each resent",
            "rnr_naks", "sends completed with RNR NAK (no receive buffer), each resent",
            "resends", "messages the window layers sent again: timeouts + naks + rnr_naks",
            "duplicates_dropped", "copies the receiving window layers recognised by their sequence number and dropped",
            "data_lost", "data packets the network dropped (--loss), not messages: the window layer resent them",
            "acks_lost", "ACK/NAK packets the network dropped (--ack-loss)",
            "net_duplicated", "packets the network sent twice (--dup)",
            "net_reordered", "packets the network delayed past later ones (--reorder)",
            "net_corrupted", "packets the network flipped one bit of (--corrupt); the receiving adapter refuses them (bad ICRC, answered with a NAK)");

    /** Cycles a run may take before it fails (the run ends as soon as every message is delivered and the network drained). */
    public static final long CYCLE_BUDGET = 50_000_000;
    /** The scenario's own options ({@code --name value}), with their meaning and default. */
    public static final Map<String, String> OPTIONS = options();

    /**
     * @param faults     the network's fault rates
     * @param messages   messages to deliver, over all endpoints
     * @param windows    windows per connection
     * @param endpoints  adapters
     */
    public record Options(Faults faults, long messages, int windows, int endpoints) {
        public Options {
            if (messages < 1) {
                throw new IllegalArgumentException("--messages must be at least 1, got " + messages);
            }
            if (endpoints < 2 || endpoints > 16) {
                throw new IllegalArgumentException("--endpoints must be in 2..16, got " + endpoints);
            }
            if (windows < 1 || windows > WindowLayer.MAX_WINDOWS) {
                throw new IllegalArgumentException("--windows must be in 1.." + WindowLayer.MAX_WINDOWS + ", got " + windows);
            }
        }

        public static Options defaults() {
            return new Options(new Faults(0.1, 0.1, 0.05, 0.05, 0.01), 10_000, WindowLayer.DEFAULT_WINDOWS, 4);
        }

        /** Defaults overridden by {@code values} (option name without dashes -> text). */
        public static Options parse(Map<String, String> values) {
            Options d = defaults();
            ScenarioOptions.requireKnown("xud-lossy", values, OPTIONS);
            Faults f = d.faults();
            return new Options(new Faults(ScenarioOptions.number(values, "loss", f.loss()), ScenarioOptions.number(values, "ack-loss", f.ackLoss()), ScenarioOptions.number(values, "dup", f.dup()),
                    ScenarioOptions.number(values, "reorder", f.reorder()), ScenarioOptions.number(values, "corrupt", f.corrupt())),
                    ScenarioOptions.integer(values, "messages", d.messages()), (int) ScenarioOptions.integer(values, "windows", d.windows()), (int) ScenarioOptions.integer(values, "endpoints", d.endpoints()));
        }
    }

    /**
     * The adapters of this scenario: 2 QPs each, a 4,000-cycle timeout (5.1 us at 781.25 MHz, far above the
     * network's worst round trip with reordering, so a timeout means a loss, not a slow packet), and in-flight
     * slots and timeout FIFO for a timeout's worth of sends.
     */
    public static final XudParams PARAMS = new XudParams(2, 512, 4_000, 2048, 128, 4096, XudParams.DEFAULT_SEND_CQ_BASE,
            XudParams.DEFAULT_RECV_CQ_BASE);
    /** Messages a host keeps queued in its window layer beyond what is in flight. */
    private static final int MAX_PENDING = 64;
    /**
     * Cycles between two messages of one host. Each message costs three host writes on the adapters' one-write-per-cycle
     * DMA ports (data and receive CQE at the receiver, send CQE at the sender); one message per host every 4 cycles keeps
     * them below saturation with room for resends, so queues stay short and timeouts mean losses.
     */
    public static final int SEND_INTERVAL = 4;

    private XudLossyScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, Options.defaults());
    }

    public static ScenarioResult run(RunConfig cfg, Options o) {
        XudParams p = PARAMS;
        try (XudEnv env = new XudEnv(cfg, o.endpoints(), p, DmaParams.defaults(), o.faults(), XudEnv.psns(p, 0))) {
            ExactlyOnce board = env.tb.add(new ExactlyOnce("exactly_once"));
            List<WindowLayer> layers = new ArrayList<>();
            for (HostEndpoint h : env.hosts()) {
                layers.add(new WindowLayer(h, o.windows(), (at, from, window, data) ->
                        board.delivered(at.host().index(), from.remoteLid(), from.remoteQp(), from.qp(), window, data)));
            }
            Traffic traffic = env.tb.add(new Traffic(layers, board, o.messages()));
            env.tb.runUntil(o.messages() + " messages delivered exactly once", () -> traffic.done() && board.delivered() == o.messages()
                    && layers.stream().allMatch(l -> l.pending() == 0), cfg.cycles());
            // late copies (duplicates, reordered packets, resends) still in the network must all be dropped
            env.tb.runUntil("the network to drain", env.network::idle, 10L * (p.timeoutCycles() + XudEnv.DEFAULT_REORDER_SPREAD));
            env.tb.run(2L * p.timeoutCycles());
            env.tb.finish();
            if (board.duplicated() != 0 || board.lost() != 0 || board.orderViolations() != 0) {
                throw env.tb.fail("delivered=" + board.delivered() + " lost=" + board.lost() + " duplicated=" + board.duplicated()
                        + " out of window order=" + board.orderViolations());
            }
            long timeouts = 0;
            long naks = 0;
            long rnr = 0;
            long resends = 0;
            long dropped = 0;
            for (WindowLayer l : layers) {
                timeouts += l.timeouts();
                naks += l.naks();
                rnr += l.rnrNaks();
                resends += l.resends();
                dropped += l.duplicatesDropped();
            }
            return env.tb.result().with("delivered", board.delivered()).with("lost", board.lost()).with("duplicated", board.duplicated())
                    .with("timeouts", timeouts).with("naks", naks).with("rnr_naks", rnr).with("resends", resends)
                    .with("duplicates_dropped", dropped).with("data_lost", env.network.dropped()).with("acks_lost", env.network.acksDropped())
                    .with("net_duplicated", env.network.duplicated()).with("net_reordered", env.network.reordered())
                    .with("net_corrupted", env.network.corrupted());
        }
    }

    /**
     * The applications: every {@value #SEND_INTERVAL} cycles each host submits a message to a random connection
     * (random length 8..MTU bytes), unless {@value #MAX_PENDING} are already waiting in its window layer.
     */
    static final class Traffic extends Component {
        private final List<WindowLayer> layers;
        private final ExactlyOnce board;
        private final long messages;
        private long nextId;

        Traffic(List<WindowLayer> layers, ExactlyOnce board, long messages) {
            super("traffic");
            this.layers = layers;
            this.board = board;
            this.messages = messages;
        }

        @Override
        protected void drive() {
            if (cycle() % SEND_INTERVAL != 0) {
                return;
            }
            for (int h = 0; h < layers.size() && nextId < messages; h++) {
                WindowLayer l = layers.get(h);
                if (l.pending() >= MAX_PENDING) {
                    continue;
                }
                int n = layers.size();
                int dest = (h + 1 + rng().nextInt(n - 1)) % n;
                int qps = l.host().params().qps();
                byte[] data = board.message(nextId++, 8 + rng().nextInt(XudFormat.MTU_BYTES - 7));
                l.send(rng().nextInt(qps), XudBoard.lidOf(dest), rng().nextInt(qps), data);
            }
        }

        boolean done() {
            return nextId == messages;
        }

        @Override
        public List<String> describeState() {
            return List.of("submitted " + nextId + " of " + messages + " messages");
        }
    }

    private static Map<String, String> options() {
        Options d = Options.defaults();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("loss", "probability a data packet is dropped (default " + d.faults().loss() + ")");
        m.put("ack-loss", "probability an ACK/NAK is dropped (default " + d.faults().ackLoss() + ")");
        m.put("dup", "probability a packet is duplicated (default " + d.faults().dup() + ")");
        m.put("reorder", "probability a packet is delayed past later ones (default " + d.faults().reorder() + ")");
        m.put("corrupt", "probability a packet gets one bit flipped (default " + d.faults().corrupt() + ")");
        m.put("messages", "messages to deliver (default " + d.messages() + ")");
        m.put("windows", "windows per connection (default " + d.windows() + ")");
        m.put("endpoints", "adapters (default " + d.endpoints() + ")");
        return java.util.Collections.unmodifiableMap(m);
    }
}
