package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Figure testbench (spec 20-th2-management.md, "Measured figures"; docs/th2-eeprom.md, "Measured figures"):
 * {@link EepAccess} with the 24xx512 model at the DEFAULT parameters, 1..6 addresses per request. Every
 * latency must equal, to the cycle, what the I2C bit timing of docs/th2-eeprom.md gives at the documented
 * operating point, and the documented figures; the table is printed next to the paper's.
 */
@ExtendWith(TestbenchExtension.class)
class EepLatencyFigureTest {
    static final EepParams P = EepParams.DEFAULT;

    // The documented operating point (docs/th2-eeprom.md, "Clock and timing"), written out here rather than
    // taken from EepParams, so that the expected numbers do not share the model's arithmetic.
    static final long CORE_HZ = 100_000_000L;
    static final long SCL_HZ = 400_000L;
    /** tWC = 3 ms in core cycles. */
    static final long WRITE_CYCLE = 3 * CORE_HZ / 1_000;

    // docs/th2-eeprom.md, "Bit timing": an SCL period is 5 ticks (3 low, 2 high); START and STOP take 6
    // ticks; a byte is 8 data bits and the acknowledge bit, one SCL period each.
    static final long TICK = CORE_HZ / (5 * SCL_HZ);
    static final long START = 6 * TICK;
    static final long STOP = 6 * TICK;
    static final long BYTE = 9 * 5 * TICK;
    /** Per I2C command, beyond its bus time: one cycle to hand it to the master, one to take its response. */
    static final long HANDSHAKE = 2;
    /** Before the first access: the cycle in which EepAccess checks the request. */
    static final long CHECK = 1;

    /** Random read: START, 0xA0, address high, address low, repeated START, 0xA1, the byte read with NACK, STOP. */
    static final long READ_ACCESS = 2 * START + 5 * BYTE + STOP + 8 * HANDSHAKE;
    /** One acknowledge-polling round: (repeated) START and 0xA0. */
    static final long POLL = START + BYTE + 2 * HANDSHAKE;
    /**
     * Polling rounds of a byte write: the part is busy for tWC from the STOP condition (SDA rising in the
     * STOP's last tick) and acknowledges the first poll whose address byte reaches its acknowledge bit
     * (START and 8 bit periods into the round) after that.
     */
    static final long POLLS = ceilDiv(WRITE_CYCLE - (TICK + HANDSHAKE) - (START + 8 * 5 * TICK), POLL) + 1;
    /** Byte write (START, 0xA0, address high, address low, data, STOP), polling, and the STOP after the ACK. */
    static final long WRITE_ACCESS = START + 4 * BYTE + STOP + 6 * HANDSHAKE + POLLS * POLL + STOP + HANDSHAKE;

    /** docs/th2-eeprom.md, "Measured figures": microseconds for 1..6 addresses, read and write. */
    static final String[] DOC_READ_US = {"121.67", "243.33", "364.99", "486.65", "608.31", "729.97"};
    static final String[] DOC_WRITE_US = {"3112.87", "6225.73", "9338.59", "12451.45", "15564.31", "18677.17"};

    @Test
    void latencyPerAddressIsTheI2cBusTimeAtDefaultTiming(RunConfig cfg) {
        assertThat(List.of(P.coreHz(), P.sclHz(), P.writeCycleNs())).as("EepParams.DEFAULT is the documented operating point")
                .containsExactly(CORE_HZ, SCL_HZ, 3_000_000L);
        // the documented per-address figures follow from the bus timing alone
        assertThat(String.format("%.1f", P.micros(READ_ACCESS))).isEqualTo("121.7");
        assertThat(String.format("%.1f", P.micros(WRITE_ACCESS))).isEqualTo("3112.9");
        long[] read = new long[7];
        long[] write = new long[7];
        long t0 = System.nanoTime();
        try (EepDriver<EepHarness> d = EepDriver.onHarness(cfg, P, P, null, 50_000_000L)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
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
                write[n] = rw.latency();
                ManagementPacket r = TestPackets.header(rnd, ChipType.NRC, 0x0102).nmpType(NmpType.EEP_READ_REQ)
                        .payload(new EepromPayload(addrs, List.of())).build();
                EepDriver.Result rr = d.send(r);
                assertThat(((EepromPayload) rr.packet().payload()).data()).isEqualTo(dedupLastWins(addrs, data));
                read[n] = rr.latency();
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            print(read, write, d.tb.cycle(), secs);
        }
        for (int n = 1; n <= 6; n++) {
            assertThat(read[n]).as("read of %d addresses, cycles", n).isEqualTo(CHECK + n * READ_ACCESS);
            assertThat(write[n]).as("write of %d addresses, cycles", n).isEqualTo(CHECK + n * WRITE_ACCESS);
            assertThat(String.format("%.2f", P.micros(read[n]))).as("read of %d addresses, us", n).isEqualTo(DOC_READ_US[n - 1]);
            assertThat(String.format("%.2f", P.micros(write[n]))).as("write of %d addresses, us", n).isEqualTo(DOC_WRITE_US[n - 1]);
        }
    }

    private static void print(long[] read, long[] write, long cycles, double secs) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("E2PROM access latency in hardware, EepAccess + 24xx512 model, core %.0f MHz, SCL %.0f kHz,"
                + " tWC %.1f ms%n", P.coreHz() / 1e6, P.actualSclHz() / 1e3, P.writeCycleNs() / 1e6));
        sb.append(String.format("%-10s %14s %14s%n", "addresses", "read (us)", "write (us)"));
        for (int n = 1; n <= 6; n++) {
            sb.append(String.format("%-10d %14.2f %14.2f%n", n, P.micros(read[n]), P.micros(write[n])));
        }
        sb.append(String.format("per extra address: read +%.1f us (paper +~150 us), write +%.1f us (paper +~3000 us)%n",
                P.micros(read[2] - read[1]), P.micros(write[2] - write[1])));
        sb.append(String.format("simulated %d cycles in %.2f s: %.0f cycles/s%n", cycles, secs, cycles / secs));
        System.out.print(sb);
    }

    @Test
    void bootTimeAtDefaultTiming(RunConfig cfg) {
        List<BootImage.Record> recs = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            recs.add(new BootImage.Record(0x400 + i, 0x0123_4567_89AB_CDEFL + i));
        }
        recs.set(0, new BootImage.Record(0x000, 0x0042));
        recs.set(1, new BootImage.Record(0x008, 0x55));
        recs.set(2, new BootImage.Record(0x009, 0xAA));
        List<BootImage.Record> load = recs.subList(0, 3);
        byte[] mem = BootImage.at(0, BootImage.build(load));
        try (Testbench<BootHarness> tb = Runs.atCoreClock(() -> new BootHarness(P, P, mem, 0, BootLoader.MAX_RECORDS), cfg, P)) {
            BootHarness b = tb.dut();
            tb.reset(1);
            long t0 = System.nanoTime();
            long cycles = tb.runUntil("the end of the boot load", () -> tb.sim().peekBool(b.bootDone), 10_000_000L);
            double secs = (System.nanoTime() - t0) / 1e9;
            assertThat(tb.sim().peek(b.bootStatus)).isEqualTo(BootLoader.OK);
            assertThat(tb.sim().peek(b.chipId)).isEqualTo(0x42);
            int bytes = 2 * 10 * load.size() + 10;
            System.out.printf("boot load of %d records (%d bytes read over two passes) at default timing: %.1f us,"
                    + " %.2f us per byte; about %.2f ms per 100 records%n", load.size(), bytes, P.micros(cycles),
                    P.micros(cycles) / bytes, P.micros(cycles) / bytes * 2000 / 1000);
            System.out.printf("boot simulation, first run (includes JIT warm-up): %d cycles in %.2f s: %.0f cycles/s%n",
                    cycles, secs, cycles / secs);
            tb.reset(1);
            long t1 = System.nanoTime();
            long again = tb.runUntil("the end of the second boot load", () -> tb.sim().peekBool(b.bootDone), 10_000_000L);
            double secs2 = (System.nanoTime() - t1) / 1e9;
            assertThat(again).isEqualTo(cycles);
            System.out.printf("boot simulation, second run: %d cycles in %.2f s: %.0f cycles/s (%s)%n", again, secs2,
                    again / secs2, tb.sim().stats());
        }
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

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
