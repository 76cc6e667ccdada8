package org.flitkit.env.ring;

import org.flitkit.testbench.ScenarioOptions;

import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.env.ring.topo.DesignExistence;
import org.flitkit.env.ring.topo.QuasiCompleteDigraph;
import org.flitkit.env.ring.topo.SwitchGraph;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;

/**
 * {@code ./hdl run dfs-permutation [--m M] [--a A] [--flits F] [--rounds R] [--traffic permutation|random]}: the
 * distributed full switch on the quasi-complete digraph or on a block design, one packet per subscriber per round (docs/multiring.md, "Distributed full switch").
 */
public final class DfsScenario {
    public static final Map<String, String> OPTIONS = options();
    /** What the PASS line counts (for {@code ./hdl run dfs-permutation --help}). */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "delivered", "packets the scoreboard matched at their destination (one per subscriber per round)",
            "blocked", "pilot cycles spent waiting for an output another path held, summed over the switches (0: no blocking)");

    private static Map<String, String> options() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("m", "switch size m: N = m^2 subscribers and switches on the digraph (default 4)");
        o.put("a", "build on the block design B(m(m-1)/a+1, m, a) instead of the digraph (it must be constructed)");
        o.put("flits", "flits per packet, the pilot included (default 8)");
        o.put("rounds", "rounds, one packet per subscriber each (default 50)");
        o.put("traffic", "permutation or random destinations (default permutation)");
        return o;
    }

    private DfsScenario() {
    }

    /** The scenario for these option values (name without dashes -> text). */
    public static org.flitkit.testbench.Scenario of(Map<String, String> v) {
        int m = ScenarioOptions.smallInteger(v, "m", 4);
        int flits = ScenarioOptions.smallInteger(v, "flits", 8);
        int rounds = ScenarioOptions.smallInteger(v, "rounds", 50);
        String traffic = v.getOrDefault("traffic", "permutation");
        if (!traffic.equals("permutation") && !traffic.equals("random")) {
            throw new IllegalArgumentException("--traffic must be permutation or random, got '" + traffic + "'");
        }
        SwitchGraph g;
        if (v.containsKey("a")) {
            DesignExistence.Verdict d = DesignExistence.of(m, ScenarioOptions.smallInteger(v, "a", 1));
            if (d.status() != DesignExistence.Answer.CONSTRUCTED) {
                throw new IllegalArgumentException("B(" + d.points() + "," + m + "," + d.lambda() + ") is not constructed: " + d.reason());
            }
            g = d.design();
        } else {
            if (m < 2 || m > 8) {
                throw new IllegalArgumentException("--m must be in 2..8 (N = m^2 subscribers), got " + m);
            }
            g = new QuasiCompleteDigraph(m);
        }
        boolean permutation = traffic.equals("permutation");
        return cfg -> run(cfg, g, flits, rounds, permutation);
    }

    static ScenarioResult run(RunConfig cfg, SwitchGraph g, int flits, int rounds, boolean permutation) {
        DfsRounds.Measured r = DfsRounds.run(g, flits, rounds, permutation, cfg);
        r.report().forEach(System.out::println);
        return r.result();
    }
}
