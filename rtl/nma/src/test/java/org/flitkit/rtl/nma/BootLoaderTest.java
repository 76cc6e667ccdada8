package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.BootImage.Record;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.junit.jupiter.api.Test;

/** Power-up load from good and bad images, at FAST timing, into the NMA register file. */
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

    final class Run {
        final Simulator sim;
        final BootHarness b;
        final long bootCycles;

        Run(String name, byte[] mem, int base, int maxRecords, EepParams board) {
            sim = Simulator.of(() -> new BootHarness(P, board, mem, base, maxRecords));
            b = (BootHarness) sim.circuit().top();
            Waves.maybeStart(sim, name, Waves.periodPs(P));
            sim.reset();
            assertThat(sim.peekBool(b.booting)).isTrue();
            bootCycles = sim.runUntil(() -> sim.peekBool(b.bootDone), BUDGET);
        }

        Run(String name, byte[] mem) {
            this(name, mem, 0, BootLoader.MAX_RECORDS, P);
        }

        long reg(String name) {
            return sim.peekBig(sim.signal("bootHarness.regs.r_" + name)).longValue();
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
            ManagementPacket req = TestPackets.header(new Random(1), ChipType.NRC, Th2.CHIP_ID_ANY)
                    .nmpType(NmpType.EEP_READ_REQ).payload(new EepromPayload(a, List.of())).build();
            sim.poke(b.req.bits, req.toBits().toBigInteger());
            sim.poke(b.req.valid, 1);
            sim.runUntil(() -> sim.peekBool(b.req.ready), BUDGET);
            sim.step();
            sim.poke(b.req.valid, 0);
            sim.runUntil(() -> sim.peekBool(b.rsp.valid), BUDGET);
            BitVector out = TestPackets.bits(sim.peekBig(b.rsp.bits));
            sim.poke(b.rsp.ready, 1);
            sim.step();
            sim.poke(b.rsp.ready, 0);
            return ManagementPacket.parse(out);
        }
    }

    @Test
    void goodImageWritesEveryRecordThenHandsTheBusToRequests() {
        byte[] img = BootImage.build(GOOD);
        Run r = new Run("boot-good", BootImage.at(0, img));
        assertThat(r.sim.peekBool(r.b.bootError)).isFalse();
        assertThat(r.status()).isEqualTo(BootLoader.OK);
        assertThat(r.sim.peek(r.b.chipId)).isEqualTo(0x0042);
        assertThat(r.reg(NmaRegisters.SCRATCH0)).isEqualTo(0x1122_3344_5566_7788L);
        assertThat(r.reg(NmaRegisters.SCRATCH1)).isEqualTo(0xFEDC_BA98_7654_3210L);
        assertThat(r.reg(NmaRegisters.REPORT_ENABLE)).isEqualTo(3);
        assertThat(r.reg(NmaRegisters.FAULT_MASK)).isEqualTo(1);
        assertThat(r.sim.peek(r.b.boot.written)).isEqualTo(GOOD.size());
        assertThat(r.sim.peekBool(r.b.mainBlocked)).isFalse();
        // two passes: (10 + 10n) + 10n bytes of about 9 SCL periods each
        long bytes = 10 + 20L * GOOD.size();
        assertThat(r.bootCycles).isBetween(bytes * 90, bytes * 110 + 400);
        // the server can now read the image; the response comes from the configured chip ID
        ManagementPacket resp = r.readBack(0, 1, 2, 3, 4, 5);
        assertThat(resp.srcId()).isEqualTo(0x0042);
        assertThat(((EepromPayload) resp.payload()).data())
                .containsExactly(0x54, 0x48, 0x32, 0x43, GOOD.size(), 0);
    }

    @Test
    void imageFormatRoundTripsInSoftware() {
        byte[] img = BootImage.build(GOOD);
        assertThat(img).hasSize(6 + 10 * GOOD.size() + 4);
        assertThat(BootImage.parse(img)).isEqualTo(GOOD);
    }

    @Test
    void emptyImageAndImageAtAnotherBase() {
        Run empty = new Run("boot-empty", BootImage.at(0, BootImage.build(List.of())));
        assertThat(empty.status()).isEqualTo(BootLoader.OK);
        empty.assertRegistersAtReset();
        Run based = new Run("boot-base", BootImage.at(0x8000, BootImage.build(GOOD)), 0x8000, 100, P);
        assertThat(based.status()).isEqualTo(BootLoader.OK);
        assertThat(based.sim.peek(based.b.chipId)).isEqualTo(0x0042);
    }

    @Test
    void wrongMagicOrErasedPartLeavesRegistersAtReset() {
        byte[] img = BootImage.build(GOOD);
        img[2] = 'X';
        Run r = new Run("boot-magic", BootImage.at(0, img));
        assertThat(r.sim.peekBool(r.b.bootError)).isTrue();
        assertThat(r.status()).isEqualTo(BootLoader.ERR_MAGIC);
        r.assertRegistersAtReset();
        // stopped after the header: 6 bytes + one drained byte
        assertThat(r.bootCycles).isLessThan(12 * 110);
        Run blank = new Run("boot-blank", null);
        assertThat(blank.status()).isEqualTo(BootLoader.ERR_MAGIC);
        blank.assertRegistersAtReset();
        // and the E2PROM path works after a failed boot
        assertThat(blank.readBack(7).nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
    }

    @Test
    void badChecksumLeavesRegistersAtResetEvenThoughRecordsWereRead() {
        for (int at : new int[] {8, 6 + 10 * GOOD.size(), 5 + 10 * GOOD.size()}) {
            byte[] img = BootImage.build(GOOD);
            img[at] ^= 0x10;
            Run r = new Run("boot-crc", BootImage.at(0, img));
            assertThat(r.status()).as("corrupted byte %d", at).isEqualTo(BootLoader.ERR_CRC);
            assertThat(r.sim.peekBool(r.b.bootError)).isTrue();
            r.assertRegistersAtReset();
        }
    }

    @Test
    void tooManyRecordsOrAnAddressBeyondTheRegisterSpace() {
        Run many = new Run("boot-count", BootImage.at(0, BootImage.build(GOOD)), 0, 4, P);
        assertThat(many.status()).isEqualTo(BootLoader.ERR_COUNT);
        many.assertRegistersAtReset();
        List<Record> wide = new ArrayList<>(GOOD);
        wide.add(new Record(0x8000, 1));
        Run w = new Run("boot-addr", BootImage.at(0, BootImage.build(wide)));
        assertThat(w.status()).isEqualTo(BootLoader.ERR_ADDRESS);
        w.assertRegistersAtReset();
    }

    @Test
    void registerFileRefusingAWriteStopsTheLoad() {
        List<Record> recs = new ArrayList<>(GOOD.subList(0, 2));
        recs.add(new Record(CHIP_TYPE, 7)); // read-only
        recs.add(new Record(SCRATCH1, 5));
        Run r = new Run("boot-regerr", BootImage.at(0, BootImage.build(recs)));
        assertThat(r.status()).isEqualTo(BootLoader.ERR_REGISTER);
        assertThat(r.sim.peek(r.b.boot.written)).isEqualTo(2);
        assertThat(r.sim.peek(r.b.chipId)).as("records before the refused one stay written").isEqualTo(0x42);
        assertThat(r.reg(NmaRegisters.SCRATCH1)).as("records after it are not").isZero();
        assertThat(r.readBack(0).nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
        // unmapped, and as the last record (read with NACK: no drain needed)
        List<Record> last = List.of(new Record(SCRATCH0, 9), new Record(0x7FF, 1));
        Run u = new Run("boot-unmapped", BootImage.at(0, BootImage.build(last)));
        assertThat(u.status()).isEqualTo(BootLoader.ERR_REGISTER);
        assertThat(u.reg(NmaRegisters.SCRATCH0)).isEqualTo(9);
        assertThat(u.readBack(6).nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
    }

    @Test
    void absentPartAndStuckBusEndTheBootWithAnError() {
        Run absent = new Run("boot-absent", BootImage.at(0, BootImage.build(GOOD)), 0, 100, P.withDeviceSelect(2));
        assertThat(absent.status()).isEqualTo(BootLoader.ERR_NACK);
        absent.assertRegistersAtReset();
        assertThat(absent.bootCycles).isLessThan(300);

        Simulator sim = Simulator.of(() -> new BootHarness(P, P, BootImage.at(0, BootImage.build(GOOD)), 0, 100));
        BootHarness b = (BootHarness) sim.circuit().top();
        sim.poke(b.sclStuck, 1);
        sim.reset();
        long t = sim.runUntil(() -> sim.peekBool(b.bootDone), BUDGET);
        assertThat(sim.peek(b.bootStatus)).isEqualTo(BootLoader.ERR_TIMEOUT);
        assertThat(t).isBetween(P.timeoutCycles(), P.timeoutCycles() + 10);
        assertThat(sim.peek(b.chipId)).isEqualTo(Th2.CHIP_ID_ANY);
    }

    @Test
    void requestsDuringBootAreAnsweredBusyAndRegisterAccessIsBlocked() {
        Simulator sim = Simulator.of(() -> new BootHarness(P, P, BootImage.at(0, BootImage.build(GOOD)), 0, 100));
        BootHarness b = (BootHarness) sim.circuit().top();
        sim.reset();
        sim.step(50);
        assertThat(sim.peekBool(b.booting)).isTrue();
        // a reg_access write during boot is not performed
        assertThat(sim.peekBool(b.mainBlocked)).isTrue();
        sim.poke(b.mainBus.write, 1);
        sim.poke(b.mainBus.addr, SCRATCH1);
        sim.poke(b.mainBus.wdata, BigInteger.valueOf(99));
        assertThat(sim.peekBool(b.mainBus.error)).isTrue();
        sim.step();
        sim.poke(b.mainBus.write, 0);
        ManagementPacket req = TestPackets.header(new Random(3), ChipType.NRC, Th2.CHIP_ID_ANY)
                .nmpType(NmpType.EEP_WRITE_REQ).payload(new EepromPayload(List.of(0), List.of(0))).build();
        sim.poke(b.req.bits, req.toBits().toBigInteger());
        sim.poke(b.req.valid, 1);
        sim.step();
        sim.poke(b.req.valid, 0);
        sim.runUntil(() -> sim.peekBool(b.rsp.valid), 100);
        BitVector out = TestPackets.bits(sim.peekBig(b.rsp.bits));
        assertThat(out).isEqualTo(ManagementPacket.errorResponseTo(req.toBits(), ChipType.NRC, Th2.CHIP_ID_ANY,
                ErrorCode.EEPROM_BUSY, PayloadLayouts.WHOLE_REQUEST).toBits());
        sim.poke(b.rsp.ready, 1);
        sim.step();
        sim.poke(b.rsp.ready, 0);
        sim.runUntil(() -> sim.peekBool(b.bootDone), BUDGET);
        assertThat(sim.peek(b.bootStatus)).isEqualTo(BootLoader.OK);
        assertThat(sim.peekBig(sim.signal("bootHarness.regs.r_SCRATCH1")).longValue()).isEqualTo(0xFEDC_BA98_7654_3210L);
        // after boot reg_access owns the bus
        sim.poke(b.mainBus.write, 1);
        sim.poke(b.mainBus.addr, SCRATCH1);
        assertThat(sim.peekBool(b.mainBus.error)).isFalse();
        sim.step();
        sim.poke(b.mainBus.write, 0);
        assertThat(sim.peekBig(sim.signal("bootHarness.regs.r_SCRATCH1")).longValue()).isEqualTo(99);
    }
}
