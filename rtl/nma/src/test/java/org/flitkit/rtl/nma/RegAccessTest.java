package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.rtl.nma.hw.PacketBits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RegAccessTest {
    static final int ME = 0x0A0B;

    /** reg_access driving a register file; the file's hardware inputs are top-level inputs. */
    static final class Top extends Module {
        final Decoupled<UInt> in = input(PacketBits.packetStream());
        final Decoupled<UInt> out = output(PacketBits.packetStream());
        final UInt chipId = input(UInt(16));
        final RegAccess ra;
        final RegisterFile rf;
        final Map<String, UInt> hw = new LinkedHashMap<>();

        Top(int addrBits, List<RegDef> defs) {
            ra = instance(new RegAccess(addrBits));
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

    record Bench(Simulator sim, Top top, RegModel model) {
    }

    static Bench bench(ChipType chip, Random rnd) {
        int addrBits = chip.registerAddressBits();
        List<RegDef> defs = defs(chip);
        Simulator sim = Simulator.of(() -> new Top(addrBits, defs));
        Top t = (Top) sim.circuit().top();
        RegModel m = new RegModel(chip, addrBits, defs);
        sim.reset();
        sim.poke(t.chipId, ME);
        for (Map.Entry<String, UInt> e : t.hw.entrySet()) {
            long v = m.byAddr.values().stream().filter(d -> d.name().equals(e.getKey())).findFirst().orElseThrow().access()
                    == RegDef.Access.RO ? rnd.nextLong() : 0;
            sim.poke(e.getValue(), BigInteger.valueOf(v).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
            m.set(e.getKey(), v);
        }
        return new Bench(sim, t, m);
    }

    @ParameterizedTest
    @EnumSource(ChipType.class)
    void randomRequestsUnderBackpressureMatchTheModel(ChipType chip, @TempDir Path dir) {
        Random rnd = new Random(1000 + chip.ordinal());
        Bench b = bench(chip, rnd);
        Simulator sim = b.sim();
        sim.startVcd(dir.resolve("reg_access.vcd"));
        List<RegDef> defs = defs(chip);
        Streams.Source src = new Streams.Source(sim, b.top().in, rnd, 0.6);
        Streams.Sink sink = new Streams.Sink(sim, b.top().out, rnd, 0.5);
        List<BitVector> expected = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            BitVector req = b.model().randomRequest(rnd, ME, defs);
            src.add(req.toBigInteger());
            expected.add(b.model().answer(req, ME));
        }
        Streams.run(sim, 20_000, () -> sink.received.size() == expected.size(), src, sink);
        sim.stopVcd();
        java.util.EnumMap<ErrorCode, Integer> seen = new java.util.EnumMap<>(ErrorCode.class);
        for (int i = 0; i < expected.size(); i++) {
            BitVector got = TestPackets.bits(sink.received.get(i));
            assertThat(got).as("answer %d", i).isEqualTo(expected.get(i));
            ManagementPacket p = ManagementPacket.parse(got);
            if (p.payload() instanceof ErrorPayload e) {
                seen.merge(e.error(), 1, Integer::sum);
            }
        }
        List<ErrorCode> paths = new ArrayList<>(List.of(ErrorCode.BAD_COUNT, ErrorCode.RESERVED_NOT_ZERO,
                ErrorCode.UNMAPPED_ADDRESS, ErrorCode.READ_ONLY));
        if (chip == ChipType.NIC) {
            paths.add(ErrorCode.ADDRESS_OUT_OF_RANGE);
        }
        assertThat(seen.keySet()).as("error paths exercised").containsAll(paths);
    }

    @Test
    void writesLandReadsReturnThemAndW1cClears() {
        Random rnd = new Random(5);
        Bench b = bench(ChipType.NRC, rnd);
        Simulator sim = b.sim();
        Top t = b.top();
        // hardware sets pending bits, software reads them and clears some with a write of 1s
        sim.poke(t.hw.get("FAULT_PENDING0"), 0b1011L);
        sim.step();
        sim.poke(t.hw.get("FAULT_PENDING0"), 0);
        b.model().set("FAULT_PENDING0", 0b1011L);
        int pend = NmaRegisters.FAULT_PENDING_BASE;
        List<ManagementPacket> reqs = List.of(
                write(rnd, 0x008, 0x1122334455667788L),
                write2(rnd, 0x009, -1L, 0x000, 0x0102L),
                read2(rnd, 0x008, 0x009),
                read(rnd, 0x000),
                read(rnd, pend),
                write(rnd, pend, 0b0011L),
                read(rnd, pend));
        Streams.Source src = new Streams.Source(sim, t.in, rnd, 1.0);
        Streams.Sink sink = new Streams.Sink(sim, t.out, rnd, 1.0);
        List<BitVector> expected = new ArrayList<>();
        for (ManagementPacket r : reqs) {
            src.add(TestPackets.big(r));
            expected.add(b.model().answer(r.toBits(), ME));
        }
        Streams.run(sim, 1000, () -> sink.received.size() == reqs.size(), src, sink);
        for (int i = 0; i < reqs.size(); i++) {
            assertThat(TestPackets.bits(sink.received.get(i))).as("answer %d", i).isEqualTo(expected.get(i));
        }
        List<Long> scratch = ((RegisterPayload) TestPackets.parse(sink.received.get(2)).payload()).data();
        assertThat(scratch).containsExactly(0x1122334455667788L, -1L);
        assertThat(((RegisterPayload) TestPackets.parse(sink.received.get(4)).payload()).data()).containsExactly(0b1011L);
        assertThat(((RegisterPayload) TestPackets.parse(sink.received.get(6)).payload()).data()).containsExactly(0b1000L);
        assertThat(sim.peek(t.rf.value("CHIP_ID"))).isEqualTo(0x0102);
    }

    @Test
    void aFailedSecondAccessReportsIndexOneAfterTheFirstWrite() {
        Random rnd = new Random(6);
        Bench b = bench(ChipType.NRC, rnd);
        Simulator sim = b.sim();
        Top t = b.top();
        ManagementPacket w = write2(rnd, 0x008, 77L, 0x001, 5L); // CHIP_TYPE is read-only
        Streams.Source src = new Streams.Source(sim, t.in, rnd, 1.0).add(TestPackets.big(w));
        Streams.Sink sink = new Streams.Sink(sim, t.out, rnd, 1.0);
        BitVector expected = b.model().answer(w.toBits(), ME);
        Streams.run(sim, 100, () -> sink.received.size() == 1, src, sink);
        ErrorPayload e = (ErrorPayload) TestPackets.parse(sink.received.get(0)).payload();
        assertThat(e.error()).isEqualTo(ErrorCode.READ_ONLY);
        assertThat(e.index()).isEqualTo(1);
        assertThat(TestPackets.bits(sink.received.get(0))).isEqualTo(expected);
        assertThat(sim.peek(t.rf.value("SCRATCH0"))).as("the first write landed").isEqualTo(77L);
    }

    /** Cycles from the request's transfer into reg_access to the first cycle its answer is offered. */
    static long latency(ManagementPacket req) {
        Random rnd = new Random(1);
        Bench b = bench(ChipType.NRC, rnd);
        Streams.Source src = new Streams.Source(b.sim(), b.top().in, rnd, 1.0).add(TestPackets.big(req));
        Streams.Sink sink = new Streams.Sink(b.sim(), b.top().out, rnd, 1.0);
        Streams.run(b.sim(), 100, () -> sink.received.size() == 1, src, sink);
        assertThat(TestPackets.parse(sink.received.get(0)).nmpType()).isEqualTo(req.nmpType().responseType());
        return sink.offeredAt.get(0) - src.firedAt.get(0);
    }

    @Test
    void twoRegistersTakeLongerThanOneButLessThanTwice() {
        Random rnd = new Random(2);
        long r1 = latency(read(rnd, 0x008));
        long r2 = latency(read2(rnd, 0x008, 0x009));
        long w1 = latency(write(rnd, 0x008, 1));
        long w2 = latency(write2(rnd, 0x008, 1, 0x009, 2));
        System.out.printf("reg_access latency (request accepted -> response offered): read1=%d read2=%d write1=%d write2=%d%n",
                r1, r2, w1, w2);
        assertThat(r2).isGreaterThan(r1).isLessThan(2 * r1);
        assertThat(w2).isGreaterThan(w1).isLessThan(2 * w1);
        assertThat(w1).isLessThanOrEqualTo(r1);
    }

    static ManagementPacket.Builder hdr(Random rnd) {
        return TestPackets.header(rnd, ChipType.NRC, ME);
    }

    static ManagementPacket read(Random rnd, int a) {
        return hdr(rnd).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(a)).build();
    }

    static ManagementPacket read2(Random rnd, int a, int b) {
        return hdr(rnd).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(a, b)).build();
    }

    static ManagementPacket write(Random rnd, int a, long v) {
        return hdr(rnd).nmpType(NmpType.REG_WRITE_REQ).payload(RegisterPayload.withData(a, v)).build();
    }

    static ManagementPacket write2(Random rnd, int a, long v, int b, long w) {
        return hdr(rnd).nmpType(NmpType.REG_WRITE_REQ).payload(RegisterPayload.withData(a, v, b, w)).build();
    }
}
