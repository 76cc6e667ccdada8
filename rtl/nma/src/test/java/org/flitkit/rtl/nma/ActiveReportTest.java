package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ActiveReportTest {
    static final List<FaultSource> SOURCES = List.of(
            FaultSource.of(FaultCode.LINK_DOWN, 0), FaultSource.of(FaultCode.LINK_DOWN, 1),
            FaultSource.of(FaultCode.LINK_DEGRADED, 1), FaultSource.of(FaultCode.RETRY_THRESHOLD, 23),
            FaultSource.chip(FaultCode.OVER_TEMPERATURE), FaultSource.chip(FaultCode.EEPROM_LOAD_FAILED));

    /** Cycle-accurate model of ActiveReport. */
    static final class Model {
        final ChipType chip;
        final int n = SOURCES.size();
        boolean[] prev = new boolean[n];
        boolean[] want = new boolean[n];
        long[] stamp = new long[n];
        int seq;
        boolean outValid;
        BitVector outPkt;
        final List<BitVector> sent = new ArrayList<>();

        Model(ChipType chip) {
            this.chip = chip;
        }

        static long status(boolean[] f) {
            long s = 0;
            for (int i = 0; i < f.length; i++) {
                if (f[i]) {
                    s |= 1L << SOURCES.get(i).code();
                }
            }
            return s;
        }

        /** One clock edge; returns the pending-set bits of this cycle. */
        long clock(boolean[] f, long mask, long enable, long cycle, boolean ready, RoutingField route, long dest, int chipId) {
            long pendingSet = 0;
            boolean[] report = new boolean[n];
            for (int i = 0; i < n; i++) {
                int c = SOURCES.get(i).code();
                boolean rise = f[i] && !prev[i] && (mask >>> c & 1) == 0;
                if (rise) {
                    pendingSet |= 1L << i;
                }
                report[i] = rise && (enable >>> c & 1) != 0;
            }
            int pick = -1;
            for (int i = 0; i < n && pick < 0; i++) {
                if (want[i]) {
                    pick = i;
                }
            }
            boolean build = pick >= 0 && !outValid;
            if (outValid && ready) {
                sent.add(outPkt);
                outValid = false;
            }
            if (build) {
                FaultSource s = SOURCES.get(pick);
                outPkt = ManagementPacket.builder().route(route).returnRoute(RoutingField.EMPTY)
                        .destType(ChipType.NIC).destId((int) (dest & 0xFFFF)).srcType(chip).srcId(chipId)
                        .destVp((int) (dest >>> 16 & 63)).srcVp(0).rint((dest >>> 24 & 1) != 0).transactionId(seq)
                        .nmpType(NmpType.FAULT_REPORT).payload(new FaultPayload(s.code(), s.port(), status(f), stamp[pick]))
                        .build().toBits();
                outValid = true;
                seq = (seq + 1) & 0xFFFF;
                want[pick] = false;
            }
            for (int i = 0; i < n; i++) {
                if ((pendingSet >>> i & 1) != 0) {
                    stamp[i] = cycle;
                }
                want[i] |= report[i];
                prev[i] = f[i];
            }
            return pendingSet;
        }
    }

    @Test
    void reportsEveryRisingEnabledUnmaskedFaultOnceInOrder(@TempDir Path dir) {
        ChipType chip = ChipType.NRC;
        Simulator sim = Simulator.of(() -> new ActiveReport(chip, SOURCES));
        ActiveReport a = (ActiveReport) sim.circuit().top();
        sim.reset();
        sim.startVcd(dir.resolve("active_report.vcd"));
        Random rnd = new Random(11);
        Model m = new Model(chip);
        RoutingField route = RoutingField.of(3, 17, 0, 23);
        BigInteger r = route.encode().toBigInteger();
        int chipId = 0x4321;
        long dest = 0x0042L | 7L << 16 | 1L << 24;
        sim.poke(a.routeLo, r.and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
        sim.poke(a.routeHi, r.shiftRight(64));
        sim.poke(a.dest, dest);
        sim.poke(a.chipId, chipId);
        boolean[] f = new boolean[SOURCES.size()];
        long mask = 0;
        long enable = -1L;
        List<BigInteger> got = new ArrayList<>();
        int pendingPulses = 0;
        for (int cyc = 0; cyc < 4000; cyc++) {
            for (int i = 0; i < f.length; i++) {
                if (rnd.nextDouble() < 0.03) {
                    f[i] = !f[i];
                }
            }
            if (rnd.nextDouble() < 0.01) {
                mask = rnd.nextLong() & 0x3E;
            }
            if (rnd.nextDouble() < 0.01) {
                enable = rnd.nextLong() | 0x02;
            }
            boolean ready = rnd.nextDouble() < 0.3;
            long faults = 0;
            for (int i = 0; i < f.length; i++) {
                faults |= (f[i] ? 1L : 0L) << i;
            }
            sim.poke(a.faults, faults);
            sim.poke(a.mask, BigInteger.valueOf(mask));
            sim.poke(a.enable, new BigInteger(Long.toUnsignedString(enable)));
            sim.poke(a.cycle, cyc);
            sim.poke(a.out.ready, ready);
            if (sim.peekBool(a.out.valid) && ready) {
                got.add(sim.peekBig(a.out.bits));
            }
            assertThat(sim.peek(a.status)).isEqualTo(Model.status(f));
            assertThat(sim.peek(a.seq)).isEqualTo(m.seq);
            long ps = m.clock(f, mask, enable, cyc, ready, route, dest, chipId);
            assertThat(sim.peek(a.pendingSet)).as("pending set at cycle %d", cyc).isEqualTo(ps);
            pendingPulses += Long.bitCount(ps);
            sim.step();
        }
        sim.stopVcd();
        assertThat(got).hasSize(m.sent.size());
        assertThat(m.sent.size()).isGreaterThan(50);
        assertThat(pendingPulses).isGreaterThan(m.sent.size());
        for (int i = 0; i < got.size(); i++) {
            assertThat(TestPackets.bits(got.get(i))).as("report %d", i).isEqualTo(m.sent.get(i));
            assertThat(TestPackets.parse(got.get(i)).transactionId()).isEqualTo(i);
        }
        assertThat(FlitLayouts.FLITS).hasSize(Th2.PACKET_FLITS);
    }

    @Test
    void aMaskedFaultNeitherPendsNorReports() {
        Simulator sim = Simulator.of(() -> new ActiveReport(ChipType.NIC, SOURCES));
        ActiveReport a = (ActiveReport) sim.circuit().top();
        sim.reset();
        sim.poke(a.enable, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
        sim.poke(a.mask, 1L << FaultCode.LINK_DOWN.code());
        sim.poke(a.out.ready, 1);
        sim.poke(a.faults, 0b11);
        assertThat(sim.peek(a.pendingSet)).isZero();
        assertThat(sim.peek(a.status)).isEqualTo(1L << FaultCode.LINK_DOWN.code());
        sim.step(5);
        assertThat(sim.peekBool(a.out.valid)).isFalse();
        sim.poke(a.faults, 0b111);
        assertThat(sim.peek(a.pendingSet)).isEqualTo(0b100);
        sim.step();
        sim.step();
        assertThat(sim.peekBool(a.out.valid)).isTrue();
        ManagementPacket p = TestPackets.parse(sim.peekBig(a.out.bits));
        assertThat(((FaultPayload) p.payload()).faultCode()).isEqualTo(FaultCode.LINK_DEGRADED.code());
        assertThat(p.srcType()).isEqualTo(ChipType.NIC);
    }
}
