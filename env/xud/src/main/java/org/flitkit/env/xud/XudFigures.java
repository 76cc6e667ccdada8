package org.flitkit.env.xud;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.flitkit.env.host.DmaParams;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Figure;
import org.flitkit.figures.FigureSource;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter.Origin;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Sweep;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.testbench.RunConfig;

/**
 * The XUD paper's figures on the model (sections 4.2 and 4.3): the window layer's memory per connection
 * (JOL, against ~2.8 KB and the ~22 KB of an RC QP) and what the window layer costs in minimum latency and
 * in bandwidth on one connection, with the model's clock taken as the paper's HCA clock, 781.25 MHz
 * (4 x 25 Gb/s link).
 */
public final class XudFigures implements FigureSource {
    public static final Citation PAPER = new Citation("XUD: 一种扩展的不可靠数据报传输服务 (XUD: an extended unreliable datagram "
            + "transport service)", "Section 4", "XUD paper");
    /** The paper's HCA clock: model cycles are converted to time at this rate. */
    public static final double HCA_MHZ = 781.25;
    /** Windows per connection in the paper's measurements. */
    public static final int WINDOWS = 32;
    /** Messages of the bandwidth runs (one connection, MTU-sized). */
    static final int BANDWIDTH_MESSAGES = 2_000;
    /** The adapters of the latency and bandwidth runs: receive queues deep enough that the bare run never meets an RNR NAK. */
    static final XudParams PARAMS = new XudParams(2, 512, 4_000, 2048, 1024, 4096, XudParams.DEFAULT_SEND_CQ_BASE,
            XudParams.DEFAULT_RECV_CQ_BASE);

    /** One message's latency and a stream's duration, without and with the window layer, in cycles. */
    public record Perf(long bareLatency, long windowLatency, long bareStream, long windowStream) {
    }

    private record Def(Figure figure, boolean needsPerf, Function<Perf, Measurement> measure) {
    }

    private final Map<String, Def> defs = new LinkedHashMap<>();

    public XudFigures() {
        String jol = "the verbs library's queue buffers, which the paper's measurement counts (section 4.2: queue buffers, send and "
                + "receive window tables); the model's value is the JOL object graph of its Java connection table (64-bit HotSpot, "
                + "compressed references): per connection a hash entry, the connection and four int/reference arrays of 32 entries";
        define(new Def(Figure.builder("xud-memory-per-connection", "window-layer memory per connection (32 windows, 1,024 connections)")
                .from(PAPER.at("Section 4.2, Table 4")).paper(PaperValue.of(2.8), "KB").notModelled(jol).build(), false,
                p -> Measurement.of("xud-memory-per-connection", XudMemory.bytesPerConnection(WINDOWS, 1_024) / 1024)));
        define(new Def(Figure.builder("xud-memory-vs-rc", "memory per connection / memory of one RC QP (~22 KB, ConnectX-4)")
                .from(PAPER.at("Section 4.2 and Section 1.2, Table 2")).paper(PaperValue.of(12), "%")
                .notModelled("the verbs library's queue buffers: the model's bytes per connection (only the window tables and the hash "
                        + "table) against the paper's measured 22 KB per RC QP").build(), false,
                p -> Measurement.of("xud-memory-vs-rc", 100 * XudMemory.bytesPerConnection(WINDOWS, 1_024) / XudMemory.RC_QP_BYTES)));
        define(new Def(Figure.builder("xud-window-latency", "minimum latency added by the window layer (one message, idle network)")
                .from(PAPER.at("Section 4.3, Table 5; Section 5 says ~0.05 us")).paper(PaperValue.of(0.03), "us")
                .notModelled("the host CPU's time in the verbs library (the paper's 0.03-0.05 us is taking a window, filling the XUDETH "
                        + "and the duplicate check on a 2.4 GHz host); the hardware path is the same with and without the window layer, so "
                        + "the model adds nothing").build(), true,
                p -> Measurement.of("xud-window-latency", (p.windowLatency() - p.bareLatency()) / HCA_MHZ)));
        define(new Def(Figure.builder("xud-window-bandwidth", "bandwidth lost to the window layer (one connection, 32-byte messages)")
                .from(PAPER.at("Section 4.3, Table 5")).paper(PaperValue.of(70), "MB/s")
                .notModelled("messages of the paper's MTU: one message in flight per window, 32 windows of one " + XudFormat.MTU_BYTES + "-byte message per round trip "
                        + "(network, ACK and the send CQE's host write) carry far less than the bare adapter streaming; with the paper's "
                        + "MTU-sized messages 32 windows keep the link busy, with the model's 32-byte MTU they cannot").build(), true,
                p -> Measurement.of("xud-window-bandwidth", mbPerS(p.bareStream()) - mbPerS(p.windowStream()))));
    }

    @Override
    public List<Parameter> parameters() {
        DmaParams d = DmaParams.defaults();
        return List.of(
                Parameter.of("HCA clock", HCA_MHZ, "MHz", Origin.PAPER, PAPER.at("Section 4").label() + ": the adapter's clock; model cycles are converted at it"),
                Parameter.of("MTU", XudFormat.MTU_BYTES, "bytes", Origin.ASSUMPTION, "one 32-byte message per packet; the paper's testbed MTU is larger (not modelled)"),
                Parameter.of("windows per connection", WINDOWS, "windows", Origin.PAPER, PAPER.at("Section 4.2, Table 4").label()),
                Parameter.of("host DMA read round trip", d.readRoundTripCycles(), "cycles", Origin.MEASUREMENT,
                        "about 0.5 us, within the 400-900 ns Neugebauer et al. measured on PCIe Gen3 hosts (SIGCOMM 2018)"),
                Parameter.of("host DMA posted write", d.writeLatencyCycles(), "cycles", Origin.DERIVED, "half the read round trip"),
                Parameter.of("send timeout", PARAMS.timeoutCycles(), "cycles", Origin.ASSUMPTION, "long enough for an ACK on the idle model network"),
                Parameter.of("host software time", 0, "ns", Origin.ASSUMPTION, "the verbs library's CPU time is not modelled (xud-window-latency says so)"));
    }

    @Override
    public String name() {
        return "xud";
    }

    private void define(Def d) {
        defs.put(d.figure().id(), d);
    }

    @Override
    public List<Figure> figures() {
        return defs.values().stream().map(Def::figure).toList();
    }

    @Override
    public Results measure(Set<String> ids, Executor executor) {
        List<Def> wanted = new ArrayList<>();
        for (String id : ids) {
            Def d = defs.get(id);
            if (d == null) {
                throw new IllegalArgumentException("no XUD figure " + id + "; XUD figures: " + defs.keySet());
            }
            wanted.add(d);
        }
        Perf perf = wanted.stream().anyMatch(Def::needsPerf)
                ? Sweep.join(CompletableFuture.supplyAsync(XudFigures::measurePerf, executor)) : null;
        return new Results(wanted.stream().map(d -> d.measure().apply(perf)).toList(), List.of());
    }

    /** MB/s of {@link #BANDWIDTH_MESSAGES} MTU-sized messages delivered in {@code cycles} at {@link #HCA_MHZ}. */
    static double mbPerS(long cycles) {
        return (double) BANDWIDTH_MESSAGES * XudFormat.MTU_BYTES / (cycles / HCA_MHZ);
    }

    /** The four runs on one pair of adapters over a perfect network: bare hardware first, then through the window layer. */
    public static Perf measurePerf() {
        XudParams p = PARAMS;
        try (XudEnv env = new XudEnv(RunConfig.of(RunConfig.DEFAULT_SEED, 0), 2, p, DmaParams.defaults(), Faults.NONE, XudEnv.psns(p, 0))) {
            HostEndpoint a = env.host(0);
            HostEndpoint b = env.host(1);
            long[] received = {0};
            HostEndpoint.Listener count = new HostEndpoint.Listener() {
                @Override
                public void onSend(HostEndpoint h, HostEndpoint.SendCompletion c) {
                }

                @Override
                public void onRecv(HostEndpoint h, HostEndpoint.RecvCompletion c) {
                    received[0]++;
                }
            };
            a.listener(count);
            b.listener(count);
            byte[] msg = new byte[XudFormat.MTU_BYTES];
            long bareLatency = timed(env, () -> a.postSend(0, b.lid(), 0, WindowLayer.Q_KEY, 0, 0, msg, 0), () -> received[0] == 1);
            long bareStream = timed(env, () -> {
                for (int i = 0; i < BANDWIDTH_MESSAGES; i++) {
                    a.postSend(0, b.lid(), 0, WindowLayer.Q_KEY, 0, 0, msg, i);
                }
            }, () -> received[0] == 1 + BANDWIDTH_MESSAGES);
            env.tb.run(2L * p.timeoutCycles()); // every timer of the bare runs expires on a completed slot

            long[] delivered = {0};
            WindowLayer.Delivery app = (at, from, window, data) -> delivered[0]++;
            WindowLayer wa = new WindowLayer(a, WINDOWS, app);
            new WindowLayer(b, WINDOWS, app);
            long windowLatency = timed(env, () -> wa.send(0, b.lid(), 0, msg), () -> delivered[0] == 1);
            long windowStream = timed(env, () -> {
                for (int i = 0; i < BANDWIDTH_MESSAGES; i++) {
                    wa.send(0, b.lid(), 0, msg);
                }
            }, () -> delivered[0] == 1 + BANDWIDTH_MESSAGES);
            return new Perf(bareLatency, windowLatency, bareStream, windowStream);
        }
    }

    /** Cycles from {@code start} to {@code done}, after letting the adapters go idle. */
    private static long timed(XudEnv env, Runnable start, BooleanSupplier done) {
        env.tb.run(1_000);
        start.run();
        return env.tb.runUntil("the measured messages", done, 1_000_000);
    }
}
