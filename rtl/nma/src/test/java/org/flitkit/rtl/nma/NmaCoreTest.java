package org.flitkit.rtl.nma;

import org.flitkit.testbench.stream.LatencyMonitor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.rtl.nma.NmaRegisters.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The NMA core with the E2PROM seam open: random good and broken traffic under gaps and backpressure
 * answered like the register model, the distributor model and an E2PROM model on the seam; in-band
 * CHIP_ID, fault reports, error codes, and the documented latency (docs/th2-nma.md, "Latency").
 */
@ExtendWith(TestbenchExtension.class)
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

    /**
     * The verification environment: a core after reset with every chip hook driven by a random constant
     * (mirrored in the model); a source on {@code in} and a sink on {@code out} (20 % gaps and backpressure
     * until a test changes them), monitors on both, and every packet the core sends in {@link #received}.
     */
    record Env(Testbench<NmaCore> tb, NmaCore core, RegModel model, StreamSource source, StreamSink sink,
               StreamMonitor requests, StreamMonitor answers, List<BigInteger> received) implements AutoCloseable {
        static Env create(ChipType chip, RunConfig cfg) {
            Testbench<NmaCore> tb = Testbench.create(() -> NmaCoreTest.core(chip), cfg);
            NmaCore c = tb.dut();
            RegModel m = new RegModel(chip, chip.registerAddressBits(), c.regMap);
            m.set(CHIP_TYPE, chip.code());
            m.set(NMA_VERSION, VERSION);
            m.set(PORT_COUNT, NmaDoc.defaultPorts(chip));
            RandomGenerator rnd = tb.rng("hooks");
            for (String h : c.chipHooks()) {
                long v = rnd.nextLong();
                tb.sim().poke(c.hw(h), new BigInteger(Long.toUnsignedString(v)));
                m.set(h, v);
            }
            StreamPort in = StreamPort.of(c.in);
            StreamPort out = StreamPort.of(c.out);
            StreamSource source = tb.add(new StreamSource("source", in).gaps(Throttle.busy(0.2)));
            StreamSink sink = tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(0.2)));
            StreamMonitor requests = tb.add(new StreamMonitor("in_monitor", in));
            List<BigInteger> received = new ArrayList<>();
            StreamMonitor answers = tb.add(new StreamMonitor("out_monitor", out)).subscribe(received::add);
            tb.reset(1);
            return new Env(tb, c, m, source, sink, requests, answers, received);
        }

        /** Sends requests one after the other and returns everything the core sends until 30 cycles after it took the last. */
        List<BigInteger> exchange(List<ManagementPacket> reqs) {
            int from = received.size();
            reqs.forEach(r -> source.send(TestPackets.big(r)));
            tb.runUntil("the core to take " + reqs.size() + " requests", source::idle, 1000);
            tb.run(30);
            return List.copyOf(received.subList(from, received.size()));
        }

        Simulator sim() {
            return tb.sim();
        }

        @Override
        public void close() {
            tb.close();
        }
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
    void randomTrafficUnderBackpressureIsAnsweredLikeTheModel(ChipType chip, RunConfig cfg) {
        try (Env b = Env.create(chip, cfg.part(chip.name()))) {
            Testbench<NmaCore> tb = b.tb();
            NmaCore c = b.core();
            b.source().gaps(Throttle.busy(0.5));
            b.sink().backpressure(Throttle.busy(0.5));
            int me = Th2.CHIP_ID_ANY;
            RandomGenerator rnd = tb.rng("packets");
            // every answer the core should send, by TransactionID; register answers from the model, E2PROM
            // answers from the E2PROM model below (it answers from the request bits alone)
            Map<Long, BitVector> expected = new HashMap<>();
            Map<Long, BitVector> toEeprom = new HashMap<>();
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
                    case REG -> expected.put((long) tid, b.model().answer(p, me));
                    case ERR -> expected.put((long) tid, d.err());
                    case EEP -> {
                        toEeprom.put((long) tid, p);
                        expected.put((long) tid, eepAnswer(p, chip, me));
                    }
                    default -> drops.merge(d.where().name(), 1, Integer::sum);
                }
                b.source().send(p.toBigInteger());
                tid++;
            }
            OutOfOrderScoreboard<Long, BitVector> answers = tb.add(new OutOfOrderScoreboard<>("answers", a -> a.get(TID)));
            answers.format(TestPackets::show);
            OutOfOrderScoreboard<Long, BitVector> eepRequests = tb.add(new OutOfOrderScoreboard<>("eep_requests", a -> a.get(TID)));
            eepRequests.format(TestPackets::show);
            b.requests().subscribe(v -> {
                long t = TestPackets.bits(v).get(TID);
                if (expected.containsKey(t)) {
                    answers.expect(expected.get(t));
                }
                if (toEeprom.containsKey(t)) {
                    eepRequests.expect(toEeprom.get(t));
                }
            });
            b.answers().subscribe(v -> answers.observe(TestPackets.bits(v)));
            // the E2PROM side of the seam: checks what leaves on eepReq and answers it on eepResp
            StreamPort eepReq = StreamPort.of(c.eepReq);
            StreamPort eepResp = StreamPort.of(c.eepResp);
            tb.add(new StreamSink("eep_req_sink", eepReq).backpressure(Throttle.busy(0.3)));
            StreamSource eeprom = tb.add(new StreamSource("eeprom", eepResp).gaps(Throttle.busy(0.5)));
            tb.add(new StreamMonitor("eep_resp_monitor", eepResp));
            tb.add(new StreamMonitor("eep_req_monitor", eepReq).subscribe(v -> {
                BitVector q = TestPackets.bits(v);
                eepRequests.observe(q);
                eeprom.send(eepAnswer(q, chip, me).toBigInteger());
            }));
            tb.runUntil("every request taken and answered", () -> b.source().idle() && answers.isEmpty(), 100_000);
            tb.run(20); // the drop counters of the last packets
            tb.finish();
            assertThat(answers.matched()).isEqualTo(expected.size());
            assertThat(eepRequests.matched()).as("E2PROM requests").isEqualTo(toEeprom.size()).isPositive();
            assertThat(b.sim().peek(c.regs.hw(NMP_CRC_ERRORS))).isEqualTo((long) drops.getOrDefault("DROP_CRC", 0));
            assertThat(b.sim().peek(c.regs.hw(NMP_MALFORMED_DROPS))).isEqualTo((long) drops.getOrDefault("DROP_MALFORMED", 0));
            assertThat(b.sim().peek(c.regs.hw(NMP_DESTID_DROPS))).isEqualTo((long) drops.getOrDefault("DROP_DESTID", 0));
            assertThat(b.sim().peek(c.regs.hw(NMP_REQUESTS))).isEqualTo(expected.size());
        }
    }

    /**
     * What the E2PROM model on the seam answers: a read returns the low byte of each address, a write is
     * acknowledged; a payload eep_access cannot decode gets RESERVED_NOT_ZERO (index 7), as eep_access does.
     */
    static BitVector eepAnswer(BitVector q, ChipType chip, int me) {
        try {
            ManagementPacket r = ManagementPacket.parse(q);
            EepromPayload ep = (EepromPayload) r.payload();
            return r.nmpType() == NmpType.EEP_READ_REQ
                    ? r.response(me, ep.answeredWith(ep.addresses().stream().map(x -> x & 0xFF).toList())).toBits()
                    : r.response(me, ep.withoutData()).toBits();
        } catch (IllegalArgumentException e) {
            return ManagementPacket.errorResponseTo(q, chip, me, ErrorCode.RESERVED_NOT_ZERO, 7).toBits();
        }
    }

    @Test
    void chipIdIsConfiguredInBandAndThenFiltersDestId(RunConfig cfg) {
        try (Env b = Env.create(ChipType.NIC, cfg)) {
            Simulator sim = b.sim();
            NmaCore c = b.core();
            RandomGenerator rnd = b.tb().rng("headers");
            assertThat(sim.peek(c.chipId)).isEqualTo(Th2.CHIP_ID_ANY);
            ManagementPacket toMe = req(rnd, ChipType.NIC, 0x1234, NmpType.REG_READ_REQ, RegisterPayload.of(0x008));
            ManagementPacket toAny = req(rnd, ChipType.NIC, Th2.CHIP_ID_ANY, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x000, 0x1234));
            ManagementPacket other = req(rnd, ChipType.NIC, 0x5555, NmpType.REG_READ_REQ, RegisterPayload.of(0x008));
            List<BigInteger> got = b.exchange(List.of(toMe, toAny, toMe, other, toAny));
            assertThat(got).hasSize(3);
            assertThat(TestPackets.parse(got.get(0)).srcId()).as("answered by the unconfigured chip").isEqualTo(Th2.CHIP_ID_ANY);
            assertThat(TestPackets.bits(got.get(1))).isEqualTo(toMe.response(0x1234, RegisterPayload.of(0x008).answeredWith(List.of(0L))).toBits());
            assertThat(TestPackets.parse(got.get(2)).srcId()).isEqualTo(0x1234);
            assertThat(sim.peek(c.chipId)).isEqualTo(0x1234);
            assertThat(sim.peek(c.regs.hw(NMP_DESTID_DROPS))).isEqualTo(2);
            sim.poke(c.extDestIdDrop, 1);
            sim.poke(c.extCrcDrop, 1);
            b.tb().run(1);
            sim.poke(c.extDestIdDrop, 0);
            sim.poke(c.extCrcDrop, 0);
            assertThat(sim.peek(c.regs.hw(NMP_DESTID_DROPS))).isEqualTo(3);
            assertThat(sim.peek(c.regs.hw(NMP_CRC_ERRORS))).isEqualTo(1);
        }
    }

    @Test
    void faultReportsAreConfiguredByRegistersAndPendingBitsClearByWritingOne(RunConfig cfg) {
        ChipType chip = ChipType.NRC;
        try (Env b = Env.create(chip, cfg)) {
            Simulator sim = b.sim();
            NmaCore c = b.core();
            RandomGenerator rnd = b.tb().rng("headers");
            int me = Th2.CHIP_ID_ANY;
            RoutingField route = RoutingField.of(5, 6, 7);
            BigInteger r = route.encode().toBigInteger();
            long lo = r.longValue();
            long hi = r.shiftRight(64).longValue();
            long dest = 0x0099L | 12L << REPORT_DEST_VP_LSB;
            int linkDownPort1 = 1;
            List<BigInteger> got = b.exchange(List.of(
                    req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x013, lo, 0x014, hi)),
                    req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x015, dest, 0x010, 1L << FaultCode.LINK_DOWN.code()))));
            assertThat(got).hasSize(2);
            sim.poke(c.faults, 1L << linkDownPort1);
            long riseCycle = sim.peek(c.regs.hw(CYCLE_COUNT));
            b.tb().run(1);
            List<BigInteger> reports = b.exchange(List.of(req(rnd, chip, me, NmpType.REG_READ_REQ, RegisterPayload.of(0x018, 0x012))));
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
            List<BigInteger> after = b.exchange(List.of(
                    req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x018, -1L)),
                    req(rnd, chip, me, NmpType.REG_READ_REQ, RegisterPayload.of(0x018, 0x016))));
            assertThat(((RegisterPayload) TestPackets.parse(after.get(1)).payload()).data()).containsExactly(0L, 1L);
            // a masked fault: no pending bit, no report
            b.exchange(List.of(req(rnd, chip, me, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x011, 1L << FaultCode.LINK_DEGRADED.code()))));
            sim.poke(c.faults, 1L << linkDownPort1 | 1L << 2);
            b.tb().run(3);
            List<BigInteger> masked = b.exchange(List.of(req(rnd, chip, me, NmpType.REG_READ_REQ, RegisterPayload.of(0x018))));
            assertThat(masked).hasSize(1);
            assertThat(((RegisterPayload) TestPackets.parse(masked.get(0)).payload()).data()).containsExactly(0L);
        }
    }

    /**
     * docs/th2-nma.md, "Latency", NmaCore from {@code in} to {@code out}: from the cycle a request is taken to
     * the first cycle its answer is offered, output always ready: a read 3 cycles for one register and 4 for
     * two, a write 2 cycles for one or two (answered when reg_access accepts it, before its RegBus writes).
     */
    @Test
    void readsAnswerInThreeAndFourCyclesWritesOnAcceptanceInTwo(RunConfig cfg) {
        ChipType chip = ChipType.NRC;
        try (Env b = Env.create(chip, cfg)) {
            b.source().gaps(Throttle.NONE);
            b.sink().backpressure(Throttle.NONE);
            LatencyMonitor latency = b.tb().add(new LatencyMonitor("latency", StreamPort.of(b.core().in), StreamPort.of(b.core().out)));
            RandomGenerator rnd = b.tb().rng("headers");
            List<ManagementPacket> reqs = List.of(
                    req(rnd, chip, 0xFFFF, NmpType.REG_READ_REQ, RegisterPayload.of(0x008)),
                    req(rnd, chip, 0xFFFF, NmpType.REG_READ_REQ, RegisterPayload.of(0x008, 0x009)),
                    req(rnd, chip, 0xFFFF, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x008, 1)),
                    req(rnd, chip, 0xFFFF, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x008, 1, 0x009, 2)));
            List<LatencyMonitor.Answer> answers = latency.oneAtATime(b.source(), reqs.stream().map(TestPackets::big).toList(), 100);
            for (int i = 0; i < reqs.size(); i++) {
                assertThat(TestPackets.bits(answers.get(i).beat())).as("answer %d", i)
                        .isEqualTo(b.model().answer(reqs.get(i).toBits(), Th2.CHIP_ID_ANY));
            }
            assertThat(answers.stream().map(LatencyMonitor.Answer::cycles))
                    .as("read1, read2, write1, write2").containsExactly(3L, 4L, 2L, 2L);
        }
    }

    @Test
    void badCountAndUnmappedThroughTheCoreCarryTheirErrorCodes(RunConfig cfg) {
        try (Env b = Env.create(ChipType.NIC, cfg)) {
            RandomGenerator rnd = b.tb().rng("headers");
            ManagementPacket unmapped = req(rnd, ChipType.NIC, 0xFFFF, NmpType.REG_READ_REQ, RegisterPayload.of(0x7FF));
            ManagementPacket ro = req(rnd, ChipType.NIC, 0xFFFF, NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x001, 1));
            List<BigInteger> got = b.exchange(List.of(unmapped, ro));
            assertThat(((ErrorPayload) TestPackets.parse(got.get(0)).payload()).error()).isEqualTo(ErrorCode.UNMAPPED_ADDRESS);
            assertThat(((ErrorPayload) TestPackets.parse(got.get(1)).payload()).error()).isEqualTo(ErrorCode.READ_ONLY);
            assertThat(TestPackets.bits(got.get(1))).isEqualTo(ro.errorResponse(0xFFFF, ErrorCode.READ_ONLY, 0).toBits());
        }
    }

    static ManagementPacket req(RandomGenerator rnd, ChipType chip, int dest, NmpType t, RegisterPayload p) {
        return TestPackets.header(rnd, chip, dest).nmpType(t).payload(p).build();
    }
}
