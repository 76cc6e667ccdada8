package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.BootImage.Record;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Power-up load from good and bad images, at FAST timing, into the NMA register file. */
@ExtendWith(TestbenchExtension.class)
class BootLoaderTest {
    static final EepParams P = EepParams.FAST;
    static final long BUDGET = 2_000_000;

    static final int CHIP_ID = 0x000;
    static final int CHIP_TYPE = 0x001;
    static final int SCRATCH0 = 0x008;
    static final int SCRATCH1 = 0x009;
    static final int REPORT_ENABLE = 0x010;
    static final int FAULT_MASK = 0x011;

    static final List<Record> GOOD = List.of(
            new Record(CHIP_ID, 0x0042),
            new Record(SCRATCH0, 0x1122_3344_5566_7788L),
            new Record(SCRATCH1, 0xFEDC_BA98_7654_3210L),
            new Record(REPORT_ENABLE, 0x3),
            new Record(FAULT_MASK, 0x1));

    /** A {@link BootHarness} testbench with an E2PROM request driver, after reset (the load starts at reset). */
    static final class Boot implements AutoCloseable {
        final Testbench<BootHarness> tb;
        final Simulator sim;
        final BootHarness b;
        final EepDriver<BootHarness> eep;

        Boot(RunConfig cfg, byte[] mem, int base, int maxRecords, EepParams board, boolean sclStuck) {
            tb = Runs.atCoreClock(() -> new BootHarness(P, board, mem, base, maxRecords), cfg, P);
            sim = tb.sim();
            b = tb.dut();
            eep = new EepDriver<>(tb, b.req, b.rsp, BUDGET);
            sim.poke(b.sclStuck, sclStuck);
            tb.reset(1);
        }

        /** Runs to the end of the load and returns the cycles it took. */
        long untilDone() {
            assertThat(sim.peekBool(b.booting)).isTrue();
            return tb.runUntil("the end of the boot load", () -> sim.peekBool(b.bootDone), BUDGET);
        }

        long reg(String name) {
            return sim.peekBig(b.regs.value(name)).longValue();
        }

        int status() {
            return (int) sim.peek(b.bootStatus);
        }

        void assertRegistersAtReset() {
            assertThat(sim.peek(b.chipId)).as("CHIP_ID stays unconfigured").isEqualTo(Th2.CHIP_ID_ANY);
            assertThat(reg(NmaRegisters.SCRATCH0)).isZero();
            assertThat(reg(NmaRegisters.SCRATCH1)).isZero();
            assertThat(reg(NmaRegisters.REPORT_ENABLE)).isZero();
            assertThat(reg(NmaRegisters.FAULT_MASK)).isZero();
            assertThat(sim.peek(b.boot.written)).isZero();
        }

        /** An E2PROM read through EepAccess after boot (the I2C master went back to requests). */
        ManagementPacket readBack(int... addrs) {
            List<Integer> a = new ArrayList<>();
            for (int x : addrs) {
                a.add(x);
            }
            ManagementPacket req = TestPackets.header(tb.rng("read_back"), ChipType.NRC, Th2.CHIP_ID_ANY)
                    .nmpType(NmpType.EEP_READ_REQ).payload(new EepromPayload(a, List.of())).build();
            return eep.send(req).packet();
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    /** A completed load of {@code mem} (image at {@code base}, at most {@code maxRecords}) from a part with timing {@code board}. */
    static final class Run implements AutoCloseable {
        final Boot boot;
        final long bootCycles;

        Run(RunConfig cfg, byte[] mem, int base, int maxRecords, EepParams board) {
            boot = new Boot(cfg, mem, base, maxRecords, board, false);
            bootCycles = boot.untilDone();
        }

        Run(RunConfig cfg, byte[] mem) {
            this(cfg, mem, 0, BootLoader.MAX_RECORDS, P);
        }

        @Override
        public void close() {
            boot.close();
        }
    }

    @Test
    void goodImageWritesEveryRecordThenHandsTheBusToRequests(RunConfig cfg) {
        try (Run r = new Run(cfg, BootImage.at(0, BootImage.build(GOOD)))) {
            Boot b = r.boot;
            assertThat(b.sim.peekBool(b.b.bootError)).isFalse();
            assertThat(b.status()).isEqualTo(BootLoader.OK);
            assertThat(b.sim.peek(b.b.chipId)).isEqualTo(0x0042);
            assertThat(b.reg(NmaRegisters.SCRATCH0)).isEqualTo(0x1122_3344_5566_7788L);
            assertThat(b.reg(NmaRegisters.SCRATCH1)).isEqualTo(0xFEDC_BA98_7654_3210L);
            assertThat(b.reg(NmaRegisters.REPORT_ENABLE)).isEqualTo(3);
            assertThat(b.reg(NmaRegisters.FAULT_MASK)).isEqualTo(1);
            assertThat(b.sim.peek(b.b.boot.written)).isEqualTo(GOOD.size());
            assertThat(b.sim.peekBool(b.b.mainBlocked)).isFalse();
            // two passes: (10 + 10n) + 10n bytes of about 9 SCL periods each
            long bytes = 10 + 20L * GOOD.size();
            assertThat(r.bootCycles).isBetween(bytes * 90, bytes * 110 + 400);
            // the server can now read the image; the response comes from the configured chip ID
            ManagementPacket resp = b.readBack(0, 1, 2, 3, 4, 5);
            assertThat(resp.srcId()).isEqualTo(0x0042);
            assertThat(((EepromPayload) resp.payload()).data())
                    .containsExactly(0x54, 0x48, 0x32, 0x43, GOOD.size(), 0);
        }
    }

    @Test
    void imageFormatRoundTripsInSoftware() {
        byte[] img = BootImage.build(GOOD);
        assertThat(img).hasSize(6 + 10 * GOOD.size() + 4);
        assertThat(BootImage.parse(img)).isEqualTo(GOOD);
    }

    @Test
    void emptyImageAndImageAtAnotherBase(RunConfig cfg) {
        try (Run empty = new Run(cfg.part("empty"), BootImage.at(0, BootImage.build(List.of())))) {
            assertThat(empty.boot.status()).isEqualTo(BootLoader.OK);
            empty.boot.assertRegistersAtReset();
        }
        try (Run based = new Run(cfg.part("base"), BootImage.at(0x8000, BootImage.build(GOOD)), 0x8000, 100, P)) {
            assertThat(based.boot.status()).isEqualTo(BootLoader.OK);
            assertThat(based.boot.sim.peek(based.boot.b.chipId)).isEqualTo(0x0042);
        }
    }

    @Test
    void wrongMagicOrErasedPartLeavesRegistersAtReset(RunConfig cfg) {
        byte[] img = BootImage.build(GOOD);
        img[2] = 'X';
        try (Run r = new Run(cfg.part("magic"), BootImage.at(0, img))) {
            assertThat(r.boot.sim.peekBool(r.boot.b.bootError)).isTrue();
            assertThat(r.boot.status()).isEqualTo(BootLoader.ERR_MAGIC);
            r.boot.assertRegistersAtReset();
            // stopped after the header: 6 bytes + one drained byte
            assertThat(r.bootCycles).isLessThan(12 * 110);
        }
        try (Run blank = new Run(cfg.part("blank"), null)) {
            assertThat(blank.boot.status()).isEqualTo(BootLoader.ERR_MAGIC);
            blank.boot.assertRegistersAtReset();
            // and the E2PROM path works after a failed boot
            assertThat(blank.boot.readBack(7).nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
        }
    }

    @Test
    void badChecksumLeavesRegistersAtResetEvenThoughRecordsWereRead(RunConfig cfg) {
        for (int at : new int[] {8, 6 + 10 * GOOD.size(), 5 + 10 * GOOD.size()}) {
            byte[] img = BootImage.build(GOOD);
            img[at] ^= 0x10;
            try (Run r = new Run(cfg.part("byte" + at), BootImage.at(0, img))) {
                assertThat(r.boot.status()).as("corrupted byte %d", at).isEqualTo(BootLoader.ERR_CRC);
                assertThat(r.boot.sim.peekBool(r.boot.b.bootError)).isTrue();
                r.boot.assertRegistersAtReset();
            }
        }
    }

    @Test
    void tooManyRecordsOrAnAddressBeyondTheRegisterSpace(RunConfig cfg) {
        try (Run many = new Run(cfg.part("count"), BootImage.at(0, BootImage.build(GOOD)), 0, 4, P)) {
            assertThat(many.boot.status()).isEqualTo(BootLoader.ERR_COUNT);
            many.boot.assertRegistersAtReset();
        }
        List<Record> wide = new ArrayList<>(GOOD);
        wide.add(new Record(0x8000, 1));
        try (Run w = new Run(cfg.part("address"), BootImage.at(0, BootImage.build(wide)))) {
            assertThat(w.boot.status()).isEqualTo(BootLoader.ERR_ADDRESS);
            w.boot.assertRegistersAtReset();
        }
    }

    @Test
    void registerFileRefusingAWriteStopsTheLoad(RunConfig cfg) {
        List<Record> recs = new ArrayList<>(GOOD.subList(0, 2));
        recs.add(new Record(CHIP_TYPE, 7)); // read-only
        recs.add(new Record(SCRATCH1, 5));
        try (Run r = new Run(cfg.part("read-only"), BootImage.at(0, BootImage.build(recs)))) {
            assertThat(r.boot.status()).isEqualTo(BootLoader.ERR_REGISTER);
            assertThat(r.boot.sim.peek(r.boot.b.boot.written)).isEqualTo(2);
            assertThat(r.boot.sim.peek(r.boot.b.chipId)).as("records before the refused one stay written").isEqualTo(0x42);
            assertThat(r.boot.reg(NmaRegisters.SCRATCH1)).as("records after it are not").isZero();
            assertThat(r.boot.readBack(0).nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
        }
        // unmapped, and as the last record (read with NACK: no drain needed)
        List<Record> last = List.of(new Record(SCRATCH0, 9), new Record(0x7FF, 1));
        try (Run u = new Run(cfg.part("unmapped"), BootImage.at(0, BootImage.build(last)))) {
            assertThat(u.boot.status()).isEqualTo(BootLoader.ERR_REGISTER);
            assertThat(u.boot.reg(NmaRegisters.SCRATCH0)).isEqualTo(9);
            assertThat(u.boot.readBack(6).nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
        }
    }

    @Test
    void absentPartAndStuckBusEndTheBootWithAnError(RunConfig cfg) {
        try (Run absent = new Run(cfg.part("absent"), BootImage.at(0, BootImage.build(GOOD)), 0, 100,
                P.withDeviceSelect(2))) {
            assertThat(absent.boot.status()).isEqualTo(BootLoader.ERR_NACK);
            absent.boot.assertRegistersAtReset();
            assertThat(absent.bootCycles).isLessThan(300);
        }
        try (Boot stuck = new Boot(cfg.part("stuck"), BootImage.at(0, BootImage.build(GOOD)), 0, 100, P, true)) {
            long t = stuck.untilDone();
            assertThat(stuck.status()).isEqualTo(BootLoader.ERR_TIMEOUT);
            assertThat(t).isBetween(P.timeoutCycles(), P.timeoutCycles() + 10);
            assertThat(stuck.sim.peek(stuck.b.chipId)).isEqualTo(Th2.CHIP_ID_ANY);
        }
    }

    @Test
    void requestsDuringBootAreAnsweredBusyAndRegisterAccessIsBlocked(RunConfig cfg) {
        try (Boot boot = new Boot(cfg, BootImage.at(0, BootImage.build(GOOD)), 0, 100, P, false)) {
            Simulator sim = boot.sim;
            BootHarness b = boot.b;
            boot.tb.run(50);
            assertThat(sim.peekBool(b.booting)).isTrue();
            // a reg_access write during boot is not performed
            assertThat(sim.peekBool(b.mainBlocked)).isTrue();
            sim.poke(b.mainBus.write, 1);
            sim.poke(b.mainBus.addr, SCRATCH1);
            sim.poke(b.mainBus.wdata, BigInteger.valueOf(99));
            assertThat(sim.peekBool(b.mainBus.error)).isTrue();
            boot.tb.run(1);
            sim.poke(b.mainBus.write, 0);
            ManagementPacket req = TestPackets.header(boot.tb.rng("request"), ChipType.NRC, Th2.CHIP_ID_ANY)
                    .nmpType(NmpType.EEP_WRITE_REQ).payload(new EepromPayload(List.of(0), List.of(0))).build();
            boot.eep.budget = 100;
            EepDriver.Result busy = boot.eep.send(req);
            assertThat(busy.bits()).isEqualTo(ManagementPacket.errorResponseTo(req.toBits(), ChipType.NRC, Th2.CHIP_ID_ANY,
                    ErrorCode.EEPROM_BUSY, PayloadLayouts.WHOLE_REQUEST).toBits());
            boot.tb.runUntil("the end of the boot load", () -> sim.peekBool(b.bootDone), BUDGET);
            assertThat(boot.status()).isEqualTo(BootLoader.OK);
            assertThat(boot.reg(NmaRegisters.SCRATCH1)).isEqualTo(0xFEDC_BA98_7654_3210L);
            // after boot reg_access owns the bus
            sim.poke(b.mainBus.write, 1);
            sim.poke(b.mainBus.addr, SCRATCH1);
            assertThat(sim.peekBool(b.mainBus.error)).isFalse();
            boot.tb.run(1);
            sim.poke(b.mainBus.write, 0);
            assertThat(boot.reg(NmaRegisters.SCRATCH1)).isEqualTo(99);
        }
    }
}
