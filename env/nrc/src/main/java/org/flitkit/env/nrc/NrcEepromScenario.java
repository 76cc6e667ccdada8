package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.stream.Throttle;

/**
 * E2PROM access through the chip: writes of 1 to 6 bytes at random addresses, then reads of the same
 * bytes plus erased ones, from ports near and far, answers checked against the reference; latency per
 * byte count kept (it must grow linearly). Spec: 20-th2-management.md, "NMA submodules" (eep_access).
 */
public final class NrcEepromScenario {
    /** Latency (cycles) of a write and a read of n = 1..6 bytes, index n - 1. */
    public record Latencies(long[] write, long[] read) {
    }

    private NrcEepromScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, Throttle.NONE)) {
            Latencies l = measure(env, env.tb.rng("eeprom"), RsGeometry.TH2.lastCol(), 6);
            linear(env, l.write, "write");
            linear(env, l.read, "read");
            measure(env, env.tb.rng("far"), 0, 3);
            env.tb.finish();
            return env.result();
        }
    }

    /** Writes then reads 1..maxBytes random bytes at random addresses through {@code port}. */
    public static Latencies measure(NrcEnv env, Rng rng, int port, int maxBytes) {
        return measure(env, rng, port, maxBytes, maxBytes);
    }

    /** For n = 1..maxBytes: writes n random bytes at random addresses (only while n <= maxWrite), then reads them. */
    public static Latencies measure(NrcEnv env, Rng rng, int port, int maxBytes, int maxWrite) {
        Latencies l = new Latencies(new long[maxWrite], new long[maxBytes]);
        for (int n = 1; n <= maxBytes; n++) {
            long[] wr = writeThenRead(env, rng, port, n, n <= maxWrite);
            if (n <= maxWrite) {
                l.write[n - 1] = wr[0];
            }
            l.read[n - 1] = wr[1];
        }
        return l;
    }

    /**
     * Writes {@code n} random bytes at distinct random addresses in one request through {@code port} (if
     * {@code write}), then reads those addresses in one request: the latencies {write (0 if none), read}.
     */
    public static long[] writeThenRead(NrcEnv env, Rng rng, int port, int n, boolean write) {
        List<Integer> addrs = new ArrayList<>();
        List<Integer> bytes = new ArrayList<>();
        while (addrs.size() < n) {
            int a = rng.nextInt(0x10000);
            if (!addrs.contains(a)) {
                addrs.add(a);
                bytes.add(rng.nextInt(256));
            }
        }
        long w = write ? one(env, port, Requests.eepromWrite(port, env.ref.chipId(), env.tid(), addrs, bytes)) : 0;
        return new long[] {w, one(env, port, Requests.eepromRead(port, env.ref.chipId(), env.tid(), addrs))};
    }

    private static long one(NrcEnv env, int port, ManagementPacket req) {
        env.submit(port, req);
        env.drain(100_000_000L);
        return env.latency(req.transactionId());
    }

    /**
     * Each extra byte costs exactly the same number of cycles: the I2C sequence per byte is fixed
     * (docs/th2-eeprom.md, "Measured figures": both grow linearly).
     */
    static void linear(NrcEnv env, long[] lat, String what) {
        long step = lat[1] - lat[0];
        for (int i = 2; i < lat.length; i++) {
            if (lat[i] - lat[i - 1] != step) {
                throw env.tb.fail("eeprom", what + " latency not linear in the byte count: byte " + (i + 1)
                        + " cost " + (lat[i] - lat[i - 1]) + " cycles, byte 2 cost " + step + ": " + java.util.Arrays.toString(lat));
            }
        }
    }
}
