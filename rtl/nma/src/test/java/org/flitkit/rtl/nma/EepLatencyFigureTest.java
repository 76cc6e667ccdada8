package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.junit.jupiter.api.Test;

/**
 * Figure testbench (spec 20-th2-management.md, "Measured figures"): {@link EepAccess} at the DEFAULT
 * parameters (100 MHz core, 400 kHz SCL, 3 ms write cycle) with 1..6 addresses per request; prints the
 * hardware latency per request and per extra address next to the paper's +~150 us (read) / +~3000 us (write).
 */
class EepLatencyFigureTest {
    static final EepParams P = EepParams.DEFAULT;

    @Test
    void latencyPerExtraAddressAtDefaultTiming() {
        Simulator sim = Simulator.of(() -> new EepHarness(P, P, null));
        EepDriver d = new EepDriver(sim, "eep-figure", 50_000_000L);
        Random rnd = new Random(42);
        double[] read = new double[7];
        double[] write = new double[7];
        long t0 = System.nanoTime();
        long c0 = sim.cycle();
        for (int n = 1; n <= 6; n++) {
            List<Integer> addrs = new ArrayList<>();
            List<Integer> data = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                addrs.add(rnd.nextInt(0x10000));
                data.add(rnd.nextInt(256));
            }
            ManagementPacket w = TestPackets.header(rnd, ChipType.NRC, 0x0102).nmpType(NmpType.EEP_WRITE_REQ)
                    .payload(new EepromPayload(addrs, data)).build();
            EepDriver.Result rw = d.send(w);
            assertThat(rw.packet().nmpType()).isEqualTo(NmpType.EEP_WRITE_RESP);
            write[n] = P.micros(rw.latency());
            ManagementPacket r = TestPackets.header(rnd, ChipType.NRC, 0x0102).nmpType(NmpType.EEP_READ_REQ)
                    .payload(new EepromPayload(addrs, List.of())).build();
            EepDriver.Result rr = d.send(r);
            assertThat(((EepromPayload) rr.packet().payload()).data()).isEqualTo(dedupLastWins(addrs, data));
            read[n] = P.micros(rr.latency());
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long cycles = sim.cycle() - c0;
        double readSlope = slope(read);
        double writeSlope = slope(write);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("E2PROM access latency in hardware, EepAccess + 24xx512 model, core %.0f MHz, SCL %.0f kHz,"
                + " tWC %.1f ms%n", P.coreHz() / 1e6, P.actualSclHz() / 1e3, P.writeCycleNs() / 1e6));
        sb.append(String.format("%-10s %14s %14s%n", "addresses", "read (us)", "write (us)"));
        for (int n = 1; n <= 6; n++) {
            sb.append(String.format("%-10d %14.2f %14.2f%n", n, read[n], write[n]));
        }
        sb.append(String.format("per extra address (least squares): read +%.1f us (paper +~150 us), write +%.1f us"
                + " (paper +~3000 us)%n", readSlope, writeSlope));
        sb.append(String.format("simulated %d cycles in %.2f s: %.0f cycles/s%n", cycles, secs, cycles / secs));
        System.out.print(sb);
        assertThat(readSlope).isBetween(100.0, 200.0);
        assertThat(writeSlope).isBetween(2900.0, 3300.0);
    }

    @Test
    void bootTimeAtDefaultTiming() {
        List<BootImage.Record> recs = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            recs.add(new BootImage.Record(0x400 + i, 0x0123_4567_89AB_CDEFL + i));
        }
        recs.set(0, new BootImage.Record(0x000, 0x0042));
        recs.set(1, new BootImage.Record(0x008, 0x55));
        recs.set(2, new BootImage.Record(0x009, 0xAA));
        List<BootImage.Record> load = recs.subList(0, 3);
        byte[] mem = BootImage.at(0, BootImage.build(load));
        Simulator sim = Simulator.of(() -> new BootHarness(P, P, mem, 0, BootLoader.MAX_RECORDS));
        BootHarness b = (BootHarness) sim.circuit().top();
        sim.reset();
        long t0 = System.nanoTime();
        long cycles = sim.runUntil(() -> sim.peekBool(b.bootDone), 10_000_000L);
        double secs = (System.nanoTime() - t0) / 1e9;
        assertThat(sim.peek(b.bootStatus)).isEqualTo(BootLoader.OK);
        assertThat(sim.peek(b.chipId)).isEqualTo(0x42);
        int bytes = 2 * 10 * load.size() + 10;
        System.out.printf("boot load of %d records (%d bytes read over two passes) at default timing: %.1f us,"
                + " %.2f us per byte; about %.2f ms per 100 records%n", load.size(), bytes, P.micros(cycles),
                P.micros(cycles) / bytes, P.micros(cycles) / bytes * 2000 / 1000);
        System.out.printf("boot simulation, first run (includes JIT warm-up): %d cycles in %.2f s: %.0f cycles/s%n",
                cycles, secs, cycles / secs);
        sim.reset();
        long t1 = System.nanoTime();
        long again = sim.runUntil(() -> sim.peekBool(b.bootDone), 10_000_000L);
        double secs2 = (System.nanoTime() - t1) / 1e9;
        assertThat(again).isEqualTo(cycles);
        System.out.printf("boot simulation, second run: %d cycles in %.2f s: %.0f cycles/s (%s)%n", again, secs2,
                again / secs2, sim.stats());
    }

    static List<Integer> dedupLastWins(List<Integer> addrs, List<Integer> data) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < addrs.size(); i++) {
            int v = data.get(i);
            for (int j = 0; j < addrs.size(); j++) {
                if (addrs.get(j).equals(addrs.get(i))) {
                    v = data.get(j);
                }
            }
            out.add(v);
        }
        return out;
    }

    /** Least-squares slope of y[1..6] over n = 1..6. */
    static double slope(double[] y) {
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int n = 1; n <= 6; n++) {
            sx += n;
            sy += y[n];
            sxx += n * n;
            sxy += n * y[n];
        }
        return (6 * sxy - sx * sy) / (6 * sxx - sx * sx);
    }
}
