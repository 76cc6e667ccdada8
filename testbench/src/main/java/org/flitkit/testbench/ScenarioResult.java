package org.flitkit.testbench;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.hdl.sim.CompileStats;

/**
 * What a passing run reports: cycles simulated, wall time (simulation and build separately), the
 * testbench's own counts ({@code flits=1234}) in insertion order, and where the waves went.
 */
public record ScenarioResult(long cycles, double simSeconds, double buildSeconds, CompileStats compile, Path vcd, Path gtkw,
                          Map<String, Long> counts) {
    public ScenarioResult {
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }

    /** This result with one more count. */
    public ScenarioResult with(String name, long value) {
        Map<String, Long> m = new LinkedHashMap<>(counts);
        m.put(name, value);
        return new ScenarioResult(cycles, simSeconds, buildSeconds, compile, vcd, gtkw, m);
    }

    /**
     * Names with their meanings, in order: {@code legend("flits", "flits matched by the scoreboard", ...)}, name then
     * meaning. A scenario's legend of its counts and its own options, which {@code ./hdl run NAME --help} lists.
     */
    public static Map<String, String> legend(String... nameThenMeaning) {
        if (nameThenMeaning.length % 2 != 0) {
            throw new IllegalArgumentException("a legend is pairs of count name and meaning, got " + nameThenMeaning.length + " strings");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenMeaning.length; i += 2) {
            if (m.put(nameThenMeaning[i], nameThenMeaning[i + 1]) != null) {
                throw new IllegalArgumentException("count " + nameThenMeaning[i] + " twice in a legend");
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /** Simulated cycles per wall-clock second of simulation. */
    public double cyclesPerSecond() {
        return simSeconds > 0 ? cycles / simSeconds : 0;
    }
}
