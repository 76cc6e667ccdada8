package org.flitkit.env.nic.fabric;

import java.io.PrintStream;
import java.util.Locale;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.rtl.nma.EepParams;

/**
 * {@code ./hdl bench th2-idle}: the TH-2 machine of whole chips ({@link Th2Machine}) built, powered up until every
 * link is trained and idle, then left idle. Prints the chip counts, build seconds, heap, state bytes per chip type,
 * the power-up and the idle cycles as {@code key=value}. docs/th2-fabric.md.
 */
public final class Th2Benchmark {
    private Th2Benchmark() {
    }

    /** {@code cabinets} compute cabinets (143: the whole machine), {@code cycles} idle cycles; returns 0 (failures throw). */
    public static int idle(int cabinets, long cycles, int threads, PrintStream out) {
        Runtime rt = Runtime.getRuntime();
        out.println("bench th2-idle --cabinets " + cabinets + " (" + rt.availableProcessors() + " cores, " + threads + " thread" + (threads == 1 ? "" : "s")
                + ", max heap " + rt.maxMemory() / (1 << 20) + " MB, " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ")");
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
}
