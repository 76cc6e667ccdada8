package org.flitkit.env.mnc;

import java.util.List;
import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.testbench.ProgressListener;
import org.flitkit.testbench.RunConfig;

/**
 * Measurement runs on the platform (multi-rail paper, section 3): a stream of equal messages between two
 * nodes for bandwidth, one message on an idle system for latency, and several flows at once for the
 * link-sharing and policy figures. Everything is timed in model cycles and converted with the platform clock.
 */
public final class MncMeasurements {
    /** Messages a sending process keeps posted in a bandwidth stream (GM send tokens). */
    public static final int WINDOW = 8;

    private final ProgressListener progress;

    /** Runs that report their cycles to {@code progress} (null: to nobody). */
    public MncMeasurements(ProgressListener progress) {
        this.progress = progress;
    }

    private RunConfig cfg() {
        return RunConfig.of(RunConfig.DEFAULT_SEED, 0).withProgress(progress);
    }

    /** One flow of traffic: {@code messages} messages of {@code bytes} from {@code src} to {@code dst} on {@code port}. */
    public record Flow(int src, int dst, int port, int bytes, int messages) {
    }

    /** MB/s of each flow, all flows running at once, each from its first post to its last delivery. */
    public double[] bandwidth(MncParams p, Platform platform, int nodes, List<Flow> flows) {
        try (MncEnv env = new MncEnv(cfg(), nodes, p, platform)) {
            int n = flows.size();
            long[] delivered = new long[n];
            long[] first = new long[n];
            long[] last = new long[n];
            int[] posted = new int[n];
            for (MncHost h : env.hosts()) {
                for (Flow f : flows) {
                    h.open(f.port());
                }
                h.listener((at, src, port, seq, data) -> {
                    for (int i = 0; i < n; i++) {
                        Flow f = flows.get(i);
                        if (f.src() == src && f.dst() == at.node() && f.port() == port) {
                            delivered[i]++;
                            last[i] = env.tb.cycle();
                        }
                    }
                });
            }
            env.tb.add(new org.flitkit.testbench.Component("bench") {
                @Override
                protected void drive() {
                    for (int i = 0; i < n; i++) {
                        Flow f = flows.get(i);
                        MncHost h = env.host(f.src());
                        while (posted[i] < f.messages() && posted[i] - delivered[i] < WINDOW) {
                            if (posted[i] == 0) {
                                first[i] = cycle();
                            }
                            h.send(f.port(), f.dst(), new byte[f.bytes()], null);
                            posted[i]++;
                        }
                    }
                }
            });
            env.tb.runUntil("every flow delivered", () -> {
                for (int i = 0; i < n; i++) {
                    if (delivered[i] < flows.get(i).messages()) {
                        return false;
                    }
                }
                return true;
            }, 2_000_000_000L);
            double[] mbps = new double[n];
            for (int i = 0; i < n; i++) {
                Flow f = flows.get(i);
                double us = platform.ns(last[i] - first[i]) / 1_000;
                mbps[i] = (double) f.bytes() * f.messages() / us;
            }
            return mbps;
        }
    }

    /** One-way latency in us of one message of {@code bytes} from node 0 to node 1, system idle. */
    public double latencyUs(MncParams p, Platform platform, int bytes) {
        try (MncEnv env = new MncEnv(cfg(), 2, p, platform)) {
            long[] at = {-1};
            env.host(0).open(0);
            env.host(1).open(0).listener((h, src, port, seq, data) -> at[0] = env.tb.cycle());
            env.tb.run(10);
            long t0 = env.tb.cycle();
            env.host(0).send(0, 1, new byte[bytes], null);
            env.tb.runUntil("the message delivered", () -> at[0] >= 0, 100_000_000L);
            return platform.ns(at[0] - t0) / 1_000;
        }
    }
}
