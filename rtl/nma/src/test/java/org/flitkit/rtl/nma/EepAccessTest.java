package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link EepAccess} against a Java model of the E2PROM and against the software {@link ManagementPacket}
 * responses, bit for bit, plus every error path. FAST timing (10 cycles per SCL period, 300-cycle write).
 */
@ExtendWith(TestbenchExtension.class)
class EepAccessTest {
    static final EepParams P = EepParams.FAST;
    static final int ME = 0x0102;
    static final long BUDGET = 200_000;

    /** The Java model: 64 KB, erased to 0xFF, optional image. */
    static final class Model {
        final byte[] mem = new byte[I2cEeprom.SIZE];

        Model(byte[] image) {
            Arrays.fill(mem, (byte) 0xFF);
            if (image != null) {
                System.arraycopy(image, 0, mem, 0, image.length);
            }
        }

        EepromPayload apply(ManagementPacket req) {
            EepromPayload p = (EepromPayload) req.payload();
            if (req.nmpType() == NmpType.EEP_WRITE_REQ) {
                for (int i = 0; i < p.count(); i++) {
                    mem[p.addresses().get(i)] = (byte) (int) p.data().get(i);
                }
                return p.withoutData();
            }
            return p.answeredWith(p.addresses().stream().map(a -> mem[a] & 0xFF).toList());
        }
    }

    /** A random 64 KB image, drawn from the run's seed (before the testbench exists: the image is built in). */
    static byte[] randomImage(RunConfig cfg) {
        byte[] img = new byte[I2cEeprom.SIZE];
        new Rng(cfg.seed()).fork("image").nextBytes(img);
        return img;
    }

    static EepDriver<EepHarness> driver(RunConfig cfg, EepParams board, byte[] image) {
        return EepDriver.onHarness(cfg, P, board, image, BUDGET);
    }

    static ManagementPacket request(RandomGenerator rnd, NmpType type, List<Integer> addrs, List<Integer> data) {
        return TestPackets.header(rnd, ChipType.NRC, rnd.nextBoolean() ? ME : Th2.CHIP_ID_ANY)
                .nmpType(type).payload(new EepromPayload(addrs, data)).build();
    }

    static List<Integer> randomAddrs(RandomGenerator rnd, int n) {
        List<Integer> a = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            a.add(rnd.nextInt(0x10000));
        }
        return a;
    }

    static List<Integer> randomBytes(RandomGenerator rnd, int n) {
        List<Integer> a = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            a.add(rnd.nextInt(256));
        }
        return a;
    }

    @Test
    void readsOfOneToSixBytesMatchTheModelAndTheSoftwareResponse(RunConfig cfg) {
        byte[] img = randomImage(cfg);
        Model m = new Model(img);
        try (EepDriver<EepHarness> d = driver(cfg, P, img)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            for (int n = 1; n <= Th2.MAX_EEPROM_BYTES; n++) {
                ManagementPacket req = request(rnd, NmpType.EEP_READ_REQ, randomAddrs(rnd, n), List.of());
                EepDriver.Result r = d.send(req);
                ManagementPacket expected = req.response(ME, m.apply(req));
                assertThat(r.bits()).as("read of %d bytes", n).isEqualTo(expected.toBits());
                assertThat(((EepromPayload) r.packet().payload()).data()).hasSize(n);
            }
        }
    }

    @Test
    void writesOfOneToSixBytesAreStoredAndAnsweredAsTheSoftwareModelSays(RunConfig cfg) {
        Model m = new Model(null);
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            for (int n = 1; n <= Th2.MAX_EEPROM_BYTES; n++) {
                List<Integer> addrs = randomAddrs(rnd, n);
                if (n == 6) {
                    addrs.set(3, addrs.get(1)); // the same address twice: the later byte wins
                    addrs.set(4, addrs.get(0) ^ 1); // and a neighbour in the same page
                }
                ManagementPacket req = request(rnd, NmpType.EEP_WRITE_REQ, addrs, randomBytes(rnd, n));
                EepDriver.Result r = d.send(req);
                assertThat(r.bits()).as("write of %d bytes", n).isEqualTo(req.response(ME, m.apply(req)).toBits());
                // each byte costs at least one write cycle (acknowledge polling waited for it)
                assertThat(r.latency()).isGreaterThan(n * P.writeCycleCycles());
                ManagementPacket back = request(rnd, NmpType.EEP_READ_REQ, addrs, List.of());
                assertThat(d.send(back).bits()).isEqualTo(back.response(ME, m.apply(back)).toBits());
            }
            for (int a = 0; a < I2cEeprom.SIZE; a += 997) {
                ManagementPacket one = request(rnd, NmpType.EEP_READ_REQ, List.of(a), List.of());
                assertThat(d.send(one).bits()).isEqualTo(one.response(ME, m.apply(one)).toBits());
            }
        }
    }

    @Test
    void randomMixAgainstTheModel(RunConfig cfg) {
        byte[] img = randomImage(cfg);
        Model m = new Model(img);
        try (EepDriver<EepHarness> d = driver(cfg, P, img)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            for (int i = 0; i < 30; i++) {
                ManagementPacket req = TestPackets.eepromRequest(rnd, ChipType.NRC, ME);
                if (i % 4 == 0) {
                    // cluster addresses so that writes and reads hit the same bytes
                    EepromPayload p = (EepromPayload) req.payload();
                    List<Integer> a = p.addresses().stream().map(x -> 0x3000 + (x & 0x3)).toList();
                    req = req.toBuilder().payload(new EepromPayload(a, p.data())).build();
                }
                EepDriver.Result r = d.send(req);
                assertThat(r.bits()).as("request %d (%s)", i, req.nmpType()).isEqualTo(req.response(ME, m.apply(req)).toBits());
            }
        }
    }

    // ------------------------------------------------------------------ error paths

    static final PayloadLayouts.EepromAccess E = PayloadLayouts.EEPROM;

    static ManagementPacket simpleRead(RandomGenerator rnd, Integer... addrs) {
        return request(rnd, NmpType.EEP_READ_REQ, List.of(addrs), List.of());
    }

    static void assertError(EepDriver.Result r, BitVector request, ErrorCode code, int index) {
        ManagementPacket expected = ManagementPacket.errorResponseTo(request, ChipType.NRC, ME, code, index);
        assertThat(r.bits()).as("%s at %d", code, index).isEqualTo(expected.toBits());
        ErrorPayload ep = (ErrorPayload) r.packet().payload();
        assertThat(ep.error()).isEqualTo(code);
        assertThat(ep.index()).isEqualTo(index);
    }

    @Test
    void badCountZeroAndSevenAreRejectedWithoutTouchingTheBus(RunConfig cfg) {
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            ManagementPacket base = simpleRead(rnd, 0x10);
            for (int count : new int[] {0, 7}) {
                BitVector data = base.payload().encode().with(E.COUNT, count);
                BitVector raw = TestPackets.withRawData(base, data);
                EepDriver.Result r = d.send(raw);
                assertError(r, raw, ErrorCode.BAD_COUNT, PayloadLayouts.WHOLE_REQUEST);
                assertThat(r.latency()).isLessThan(5);
            }
            // and a write with count 7
            ManagementPacket w = request(rnd, NmpType.EEP_WRITE_REQ, List.of(1, 2, 3, 4, 5, 6), List.of(1, 2, 3, 4, 5, 6));
            BitVector raw = TestPackets.withRawData(w, w.payload().encode().with(E.COUNT, 7));
            assertError(d.send(raw), raw, ErrorCode.BAD_COUNT, PayloadLayouts.WHOLE_REQUEST);
        }
    }

    @Test
    void badTypeAndReservedBitsAreRejected(RunConfig cfg) {
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            ManagementPacket base = simpleRead(rnd, 0x10, 0x11);
            for (int code : new int[] {0x14, 0x16, 0x11, 0x08}) {
                BitVector raw = TestPackets.withRawType(base, code);
                assertError(d.send(raw), raw, ErrorCode.BAD_TYPE, PayloadLayouts.WHOLE_REQUEST);
            }
            BitVector enc = base.payload().encode();
            List<BitVector> bad = List.of(
                    enc.with(E.addr(2), 0x1234),   // an address slot beyond Count
                    enc.with(E.data(0), 0x55),     // data in a read request
                    enc.flip(170),                        // reserved bits 191:163
                    enc.flip(50));                        // reserved bits 63:48
            for (BitVector data : bad) {
                BitVector raw = TestPackets.withRawData(base, data);
                assertError(d.send(raw), raw, ErrorCode.RESERVED_NOT_ZERO, PayloadLayouts.WHOLE_REQUEST);
            }
            ManagementPacket w = request(rnd, NmpType.EEP_WRITE_REQ, List.of(1), List.of(9));
            BitVector raw = TestPackets.withRawData(w, w.payload().encode().with(E.data(1), 3));
            assertError(d.send(raw), raw, ErrorCode.RESERVED_NOT_ZERO, PayloadLayouts.WHOLE_REQUEST);
        }
    }

    @Test
    void busyWhileTheBootLoaderOwnsTheBus(RunConfig cfg) {
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            d.sim.poke(d.dut.bootActive, 1);
            ManagementPacket req = simpleRead(rnd, 0x20);
            assertError(d.send(req), req.toBits(), ErrorCode.EEPROM_BUSY, PayloadLayouts.WHOLE_REQUEST);
            d.sim.poke(d.dut.bootActive, 0);
            assertThat(d.send(req).packet().nmpType()).isEqualTo(NmpType.EEP_READ_RESP);
        }
    }

    @Test
    void nackFromAnAbsentOrWronglyAddressedDevice(RunConfig cfg) {
        try (EepDriver<EepHarness> d = driver(cfg, P.withDeviceSelect(3), null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            ManagementPacket rd = simpleRead(rnd, 0x20, 0x21);
            EepDriver.Result r = d.send(rd);
            assertError(r, rd.toBits(), ErrorCode.EEPROM_NACK, 0);
            ManagementPacket wr = request(rnd, NmpType.EEP_WRITE_REQ, List.of(5), List.of(6));
            assertError(d.send(wr), wr.toBits(), ErrorCode.EEPROM_NACK, 0);
            // the master ended with STOP: the bus is free again
            assertThat(d.sim.peekBool(d.dut.eep.pins.sclOe)).isFalse();
            assertThat(d.sim.peekBool(d.dut.eep.pins.sdaOe)).isFalse();
        }
    }

    @Test
    void nackInTheMiddleOfARequestReportsItsIndex(RunConfig cfg) {
        Model m = new Model(null);
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            ManagementPacket wr = request(rnd, NmpType.EEP_WRITE_REQ, List.of(0x100, 0x200, 0x300), List.of(1, 2, 3));
            d.submit(wr.toBits());
            // let the first byte complete (write + polling), then cut the E2PROM off the bus
            String idx = d.dut.eep.path() + ".idx";
            d.tb.runUntil("the first byte written and EepAccess on the second", () -> d.sim.peek(d.dut.eeprom.pointer) == 0x101
                    && !d.sim.peekBool(d.dut.eeprom.busy) && d.sim.peek(idx) == 1, BUDGET);
            d.sim.poke(d.dut.eepromOff, 1);
            assertError(d.await(), wr.toBits(), ErrorCode.EEPROM_NACK, 1);
            d.sim.poke(d.dut.eepromOff, 0);
            m.mem[0x100] = 1;
            ManagementPacket back = simpleRead(rnd, 0x100, 0x200);
            assertThat(d.send(back).bits()).isEqualTo(back.response(ME, m.apply(back)).toBits());
        }
    }

    @Test
    void timeoutWhenSclIsStuckLowAndRecoveryAfterwards(RunConfig cfg) {
        Model m = new Model(null);
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            ManagementPacket rd = simpleRead(rnd, 0x40, 0x41, 0x42);
            d.sim.poke(d.dut.sclStuck, 1);
            EepDriver.Result r = d.send(rd);
            assertError(r, rd.toBits(), ErrorCode.EEPROM_TIMEOUT, 0);
            assertThat(r.latency()).isBetween(P.timeoutCycles(), P.timeoutCycles() + 5);
            d.sim.poke(d.dut.sclStuck, 0);
            assertThat(d.send(rd).bits()).isEqualTo(rd.response(ME, m.apply(rd)).toBits());
        }
    }

    @Test
    void timeoutWhenTheWriteCycleNeverEndsDuringAcknowledgePolling(RunConfig cfg) {
        // the part's write cycle (2 ms) outlasts the 200 us watchdog: polling gives up on the first byte
        EepParams slowPart = P.withWriteCycleNs(2_000_000);
        try (EepDriver<EepHarness> d = driver(cfg, slowPart, null)) {
            RandomGenerator rnd = d.tb.rng("stimulus");
            ManagementPacket wr = request(rnd, NmpType.EEP_WRITE_REQ, List.of(0x10, 0x11), List.of(0xAB, 0xCD));
            EepDriver.Result r = d.send(wr);
            assertError(r, wr.toBits(), ErrorCode.EEPROM_TIMEOUT, 0);
            assertThat(r.latency()).isLessThanOrEqualTo(P.timeoutCycles() + 5);
            // while the part is still busy a read is NACKed, afterwards it sees the byte
            ManagementPacket rd = simpleRead(rnd, 0x10);
            assertError(d.send(rd), rd.toBits(), ErrorCode.EEPROM_NACK, 0);
            d.tb.runUntil("the end of the write cycle", () -> !d.sim.peekBool(d.dut.eeprom.busy), 30_000);
            ManagementPacket ok = simpleRead(rnd, 0x10, 0x11);
            EepromPayload p = (EepromPayload) d.send(ok).packet().payload();
            assertThat(p.data()).containsExactly(0xAB, 0xFF);
        }
    }

    @Test
    void responsesGoBackAlongTheReturnRoute(RunConfig cfg) {
        try (EepDriver<EepHarness> d = driver(cfg, P, null)) {
            ManagementPacket req = ManagementPacket.builder()
                    .route(new RoutingField(List.of(3, 7))).hopPtr(2).returnRoute(new RoutingField(List.of(1, 2, 9)))
                    .destType(ChipType.NRC).destId(ME).srcType(ChipType.NIC).srcId(0x0304)
                    .destVp(5).srcVp(6).transactionId(0xBEEF).nmpType(NmpType.EEP_READ_REQ)
                    .payload(EepromPayload.of(0x0001)).build();
            ManagementPacket resp = d.send(req).packet();
            assertThat(resp.route()).isEqualTo(new RoutingField(List.of(1, 2, 9)));
            assertThat(resp.hopPtr()).isZero();
            assertThat(resp.destId()).isEqualTo(0x0304);
            assertThat(resp.srcId()).isEqualTo(ME);
            assertThat(resp.transactionId()).isEqualTo(0xBEEF);
        }
    }
}
