package org.flitkit.env.nrc;

import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.testbench.stream.Throttle;

/**
 * Register access from every one of the 24 ports, one request at a time: 1- and 2-register writes and
 * reads (the port's own BIST_CTRL and SCRATCH0), its identity and neighbour words; every answer checked
 * against the reference, latencies kept by port. A far port must answer later than a near one, by two
 * cycles per relay station. Spec: 20-th2-management.md; docs/th2-nrc.md "Relay-station geometry".
 */
public final class NrcPortsScenario {
    /** In-chip latency by port, cycles from the request's first flit offered to the answer's last flit. */
    public record Latencies(long[] read1, long[] write1, long[] read2, long[] write2) {
    }

    private NrcPortsScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, Throttle.NONE)) {
            Latencies l = measure(env, env.tb.rng("values"));
            check(env, l);
            env.tb.finish();
            return env.result();
        }
    }

    /** Runs the per-port sequence on an environment and returns the latencies. */
    public static Latencies measure(NrcEnv env, Rng rng) {
        int n = RsGeometry.PORTS;
        Latencies l = new Latencies(new long[n], new long[n], new long[n], new long[n]);
        for (int p = 0; p < n; p++) {
            int ctrl = NmaRegisters.PORT_BASE + p * NmaRegisters.PORT_STRIDE + 8;
            int scratch = 0x008;
            int id = env.ref.chipId();
            l.write1[p] = one(env, p, Requests.write(p, id, env.tid(), List.of(ctrl), List.of(rng.nextLong())));
            l.read1[p] = one(env, p, Requests.read(p, id, env.tid(), List.of(ctrl)));
            l.write2[p] = one(env, p, Requests.write(p, id, env.tid(), List.of(ctrl, scratch), List.of(rng.nextLong(), rng.nextLong())));
            l.read2[p] = one(env, p, Requests.read(p, id, env.tid(), List.of(ctrl, scratch)));
            one(env, p, Requests.read(p, id, env.tid(), List.of(ctrl - 8, ctrl - 7)));
        }
        return l;
    }

    private static long one(NrcEnv env, int port, org.flitkit.formats.th2.ManagementPacket req) {
        env.submit(port, req);
        env.drain(5_000);
        return env.latency(req.transactionId());
    }

    /** Each relay station on the way costs one cycle in and one out; ports in the same column agree. */
    static void check(NrcEnv env, Latencies l) {
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            int near = RsGeometry.port(RsGeometry.row(p), RsGeometry.LAST_COL);
            long extra = 2L * (RsGeometry.hopsToNma(p) - 1);
            for (long[] k : List.of(l.read1, l.write1, l.read2, l.write2)) {
                if (k[p] != k[near] + extra) {
                    throw new TestbenchFailure(env.tb.cycle(), "latency", "port " + p + " answered in " + k[p]
                            + " cycles; port " + near + " in " + k[near] + ", expected +" + extra, env.tb.seed());
                }
            }
        }
    }
}
