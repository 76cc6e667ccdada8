package org.flitkit.rtl.nma;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.testbench.stream.LatencyMonitor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
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
 * {@link RegAccess} with a {@link RegisterFile} behind it, against the software reference {@link RegModel}:
 * answers bit for bit under random gaps and backpressure, every error path, and the documented latency
 * (docs/th2-nma.md, "Latency").
 */
@ExtendWith(TestbenchExtension.class)
class RegAccessTest {
    static final int ME = 0x0A0B;

    /** reg_access driving a register file; the file's hardware inputs are top-level inputs. */
    static final class Harness extends Module {
        final Decoupled<UInt> in = input(PacketWords.packetStream());
        final Decoupled<UInt> out = output(PacketWords.packetStream());
        final UInt chipId = input(UInt(16));
        final RegAccess ra;
        final RegisterFile rf;
        final Map<String, UInt> hw = new LinkedHashMap<>();

        Harness(int addrBits, List<RegDef> defs) {
            ra = instance(new RegAccess(addrBits, defs));
            rf = instance(new RegisterFile(addrBits, defs));
            ra.in.connect(in);
            out.connect(ra.out);
            ra.chipId.assign(chipId);
            rf.bus.connect(ra.bus);
            for (String n : rf.hooked()) {
                UInt u = input(UInt(64)).named("hw_" + n);
                rf.hw(n).assign(u);
                hw.put(n, u);
            }
        }
    }

    static List<RegDef> defs(ChipType chip) {
        List<RegDef> l = new ArrayList<>(NmaRegisters.common(70));
        l.addAll(NmaRegisters.portBanks(chip == ChipType.NRC ? 24 : 2));
        return l;
    }

    /**
     * The verification environment: the harness after reset, RO hooks driven by random constants (mirrored in
     * the model), a source on {@code in}, a sink on {@code out}, monitors on both and a scoreboard checking
     * every answer against the model's answer to its request; no gaps or backpressure until a test sets them.
     */
    record Env(Testbench<Harness> tb, Harness dut, RegModel model, List<RegDef> defs, StreamSource source, StreamSink sink,
               StreamMonitor answers, InOrderScoreboard<BitVector> scoreboard) implements AutoCloseable {
        static Env create(ChipType chip, RunConfig cfg) {
            int addrBits = chip.registerAddressBits();
            List<RegDef> defs = RegAccessTest.defs(chip);
            Testbench<Harness> tb = Testbench.create(() -> new Harness(addrBits, defs), cfg);
            Harness h = tb.dut();
            RegModel m = new RegModel(chip, addrBits, defs);
            tb.sim().poke(h.chipId, ME);
            RandomGenerator rnd = tb.rng("hooks");
            for (Map.Entry<String, UInt> e : h.hw.entrySet()) {
                RegDef d = defs.stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElseThrow();
                long v = d.access() == RegDef.Access.RO ? rnd.nextLong() : 0;
                tb.sim().poke(e.getValue(), new BigInteger(Long.toUnsignedString(v)));
                m.set(e.getKey(), v);
            }
            StreamPort in = StreamPort.of(h.in);
            StreamPort out = StreamPort.of(h.out);
            StreamSource source = tb.add(new StreamSource("source", in));
            StreamSink sink = tb.add(new StreamSink("sink", out));
            InOrderScoreboard<BitVector> sb = tb.add(new InOrderScoreboard<>("answers"));
            sb.format(TestPackets::show);
            tb.add(new StreamMonitor("in_monitor", in)).subscribe(b -> sb.expect(m.answer(TestPackets.bits(b), ME)));
            StreamMonitor answers = tb.add(new StreamMonitor("out_monitor", out)).subscribe(b -> sb.observe(TestPackets.bits(b)));
            tb.reset(1);
            return new Env(tb, h, m, defs, source, sink, answers, sb);
        }

        /** Sends {@code reqs}, waits for their answers (checked by the scoreboard) and returns them. */
        List<BitVector> exchange(List<ManagementPacket> reqs) {
            List<BitVector> got = new ArrayList<>();
            answers.subscribe(b -> got.add(TestPackets.bits(b)));
            reqs.forEach(r -> source.send(TestPackets.big(r)));
            tb.runUntil(reqs.size() + " answers", () -> got.size() == reqs.size(), 100L * reqs.size());
            tb.finish();
            return got;
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    @ParameterizedTest
    @EnumSource(ChipType.class)
    void randomRequestsUnderBackpressureMatchTheModel(ChipType chip, RunConfig cfg) {
        try (Env env = Env.create(chip, cfg.part(chip.name()))) {
            env.source().gaps(Throttle.busy(0.4));
            env.sink().backpressure(Throttle.busy(0.5));
            InOrderScoreboard<BitVector> sb = env.scoreboard();
            EnumMap<ErrorCode, Integer> seen = new EnumMap<>(ErrorCode.class);
            env.answers().subscribe(b -> {
                if (TestPackets.parse(b).payload() instanceof ErrorPayload e) {
                    seen.merge(e.error(), 1, Integer::sum);
                }
            });
            RandomGenerator rnd = env.tb().rng("requests");
            int n = 400;
            for (int i = 0; i < n; i++) {
                env.source().send(env.model().randomRequest(rnd, ME, env.defs()).toBigInteger());
            }
            env.tb().runUntil(n + " answers", () -> sb.matched() == n, 20_000);
            env.tb().finish();
            List<ErrorCode> paths = new ArrayList<>(List.of(ErrorCode.BAD_COUNT, ErrorCode.RESERVED_NOT_ZERO,
                    ErrorCode.UNMAPPED_ADDRESS, ErrorCode.READ_ONLY));
            if (chip == ChipType.NIC) {
                paths.add(ErrorCode.ADDRESS_OUT_OF_RANGE);
            }
            assertThat(seen.keySet()).as("error paths exercised").containsAll(paths);
        }
    }

    @Test
    void writesLandReadsReturnThemAndW1cClears(RunConfig cfg) {
        try (Env env = Env.create(ChipType.NRC, cfg)) {
            Harness h = env.dut();
            env.source().gaps(Throttle.busy(0.3));
            env.sink().backpressure(Throttle.busy(0.3));
            // hardware sets pending bits, software reads them and clears some with a write of 1s
            env.tb().sim().poke(h.hw.get("FAULT_PENDING0"), 0b1011L);
            env.tb().run(1);
            env.tb().sim().poke(h.hw.get("FAULT_PENDING0"), 0);
            env.model().set("FAULT_PENDING0", 0b1011L);
            int pend = NmaRegisters.FAULT_PENDING_BASE;
            RandomGenerator rnd = env.tb().rng("headers");
            List<BitVector> got = env.exchange(List.of(
                    write(rnd, 0x008, 0x1122334455667788L),
                    write2(rnd, 0x009, -1L, 0x000, 0x0102L),
                    read2(rnd, 0x008, 0x009),
                    read(rnd, 0x000),
                    read(rnd, pend),
                    write(rnd, pend, 0b0011L),
                    read(rnd, pend)));
            assertThat(data(got.get(2))).containsExactly(0x1122334455667788L, -1L);
            assertThat(data(got.get(3))).containsExactly(0x0102L);
            assertThat(data(got.get(4))).containsExactly(0b1011L);
            assertThat(data(got.get(6))).containsExactly(0b1000L);
            assertThat(env.tb().sim().peek(h.rf.value("CHIP_ID"))).isEqualTo(0x0102);
        }
    }

    @Test
    void aFailedSecondAccessReportsIndexOneAfterTheFirstWrite(RunConfig cfg) {
        try (Env env = Env.create(ChipType.NRC, cfg)) {
            ManagementPacket w = write2(env.tb().rng("headers"), 0x008, 77L, 0x001, 5L); // CHIP_TYPE is read-only
            ErrorPayload e = (ErrorPayload) ManagementPacket.parse(env.exchange(List.of(w)).get(0)).payload();
            assertThat(e.error()).isEqualTo(ErrorCode.READ_ONLY);
            assertThat(e.index()).isEqualTo(1);
            assertThat(env.tb().sim().peek(env.dut().rf.value("SCRATCH0"))).as("the first write landed").isEqualTo(77L);
        }
    }

    /**
     * docs/th2-nma.md, "Latency", reg_access alone: from the cycle a request is taken to the first cycle its
     * answer is offered: a read 2 cycles for one register and 3 for two; a write 1 cycle for one or two,
     * answered on acceptance (spec: "a register write is answered as soon as the request is accepted").
     */
    @Test
    void readsAnswerInTwoAndThreeCyclesWritesOnAcceptanceInOne(RunConfig cfg) {
        try (Env env = Env.create(ChipType.NRC, cfg)) {
            LatencyMonitor latency = env.tb().add(new LatencyMonitor("latency", StreamPort.of(env.dut().in), StreamPort.of(env.dut().out)));
            RandomGenerator rnd = env.tb().rng("headers");
            List<ManagementPacket> reqs = List.of(read(rnd, 0x008), read2(rnd, 0x008, 0x009), write(rnd, 0x008, 1),
                    write2(rnd, 0x008, 1, 0x009, 2));
            List<LatencyMonitor.Answer> answers = latency.oneAtATime(env.source(), reqs.stream().map(TestPackets::big).toList(), 100);
            env.tb().finish();
            assertThat(env.scoreboard().matched()).isEqualTo(reqs.size());
            assertThat(answers.stream().map(LatencyMonitor.Answer::cycles))
                    .as("read1, read2, write1, write2").containsExactly(2L, 3L, 1L, 1L);
        }
    }

    static List<Long> data(BitVector answer) {
        return ((RegisterPayload) ManagementPacket.parse(answer).payload()).data();
    }

    static ManagementPacket.Builder hdr(RandomGenerator rnd) {
        return TestPackets.header(rnd, ChipType.NRC, ME);
    }

    static ManagementPacket read(RandomGenerator rnd, int a) {
        return hdr(rnd).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(a)).build();
    }

    static ManagementPacket read2(RandomGenerator rnd, int a, int b) {
        return hdr(rnd).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(a, b)).build();
    }

    static ManagementPacket write(RandomGenerator rnd, int a, long v) {
        return hdr(rnd).nmpType(NmpType.REG_WRITE_REQ).payload(RegisterPayload.withData(a, v)).build();
    }

    static ManagementPacket write2(RandomGenerator rnd, int a, long v, int b, long w) {
        return hdr(rnd).nmpType(NmpType.REG_WRITE_REQ).payload(RegisterPayload.withData(a, v, b, w)).build();
    }
}
