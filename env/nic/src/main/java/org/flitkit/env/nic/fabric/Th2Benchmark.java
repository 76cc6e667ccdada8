package org.flitkit.env.nic.fabric;

import java.io.PrintStream;
import java.util.Locale;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nrc.benchmark.NrcChipBenchmark;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.RunConfig;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.rtl.nma.EepParams;

/**
 * The TH-2 machine benchmarks of {@code ./hdl bench}: {@code th2-idle}, the machine of whole chips ({@link Th2Machine})
 * built, powered up until every link is trained and idle, then left idle (chip counts, build seconds, heap, state
 * bytes per chip type, power-up, idle cycles); {@code th2-request}, one management request from the server's NIC
 * across H NRCs and back. Figures as {@code key=value}. docs/th2-fabric.md.
 */
public final class Th2Benchmark {
    private Th2Benchmark() {
    }

    /** {@code cabinets} compute cabinets (143: the whole machine), {@code cycles} idle cycles; returns 0 (failures throw). */
    public static int idle(int cabinets, long cycles, int threads, PrintStream out) {
        Runtime rt = Runtime.getRuntime();
        header(out, "th2-idle --cabinets " + cabinets, threads);
        Th2FatTree tree = new Th2FatTree(cabinets);
        out.printf(Locale.ROOT, "machine: compute_cabinets=%d bottom_switches=%d leaf_switches=%d root_switches=%d leaf_cabinets=%d root_cabinets=%d"
                + " nrcs=%d nics=%d nrc_cables=%d%n", cabinets, tree.bottomSwitches(), tree.leafSwitches(), tree.rootSwitches(), tree.leafCabinets(),
                tree.rootCabinets(), tree.nrcs().size(), tree.nodes().size(), tree.cables().size());
        long t0 = System.nanoTime();
        Th2Machine.Protos protos = new Th2Machine.Protos(EepParams.DEFAULT);
        try (Th2Machine m = new Th2Machine(tree, protos, threads, false)) {
            double build = (System.nanoTime() - t0) / 1e9;
            System.gc();
            long heap = rt.totalMemory() - rt.freeMemory();
            out.printf(Locale.ROOT, "build: seconds=%.1f (compile %.1f, boot %.1f, fork and wire %.1f) heap_mb=%.0f%n", build, m.compileSeconds,
                    m.bootSeconds, m.forkSeconds, heap / 1048576.0);
            out.printf(Locale.ROOT, "state: nrc_bytes=%d nrc_shared_memory_bytes=%d nic_bytes=%d nic_shared_memory_bytes=%d%n", m.nrcStateBytes,
                    m.nrcSharedBytes, m.nicStateBytes, m.nicSharedBytes);
            long t1 = System.nanoTime();
            long e0 = m.fabric.chipEvaluations();
            long settle = m.runUntilSettled(100_000);
            double powerUp = (System.nanoTime() - t1) / 1e9;
            long up = m.linksUp();
            out.printf(Locale.ROOT, "power_up: cycles=%d seconds=%.1f chip_evaluations=%d links_up=%d of %d%n", settle, powerUp,
                    m.fabric.chipEvaluations() - e0, up, m.cableEnds());
            if (up != m.cableEnds()) {
                throw new IllegalStateException("only " + up + " of " + m.cableEnds() + " cable ends came up");
            }
            long e1 = m.fabric.chipEvaluations();
            long p1 = m.fabric.processedCycles();
            long t2 = System.nanoTime();
            m.fabric.run(cycles);
            double idle = (System.nanoTime() - t2) / 1e9;
            long period = org.flitkit.rtl.link.LinkParams.defaults().identPeriod();
            long ticks = m.fabric.now() / period - (m.fabric.now() - cycles) / period;
            out.printf(Locale.ROOT, "idle: cycles=%d seconds=%.3f chip_evaluations=%d processed_cycles=%d identity_ticks=%d (every %d cycles)%n",
                    cycles, idle, m.fabric.chipEvaluations() - e1, m.fabric.processedCycles() - p1, ticks, period);
            // a whole period of the links' identity clocks: one tick of each (IDENT frames and two rounds of credit
            // counts on every link) wakes every chip
            long e2 = m.fabric.chipEvaluations();
            long p2 = m.fabric.processedCycles();
            long t3 = System.nanoTime();
            m.fabric.run(period);
            out.printf(Locale.ROOT, "identity_period: cycles=%d seconds=%.3f chip_evaluations=%d processed_cycles=%d%n", period,
                    (System.nanoTime() - t3) / 1e9, m.fabric.chipEvaluations() - e2, m.fabric.processedCycles() - p2);
        }
        return 0;
    }

    /**
     * {@code ./hdl bench th2-request --hops H}: the machine with the management server's NIC on node 0, powered up;
     * one register read (CHIP_ID) of an NRC H NRCs away on the shortest path, source-routed there and back, polled
     * by the server's software. Prints the cycles, the wall time per cycle and, against it, one whole NRC alone
     * ({@code nrc-chip}: all 24 ports busy) per cycle.
     */
    public static int request(int cabinets, int hops, int threads, PrintStream out) {
        header(out, "th2-request --cabinets " + cabinets + " --hops " + hops, threads);
        Th2FatTree tree = new Th2FatTree(cabinets);
        Th2FatTree.Route route = tree.routeFromNode(0, hops);
        long t0 = System.nanoTime();
        Th2Machine.Protos protos = new Th2Machine.Protos(EepParams.DEFAULT);
        try (Th2Machine m = new Th2Machine(tree, protos, threads, false, 0); ServerNic server = new ServerNic(m, RunConfig.of(1, 0))) {
            out.printf(Locale.ROOT, "build: seconds=%.1f nrcs=%d nics=%d%n", (System.nanoTime() - t0) / 1e9, m.nrcs.length, m.nics.length);
            long t1 = System.nanoTime();
            long c0 = m.fabric.now();
            // the server's link first (cheap to watch), then every link of the machine (a read of every chip)
            m.fabric.runUntil(server::linkUp, 2_000);
            while (m.linksUp() != m.cableEnds()) {
                if (m.fabric.now() - c0 >= 2_000) {
                    throw new IllegalStateException("only " + m.linksUp() + " of " + m.cableEnds() + " cable ends came up");
                }
                m.fabric.run(10);
            }
            out.printf(Locale.ROOT, "power_up: cycles=%d seconds=%.1f links_up=%d of %d%n", m.fabric.now() - c0, (System.nanoTime() - t1) / 1e9,
                    m.linksUp(), m.cableEnds());
            // let the power-up settle: only the server, its NRC and what a request wakes stay awake
            m.fabric.run(200);
            int target = route.target();
            long e0 = m.fabric.chipEvaluations();
            long t2 = System.nanoTime();
            ServerNic.Answer a = server.readRegister(route, 0x000, 10, 200_000);
            double wall = (System.nanoTime() - t2) / 1e9;
            long cycles = a.cycles();
            if (!(a.result() instanceof MgmtResult.Ok ok)) {
                throw new IllegalStateException("NRC " + target + " answered " + a.result());
            }
            long id = ((RegisterPayload) ok.response().payload()).data().get(0);
            if (id != Th2Machine.NRC_ID_BASE + target) {
                throw new IllegalStateException("NRC " + target + " read CHIP_ID 0x" + Long.toHexString(id));
            }
            out.printf(Locale.ROOT, "request: target_nrc=%d hops=%d chip_id=0x%x cycles=%d seconds=%.3f us_per_cycle=%.1f chip_evaluations=%d%n",
                    target, hops, id, cycles, wall, wall * 1e6 / cycles, m.fabric.chipEvaluations() - e0);
            double one = oneChipMicrosPerCycle();
            out.printf(Locale.ROOT, "one_chip: us_per_cycle=%.1f (nrc-chip: the whole NRC, all 24 ports busy) ratio=%.2f%n", one, wall * 1e6 / cycles / one);
        }
        return 0;
    }

    /** The first line: the command and the machine it runs on. */
    private static void header(PrintStream out, String command, int threads) {
        Runtime rt = Runtime.getRuntime();
        out.println("bench " + command + " (" + rt.availableProcessors() + " cores, " + threads + " thread" + (threads == 1 ? "" : "s")
                + ", max heap " + rt.maxMemory() / (1 << 20) + " MB, " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ")");
    }

    /** Wall time per cycle of one whole NRC alone under load (the nrc-chip benchmark design), warmed up. */
    private static double oneChipMicrosPerCycle() {
        Simulator sim = Simulator.of(NrcChipBenchmark::new);
        sim.reset();
        sim.step(15_000);
        long t = System.nanoTime();
        sim.step(10_000);
        return (System.nanoTime() - t) / 1e3 / 10_000;
    }
}
