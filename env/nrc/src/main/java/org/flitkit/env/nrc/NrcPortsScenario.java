package org.flitkit.env.nrc;

import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.stream.Throttle;

/**
 * Register access from every one of the 24 ports, one request at a time: 1- and 2-register writes and
 * reads (the port's own BIST_CTRL and SCRATCH0), its identity and neighbour words; every answer checked
 * against the reference, latencies kept by port: from the nearest ports 90 cycles for a read (91 for two
 * registers), 89 for a write of one or two (answered on acceptance), and two more per relay station further away, as docs/th2-nrc.md states. Spec: 20-th2-management.md; docs/th2-nrc.md "Relay-station geometry".
 */
public final class NrcPortsScenario {
    /** In-chip latency by port, cycles from the request's first flit offered to the answer's last flit. */
    public record Latencies(long[] read1, long[] write1, long[] read2, long[] write2) {
    }

    /** In-chip latency of a one-register read from a port next to the NMA (docs/th2-nrc.md). */
    public static final long NEAREST_ONE_REGISTER = 90;
    /** In-chip latency of a one- or two-register write from a port next to the NMA: answered on acceptance. */
    public static final long NEAREST_WRITE = 89;
    private static final List<String> KINDS = List.of("1-register read", "1-register write", "2-register read", "2-register write");

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
        int n = RsGeometry.TH2.ports();
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

    /**
     * The latencies of docs/th2-nrc.md, "Latency by port": from a port next to the NMA, 90 cycles for a
     * one-register read, 91 for two, 89 for a write of one or two registers (answered when reg_access accepts
     * it, before its register writes); each relay station further away adds one cycle in and one out.
     */
    static void check(NrcEnv env, Latencies l) {
        List<long[]> kinds = List.of(l.read1, l.write1, l.read2, l.write2);
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            long extra = 2L * (RsGeometry.TH2.hopsToNma(p) - 1);
            for (int k = 0; k < kinds.size(); k++) {
                long expected = (k == 0 ? NEAREST_ONE_REGISTER : k == 2 ? NEAREST_ONE_REGISTER + 1 : NEAREST_WRITE) + extra;
                if (kinds.get(k)[p] != expected) {
                    throw env.tb.fail("latency", KINDS.get(k) + " from port " + p + " answered in "
                            + kinds.get(k)[p] + " cycles, expected " + expected + " (" + RsGeometry.TH2.hopsToNma(p)
                            + " relay stations each way)");
                }
            }
        }
    }
}
