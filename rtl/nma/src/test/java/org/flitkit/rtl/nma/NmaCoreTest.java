package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.rtl.nma.NmaRegisters.*;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.Field;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NmaCoreTest {
    static final List<FaultSource> FAULTS = ActiveReportTest.SOURCES;
    static final Field TID = PacketLayout.BODY1.TRANSACTION_ID;

    static List<RegDef> chipRegs(ChipType chip) {
        List<RegDef> l = new ArrayList<>(portBanks(NmaDoc.defaultPorts(chip)));
        l.add(RegDef.rw("CHIP_CONFIG", CHIP_BASE, 0x5A, "a chip-specific configuration register"));
        l.add(RegDef.ro("CHIP_TEMPERATURE", CHIP_BASE + 1, "a chip-specific status register"));
        return l;
    }

    static NmaCore core(ChipType chip) {
        return new NmaCore(chip, chip.registerAddressBits(), NmaDoc.defaultPorts(chip), FAULTS, chipRegs(chip));
    }

    record Bench(Simulator sim, NmaCore core, RegModel model) {
    }

    /** A core after reset with every chip hook driven by a random constant (mirrored in the model). */
    static Bench bench(ChipType chip, Random rnd) {
        Simulator sim = Simulator.of(() -> core(chip));
        NmaCore c = (NmaCore) sim.circuit().top();
        sim.reset();
        RegModel m = new RegModel(chip, chip.registerAddressBits(), c.regMap);
        m.set(CHIP_TYPE, chip.code());
        m.set(NMA_VERSION, VERSION);
        m.set(PORT_COUNT, NmaDoc.defaultPorts(chip));
        for (String h : c.chipHooks()) {
            long v = rnd.nextLong();
            sim.poke(c.hw(h), new BigInteger(Long.toUnsignedString(v)));
            m.set(h, v);
        }
        return new Bench(sim, c, m);
    }

    /** Registers whose value changes by itself (counters, status) or whose write changes the core's addressing. */
    static boolean volatileAccess(BitVector req, RegModel m) {
        Set<String> moving = Set.of(CYCLE_COUNT, NMP_REQUESTS, NMP_CRC_ERRORS, NMP_DESTID_DROPS, NMP_MALFORMED_DROPS,
                FAULT_STATUS, REPORT_SEQ, "FAULT_PENDING0", CHIP_ID);
        BitVector nmp = req.slice(PacketLayout.BODY2.NMP_DATA);
        for (int i = 0; i < 2; i++) {
            RegDef d = m.byAddr.get((int) nmp.get(RegModel.L.addr(i)));
            if (d != null && moving.contains(d.name())) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest
    @EnumSource(ChipType.class)
    void randomTrafficUnderBackpressureIsAnsweredLikeTheModel(ChipType chip, @TempDir Path dir) {
        Random rnd = new Random(2024 + chip.ordinal());
        Bench b = bench(chip, rnd);
        Simulator sim = b.sim();
        NmaCore c = b.core();
        sim.startVcd(dir.resolve("nma_core.vcd"));
        int me = Th2.CHIP_ID_ANY;
        Streams.Source src = new Streams.Source(sim, c.in, rnd, 0.5);
        Streams.Sink out = new Streams.Sink(sim, c.out, rnd, 0.5);
        Streams.Sink eepReq = new Streams.Sink(sim, c.eepReq, rnd, 0.7);
        Streams.Source eepResp = new Streams.Source(sim, c.eepResp, rnd, 0.5);
        Map<Integer, BitVector> expected = new LinkedHashMap<>();
        Map<String, Integer> drops = new HashMap<>();
        int tid = 0;
        while (tid < 500) {
            BitVector p = rnd.nextBoolean() ? b.model().randomRequest(rnd, me, c.regMap) : DistModel.randomPacket(rnd, chip, me);
            if (p.get(PacketLayout.BODY1.NMP_TYPE) >> 3 == 1 && volatileAccess(p, b.model())) {
                continue;
            }
            p = PacketLayout.withCrc(p.with(TID, tid)).with(PacketLayout.CRC, PacketLayout.crcMatches(p) ? PacketLayout.crcOf(p.with(TID, tid)) & 0xFFFFFFFFL : 0);
            DistModel.Decision d = DistModel.decide(p, chip, me);
            switch (d.where()) {
                case REG -> expected.put(tid, b.model().answer(p, me));
                case ERR -> expected.put(tid, d.err());
                case EEP -> expected.put(tid, null);
                default -> drops.merge(d.where().name(), 1, Integer::sum);
            }
            src.add(p.toBigInteger());
            tid++;
        }
        List<BitVector> eepAnswers = new ArrayList<>();
        Streams.Endpoint eepModel = new Streams.Endpoint() {
            int seen;

            @Override
            public void drive() {
            }

            @Override
            public void sample() {
                while (seen < eepReq.received.size()) {
                    BitVector q = TestPackets.bits(eepReq.received.get(seen++));
                    BitVector a;
                    try {
                        ManagementPacket r = ManagementPacket.parse(q);
                        EepromPayload ep = (EepromPayload) r.payload();
                        a = r.nmpType() == NmpType.EEP_READ_REQ
                                ? r.response(me, ep.answeredWith(ep.addresses().stream().map(x -> x & 0xFF).toList())).toBits()
                                : r.response(me, ep.withoutData()).toBits();
                    } catch (IllegalArgumentException e) { // what eep_access answers to a malformed payload
                        a = ManagementPacket.errorResponseTo(q, chip, me, ErrorCode.RESERVED_NOT_ZERO, 7).toBits();
                    }
                    eepAnswers.add(a);
                    eepResp.add(a.toBigInteger());
                    expected.put((int) q.get(TID), a);
                }
            }
        };
        long expectedOut = expected.size();
        long[] idle = new long[1];
        Streams.run(sim, 100_000, () -> out.received.size() == expectedOut && idle[0]++ > 20, src, out, eepReq, eepModel, eepResp);
        sim.stopVcd();
        assertThat(out.received).hasSize((int) expectedOut);
        List<Integer> regOrder = new ArrayList<>();
        for (BigInteger got : out.received) {
            BitVector g = TestPackets.bits(got);
            int t = (int) g.get(TID);
            assertThat(g).as("answer to request %d", t).isEqualTo(expected.get(t));
            if (TestPackets.parse(got).nmpType().target() == NmpType.Target.REGISTER) {
                regOrder.add(t);
            }
        }
        assertThat(eepAnswers).isNotEmpty();
        assertThat(sim.peek(c.regs.hw(NMP_CRC_ERRORS))).isEqualTo((long) drops.getOrDefault("DROP_CRC", 0));
        assertThat(sim.peek(c.regs.hw(NMP_MALFORMED_DROPS))).isEqualTo((long) drops.getOrDefault("DROP_MALFORMED", 0));
        assertThat(sim.peek(c.regs.hw(NMP_DESTID_DROPS))).isEqualTo((long) drops.getOrDefault("DROP_DESTID", 0));
        assertThat(sim.peek(c.regs.hw(NMP_REQUESTS))).isEqualTo(expectedOut);
    }

    @Test
    void chipIdIsConfiguredInBandAndThenFiltersDestId() {
        Random rnd = new Random(8);
        Bench b = bench(ChipType.NIC, rnd);
        Simulator sim = b.sim();
        NmaCore c = b.core();
        assertThat(sim.peek(c.chipId)).isEqualTo(Th2.CHIP_ID_ANY);
        ManagementPacket toMe = req(rnd, ChipType.NIC, 0x1234, NmpType.REG_READ_REQ, RegisterPayload.of(0x008));
        ManagementPacket toAny = req(rnd, ChipType.NIC, Th2.CHIP_ID_ANY, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x000, 0x1234));
        ManagementPacket other = req(rnd, ChipType.NIC, 0x5555, NmpType.REG_READ_REQ, RegisterPayload.of(0x008));
        List<BigInteger> got = exchange(b, rnd, List.of(toMe, toAny, toMe, other, toAny));
        assertThat(got).hasSize(3);
        assertThat(TestPackets.parse(got.get(0)).srcId()).as("answered by the unconfigured chip").isEqualTo(Th2.CHIP_ID_ANY);
        assertThat(TestPackets.bits(got.get(1))).isEqualTo(toMe.response(0x1234, RegisterPayload.of(0x008).answeredWith(List.of(0L))).toBits());
        assertThat(TestPackets.parse(got.get(2)).srcId()).isEqualTo(0x1234);
        assertThat(sim.peek(c.chipId)).isEqualTo(0x1234);
        assertThat(sim.peek(c.regs.hw(NMP_DESTID_DROPS))).isEqualTo(2);
        sim.poke(c.extDestIdDrop, 1);
        sim.poke(c.extCrcDrop, 1);
        sim.step();
        sim.poke(c.extDestIdDrop, 0);
        sim.poke(c.extCrcDrop, 0);
        assertThat(sim.peek(c.regs.hw(NMP_DESTID_DROPS))).isEqualTo(3);
        assertThat(sim.peek(c.regs.hw(NMP_CRC_ERRORS))).isEqualTo(1);
    }

    @Test
    void faultReportsAreConfiguredByRegistersAndPendingBitsClearByWritingOne() {
        ChipType chip = ChipType.NRC;
        Random rnd = new Random(9);
        Bench b = bench(chip, rnd);
        Simulator sim = b.sim();
        NmaCore c = b.core();
        int me = Th2.CHIP_ID_ANY;
        RoutingField route = RoutingField.of(5, 6, 7);
        BigInteger r = route.encode().toBigInteger();
        long lo = r.longValue();
        long hi = r.shiftRight(64).longValue();
        long dest = 0x0099L | 12L << REPORT_DEST_VP_LSB;
        int linkDownPort1 = 1;
        List<BigInteger> got = exchange(b, rnd, List.of(
                req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x013, lo, 0x014, hi)),
                req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x015, dest, 0x010, 1L << FaultCode.LINK_DOWN.code()))));
        assertThat(got).hasSize(2);
        sim.poke(c.faults, 1L << linkDownPort1);
        long riseCycle = sim.peek(c.regs.hw(CYCLE_COUNT));
        sim.step();
        List<BigInteger> reports = exchange(b, rnd, List.of(req(rnd, chip, me, NmpType.REG_READ_REQ, RegisterPayload.of(0x018, 0x012))));
        assertThat(reports).hasSize(2);
        ManagementPacket report = TestPackets.parse(reports.get(0));
        assertThat(report.nmpType()).isEqualTo(NmpType.FAULT_REPORT);
        FaultPayload fp = (FaultPayload) report.payload();
        assertThat(reports.get(0)).isEqualTo(TestPackets.big(ManagementPacket.builder().route(route).destType(ChipType.NIC).destId(0x99)
                .srcType(chip).srcId(me).destVp(12).transactionId(0).nmpType(NmpType.FAULT_REPORT)
                .payload(FaultPayload.of(FaultCode.LINK_DOWN, 1, 1L << FaultCode.LINK_DOWN.code(), fp.timestamp())).build()));
        assertThat(fp.timestamp()).isEqualTo(riseCycle);
        RegisterPayload read = (RegisterPayload) TestPackets.parse(reports.get(1)).payload();
        assertThat(read.data()).containsExactly(1L << linkDownPort1, 1L << FaultCode.LINK_DOWN.code());
        List<BigInteger> after = exchange(b, rnd, List.of(
                req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x018, -1L)),
                req(rnd, chip, me, NmpType.REG_READ_REQ, RegisterPayload.of(0x018, 0x016))));
        assertThat(((RegisterPayload) TestPackets.parse(after.get(1)).payload()).data()).containsExactly(0L, 1L);
        // a masked fault: no pending bit, no report
        exchange(b, rnd, List.of(req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x011, 1L << FaultCode.LINK_DEGRADED.code()))));
        sim.poke(c.faults, 1L << linkDownPort1 | 1L << 2);
        sim.step(3);
        List<BigInteger> masked = exchange(b, rnd, List.of(req(rnd, chip, me, NmpType.REG_READ_REQ, RegisterPayload.of(0x018))));
        assertThat(masked).hasSize(1);
        assertThat(((RegisterPayload) TestPackets.parse(masked.get(0)).payload()).data()).containsExactly(0L);
    }

    @Test
    void latencyThroughTheCore() {
        Random rnd = new Random(10);
        ChipType chip = ChipType.NRC;
        long[] l = new long[4];
        List<ManagementPacket> reqs = List.of(
                req(rnd, chip, 0xFFFF, NmpType.REG_READ_REQ, RegisterPayload.of(0x008)),
                req(rnd, chip, 0xFFFF, NmpType.REG_READ_REQ, RegisterPayload.of(0x008, 0x009)),
                req(rnd, chip, 0xFFFF, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x008, 1)),
                req(rnd, chip, 0xFFFF, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x008, 1, 0x009, 2)));
        for (int i = 0; i < 4; i++) {
            Bench b = bench(chip, rnd);
            Streams.Source src = new Streams.Source(b.sim(), b.core().in, rnd, 1.0).add(TestPackets.big(reqs.get(i)));
            Streams.Sink out = new Streams.Sink(b.sim(), b.core().out, rnd, 1.0);
            Streams.run(b.sim(), 100, () -> out.received.size() == 1, src, out);
            l[i] = out.offeredAt.get(0) - src.firedAt.get(0);
        }
        System.out.printf("NmaCore latency (request accepted at in -> response offered at out): read1=%d read2=%d write1=%d write2=%d%n",
                l[0], l[1], l[2], l[3]);
        assertThat(l[1]).isGreaterThan(l[0]).isLessThan(2 * l[0]);
        assertThat(l[3]).isGreaterThan(l[2]).isLessThan(2 * l[2]);
    }

    @Test
    void badCountAndUnmappedThroughTheCoreCarryTheirErrorCodes() {
        Random rnd = new Random(12);
        Bench b = bench(ChipType.NIC, rnd);
        ManagementPacket unmapped = req(rnd, ChipType.NIC, 0xFFFF, NmpType.REG_READ_REQ, RegisterPayload.of(0x7FF));
        ManagementPacket ro = req(rnd, ChipType.NIC, 0xFFFF, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x001, 1));
        List<BigInteger> got = exchange(b, rnd, List.of(unmapped, ro));
        assertThat(((ErrorPayload) TestPackets.parse(got.get(0)).payload()).error()).isEqualTo(ErrorCode.UNMAPPED_ADDRESS);
        assertThat(((ErrorPayload) TestPackets.parse(got.get(1)).payload()).error()).isEqualTo(ErrorCode.READ_ONLY);
        assertThat(TestPackets.bits(got.get(1))).isEqualTo(ro.errorResponse(0xFFFF, ErrorCode.READ_ONLY, 0).toBits());
    }

    static ManagementPacket req(Random rnd, ChipType chip, int dest, NmpType t, RegisterPayload p) {
        return TestPackets.header(rnd, chip, dest).nmpType(t).payload(p).build();
    }

    /** Sends requests one after the other and collects everything the core sends until it is quiet. */
    static List<BigInteger> exchange(Bench b, Random rnd, List<ManagementPacket> reqs) {
        Streams.Source src = new Streams.Source(b.sim(), b.core().in, rnd, 0.8);
        reqs.forEach(r -> src.add(TestPackets.big(r)));
        Streams.Sink out = new Streams.Sink(b.sim(), b.core().out, rnd, 0.8);
        long[] idle = new long[1];
        Streams.run(b.sim(), 1000, () -> src.done() && idle[0]++ > 30, src, out);
        return out.received;
    }
}
