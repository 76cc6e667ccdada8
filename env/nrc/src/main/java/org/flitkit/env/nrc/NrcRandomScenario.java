package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.stream.Throttle;

/**
 * Requests arriving on many ports at once with random timing: each port's driver sends a random mix
 * (1- and 2-register reads of any predictable register, writes of its own BIST_CTRL, unmapped and
 * read-only accesses, now and then an E2PROM access in its own 16-byte slice) with random gaps and up
 * to 3 requests outstanding, under random backpressure on every output. Every answer is checked
 * against the reference; none may be lost (scoreboard empty at the end) or duplicated (an answer with
 * nothing outstanding fails). Ports touch disjoint writable state, so the reference is exact whatever
 * order the NMA serves them in. Spec: 20-th2-management.md; docs/th2-nrc.md.
 */
public final class NrcRandomScenario {
    /** The counts of the PASS line. */
    public static final java.util.Map<String, String> COUNTS = ScenarioResult.legend(
            "answers", NrcEnv.COUNTS.get("answers"),
            "reports", NrcEnv.COUNTS.get("reports"),
            "requests", "random requests sent, over all ports",
            "ports", "ports sending at once",
            "max_per_port", "requests sent by the busiest port");

    static final int OUTSTANDING = 3;
    static final double GAP = 0.97;
    static final double EEPROM = 0.04;

    private NrcRandomScenario() {
    }

    /** One port's management traffic. */
    static final class PortDriver extends Component {
        private final NrcEnv env;
        private final int port;
        private final List<Integer> readable;
        private final List<Integer> outstanding = new ArrayList<>();
        boolean running = true;
        long sent;

        PortDriver(NrcEnv env, int port, List<Integer> readable) {
            super("driver" + port);
            this.env = env;
            this.port = port;
            this.readable = readable;
        }

        @Override
        protected void drive() {
            outstanding.removeIf(t -> env.latency.containsKey(t));
            if (!running || outstanding.size() >= OUTSTANDING || rng().chance(GAP)) {
                return;
            }
            ManagementPacket req = next(rng());
            env.submit(port, req);
            outstanding.add(req.transactionId());
            sent++;
        }

        private ManagementPacket next(Rng r) {
            int tid = env.tid();
            int own = NmaRegisters.PORT_BASE + port * NmaRegisters.PORT_STRIDE + 8;
            if (r.chance(EEPROM)) {
                int n = 1 + r.nextInt(2);
                List<Integer> a = new ArrayList<>();
                List<Integer> b = new ArrayList<>();
                while (a.size() < n) {
                    int x = port * 16 + r.nextInt(16);
                    if (!a.contains(x)) {
                        a.add(x);
                        b.add(r.nextInt(256));
                    }
                }
                return r.nextBoolean() ? Requests.eepromWrite(port, 0xFFFF, tid, a, b) : Requests.eepromRead(port, 0xFFFF, tid, a);
            }
            int kind = r.nextInt(10);
            int count = 1 + r.nextInt(2);
            List<Integer> a = new ArrayList<>();
            List<Long> v = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (kind < 6) {
                    a.add(r.chance(0.1) ? 0x7000 + r.nextInt(0x1000) : readable.get(r.nextInt(readable.size())));
                } else {
                    a.add(r.chance(0.1) ? NmaRegisters.PORT_BASE + 1 : own);
                    v.add(r.nextLong());
                }
            }
            if (count == 2 && a.get(0).equals(a.get(1))) {
                a.remove(1);
                if (!v.isEmpty()) {
                    v.remove(1);
                }
            }
            return kind < 6 ? Requests.read(port, 0xFFFF, tid, a) : Requests.write(port, 0xFFFF, tid, a, v);
        }
    }

    public static ScenarioResult run(RunConfig cfg) {
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, Throttle.busy(0.3))) {
            List<Integer> readable = new ArrayList<>();
            for (RegDef d : env.ref.registers()) {
                if (env.ref.predictable(d.addr()) && !(d.name().startsWith("PORT") && d.name().endsWith("BIST_CTRL"))) {
                    readable.add(d.addr());
                }
            }
            readable.sort(null);
            List<PortDriver> drivers = new ArrayList<>();
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                drivers.add(env.tb.add(new PortDriver(env, p, readable)));
            }
            env.tb.run(cfg.cycles());
            drivers.forEach(d -> d.running = false);
            env.drain(2_000_000);
            env.tb.finish();
            long sent = drivers.stream().mapToLong(d -> d.sent).sum();
            long busiest = drivers.stream().mapToLong(d -> d.sent).max().orElse(0);
            return env.result().with("requests", sent).with("ports", RsGeometry.TH2.ports()).with("max_per_port", busiest);
        }
    }
}
