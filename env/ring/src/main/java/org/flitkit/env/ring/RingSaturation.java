package org.flitkit.env.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flitkit.env.ring.topo.Capacity;
import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.RingSchedule;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.ring.Offer;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.rtl.ring.RingParams;
import org.flitkit.rtl.ring.MultiRingNetwork;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;

/**
 * Runs the multi-ring RTL (slotted or register-insertion) with every subscriber sending to uniform destinations, saturated or at a given
 * offered load, and measures what it delivers per cycle, per ring and in total, the slots each ring keeps full and
 * the mean delivery time, against the schedule's analytic capacity (docs/multiring.md, "Measured saturation against C").
 */
public final class RingSaturation {
    /** Cycles before the measurement window: rings and station queues reach their steady state. */
    public static final int WARMUP = 1_000;

    /** What one run measured, beside what the schedule predicts. */
    public record Measured(Capacity analytic, RingKind kind, long window, long delivered, long[] perRing, long[] busySlots, double meanDelivery,
            long sent, ScenarioResult result) {
        public double throughput() {
            return (double) delivered / window;
        }

        public double ringThroughput(int ring) {
            return (double) perRing[ring] / window;
        }

        /** Mean fraction of ring j's N slots that are full. */
        public double utilization(int ring) {
            return (double) busySlots[ring] / window / analytic.schedule().rings().nodes();
        }

        /** Measured total over the effective capacity C. */
        public double ratio() {
            return throughput() / analytic.effective();
        }
    }

    private RingSaturation() {
    }

    /**
     * Runs {@code config.cycles()} measured cycles after {@link #WARMUP}; {@code load} < 0 saturates, else each node
     * offers {@code load} packets per cycle. Then sources stop and every packet sent must arrive (scoreboard).
     */
    public static Measured run(RingSchedule schedule, RingKind kind, double load, int queueDepth, RunConfig config) {
        MultiRing m = schedule.rings();
        int n = m.nodes();
        RingParams p = new RingParams(RingParams.forNodes(n).nodeBits(), 16, queueDepth);
        long[][] table = SelectionTable.thresholds(schedule);
        int[] steps = SelectionTable.steps(m);
        try (Testbench<MultiRingNetwork> tb = Testbench.create(() -> new MultiRingNetwork(p, kind, n, steps, table), config)) {
            MultiRingNetwork dut = tb.dut();
            OutOfOrderScoreboard<Long, RingPacket> board = new OutOfOrderScoreboard<>("scoreboard", RingPacket::key);
            DeliveryTimes times = new DeliveryTimes();
            List<OfferSource> sources = new ArrayList<>();
            for (int x = 0; x < n; x++) {
                List<Decoupled<Offer>> lanes = dut.offer.asList().subList(x * m.rings(), (x + 1) * m.rings());
                sources.add(tb.add(new OfferSource("source" + x, lanes, x, n, load, board, times)));
            }
            DeliveryMonitor monitor = tb.add(new DeliveryMonitor("deliveries", dut.eject, dut.busy, n, m.rings(), board, times));
            tb.add(board);
            tb.reset(2);
            tb.run(WARMUP);
            monitor.measure(true);
            tb.run(config.cycles());
            monitor.measure(false);
            sources.forEach(OfferSource::stop);
            tb.runUntil("every packet sent to arrive", board::isEmpty, 100L * n * (queueDepth + 1) + 10_000);
            tb.finish();
            long delivered = 0;
            for (long d : monitor.perRing) {
                delivered += d;
            }
            long sent = sources.stream().mapToLong(OfferSource::sent).sum();
            return new Measured(schedule.capacity(), kind, monitor.windowCycles(), delivered, monitor.perRing.clone(), monitor.busySlots.clone(),
                    times.mean(), sent, tb.result());
        }
    }

    /** The table of a run: per ring analytic and measured throughput and slot use, then the totals. */
    public static List<String> report(Measured r) {
        Capacity c = r.analytic();
        MultiRing m = c.schedule().rings();
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "N=%d %s, %s rings, %s schedule, %d measured cycles after %d of warm-up", m.nodes(), m.label(),
                r.kind() == RingKind.SLOTTED ? "slotted" : "register-insertion", c.schedule().name(), r.window(), WARMUP));
        out.add(String.format(Locale.ROOT, "%-6s %12s %12s %12s %12s", "ring", "pkt/cyc C", "pkt/cyc RTL", "slots L/Lmax", "slots RTL"));
        for (int j = 0; j < m.rings(); j++) {
            out.add(String.format(Locale.ROOT, "%-6s %12.4f %12.4f %12.4f %12.4f", m.ringName(j), c.ringThroughputAtCapacity(j),
                    r.ringThroughput(j), c.loads()[j] / c.maxLoad(), r.utilization(j)));
        }
        out.add(String.format(Locale.ROOT, "total: analytic C=%.4f  measured=%.4f  measured/C=%.4f  naive sum=%.4f  mean delivery=%.2f cycles",
                c.effective(), r.throughput(), r.ratio(), c.naiveSum(), r.meanDelivery()));
        return out;
    }
}
