package org.flitkit.env.ring;

import org.flitkit.testbench.ScenarioOptions;

import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.RingSchedule;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;

/**
 * {@code ./hdl run ring-saturation --nodes N --steps LIST [--schedule S] [--kind K] [--load X] [--queue D]}: the multi-ring
 * RTL at saturation (or at offered load X packets per node per cycle), measured against C (docs/multiring.md).
 */
public final class RingSaturationScenario {
    public static final long DEFAULT_CYCLES = 4_000;
    public static final Map<String, String> OPTIONS = options();
    /** What the PASS line counts (for {@code ./hdl run ring-saturation --help}). */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "sent", "packets the stations put on the rings",
            "delivered_in_window", "packets removed at their destination inside the measured window",
            "throughput_per_mille_of_C", "delivered per cycle in the window, per mille of the analytic capacity C = N(N-1)/L_max");

    private static Map<String, String> options() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("nodes", "nodes on every ring (default 16)");
        o.put("steps", "ring steps, 1,3 = duplex pairs +-1,+-3 (default 1,3)");
        o.put("schedule", "shortest or balanced (default shortest)");
        o.put("load", "packets offered per node per cycle, or 'saturation' (default)");
        o.put("kind", "slotted or insertion (register-insertion) rings (default slotted)");
        o.put("queue", "station queue depth per ring (default 16)");
        return o;
    }

    /** The run's settings, checked. */
    public record Options(RingSchedule schedule, RingKind kind, double load, int queue) {
        public static Options parse(Map<String, String> v) {
            int nodes = ScenarioOptions.smallInteger(v, "nodes", 16);
            MultiRing m = MultiRing.parse(nodes, v.getOrDefault("steps", "1,3"));
            if (nodes > 256) {
                throw new IllegalArgumentException("--nodes must be at most 256 for the RTL, got " + nodes);
            }
            String l = v.getOrDefault("load", "saturation");
            double load = l.equals("saturation") ? -1 : ScenarioOptions.number(v, "load", -1);
            if (load != -1 && !(load > 0 && load <= 1)) {
                throw new IllegalArgumentException("--load must be in (0, 1] packets per node per cycle, got " + l);
            }
            int queue = ScenarioOptions.smallInteger(v, "queue", 16);
            if (queue < 1 || queue > 1024) {
                throw new IllegalArgumentException("--queue must be in 1..1024, got " + queue);
            }
            return new Options(RingSchedule.named(v.getOrDefault("schedule", "shortest"), m), RingKind.named(v.getOrDefault("kind", "slotted")), load,
                    queue);
        }
    }

    private RingSaturationScenario() {
    }

    public static ScenarioResult run(RunConfig cfg, Options o) {
        return result(measure(cfg, o, System.out));
    }

    /** Runs the RTL and prints its table to {@code out} (a sweep point's log); {@link #result} gives the PASS counts. */
    public static RingSaturation.Measured measure(RunConfig cfg, Options o, java.io.PrintStream out) {
        RingSaturation.Measured r = RingSaturation.run(o.schedule(), o.kind(), o.load(), o.queue(), cfg);
        RingSaturation.report(r).forEach(out::println);
        return r;
    }

    /** The run's result with the counts of {@link #COUNTS}. */
    public static ScenarioResult result(RingSaturation.Measured r) {
        return r.result().with("sent", r.sent()).with("delivered_in_window", r.delivered())
                .with("throughput_per_mille_of_C", Math.round(1000 * r.ratio()));
    }
}
