package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ActiveReport} against a cycle-accurate model under random fault activity and backpressure, and
 * what a report looks like to the server that receives it (docs/th2-nma.md, "Fault reporting").
 */
@ExtendWith(TestbenchExtension.class)
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
    void reportsEveryRisingEnabledUnmaskedFaultOnceInOrder(RunConfig cfg) {
        ChipType chip = ChipType.NRC;
        try (Testbench<ActiveReport> tb = Testbench.create(() -> new ActiveReport(chip, SOURCES), cfg)) {
            ActiveReport a = tb.dut();
            RoutingField route = RoutingField.of(3, 17, 0, 23);
            BigInteger r = route.encode().toBigInteger();
            int chipId = 0x4321;
            long dest = 0x0042L | 7L << 16 | 1L << 24;
            tb.sim().poke(a.routeLo, r.and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
            tb.sim().poke(a.routeHi, r.shiftRight(64));
            tb.sim().poke(a.dest, dest);
            tb.sim().poke(a.chipId, chipId);
            StreamPort out = StreamPort.of(a.out);
            tb.add(new StreamSink("sink", out).backpressure(Throttle.random(0.3)));
            InOrderScoreboard<BitVector> reports = tb.add(new InOrderScoreboard<>("reports"));
            reports.format(TestPackets::show);
            Model m = new Model(chip);
            FaultStimulus faults = tb.add(new FaultStimulus("faults", a, m, route, dest, chipId, reports));
            List<ManagementPacket> got = new ArrayList<>();
            tb.add(new StreamMonitor("out_monitor", out).subscribe(v -> {
                BitVector bits = TestPackets.bits(v);
                reports.observe(bits);
                got.add(ManagementPacket.parse(bits));
            }));
            tb.reset(1);
            tb.run(4000);
            tb.finish();
            assertThat(reports.matched()).isEqualTo(m.sent.size()).isGreaterThan(50);
            assertThat(faults.pendingPulses()).as("masked or disabled rises set pending bits without a report")
                    .isGreaterThan(m.sent.size());
            // what the server receives: whole, well-formed FAULT_REPORT packets (ManagementPacket.parse checked
            // CRC, 4 flit kinds, VC3, Len 4, reserved bits), numbered 0, 1, 2, ... along REPORT_ROUTE to REPORT_DEST
            for (int i = 0; i < got.size(); i++) {
                ManagementPacket p = got.get(i);
                assertThat(p.nmpType()).isEqualTo(NmpType.FAULT_REPORT);
                assertThat(p.transactionId()).as("report %d", i).isEqualTo(i);
                assertThat(List.of(p.route(), p.hopPtr(), p.destType(), p.destId(), p.destVp(), p.rint(), p.srcType(), p.srcId()))
                        .containsExactly(route, 0, ChipType.NIC, 0x42, 7, true, chip, chipId);
                FaultPayload f = (FaultPayload) p.payload();
                assertThat(SOURCES).as("report %d names a fault input", i).contains(new FaultSource(f.faultCode(), f.port()));
            }
        }
    }

    /**
     * Random fault levels (each input toggles with 3 % a cycle), and now and then a new mask or enable; the
     * model is clocked in lockstep, and status, seq and the pending-set pulses must match it every cycle.
     * The reports the model sends are expected on the scoreboard.
     */
    static final class FaultStimulus extends Component {
        private final ActiveReport a;
        private final Model m;
        private final RoutingField route;
        private final long dest;
        private final int chipId;
        private final InOrderScoreboard<BitVector> reports;
        private final boolean[] f = new boolean[SOURCES.size()];
        private long mask;
        private long enable = -1L;
        private long pendingPulses;

        FaultStimulus(String name, ActiveReport a, Model m, RoutingField route, long dest, int chipId,
                      InOrderScoreboard<BitVector> reports) {
            super(name);
            this.a = a;
            this.m = m;
            this.route = route;
            this.dest = dest;
            this.chipId = chipId;
            this.reports = reports;
        }

        long pendingPulses() {
            return pendingPulses;
        }

        @Override
        protected void drive() {
            long faults = 0;
            for (int i = 0; i < f.length; i++) {
                if (rng().chance(0.03)) {
                    f[i] = !f[i];
                }
                faults |= (f[i] ? 1L : 0L) << i;
            }
            if (rng().chance(0.01)) {
                mask = rng().nextLong() & 0x3E;
            }
            if (rng().chance(0.01)) {
                enable = rng().nextLong() | 0x02;
            }
            sim().poke(a.faults, faults);
            sim().poke(a.mask, BigInteger.valueOf(mask));
            sim().poke(a.enable, new BigInteger(Long.toUnsignedString(enable)));
            sim().poke(a.cycle, cycle());
        }

        @Override
        protected void sample() {
            if (sim().peek(a.status) != Model.status(f)) {
                throw fail("FAULT_STATUS 0x" + Long.toHexString(sim().peek(a.status)) + ", expected 0x" + Long.toHexString(Model.status(f)));
            }
            if (sim().peek(a.seq) != m.seq) {
                throw fail("REPORT_SEQ " + sim().peek(a.seq) + ", expected " + m.seq);
            }
            int sent = m.sent.size();
            long ps = m.clock(f, mask, enable, cycle(), sim().peekBool(a.out.ready), route, dest, chipId);
            if (sim().peek(a.pendingSet) != ps) {
                throw fail("pending set 0b" + Long.toBinaryString(sim().peek(a.pendingSet)) + ", expected 0b" + Long.toBinaryString(ps));
            }
            pendingPulses += Long.bitCount(ps);
            for (BitVector p : m.sent.subList(sent, m.sent.size())) {
                reports.expect(p);
            }
        }
    }

    @Test
    void aMaskedFaultNeitherPendsNorReports(RunConfig cfg) {
        try (Testbench<ActiveReport> tb = Testbench.create(() -> new ActiveReport(ChipType.NIC, SOURCES), cfg)) {
            Simulator sim = tb.sim();
            ActiveReport a = tb.dut();
            tb.reset(1);
            sim.poke(a.enable, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
            sim.poke(a.mask, 1L << FaultCode.LINK_DOWN.code());
            sim.poke(a.out.ready, 1);
            sim.poke(a.faults, 0b11);
            assertThat(sim.peek(a.pendingSet)).isZero();
            assertThat(sim.peek(a.status)).isEqualTo(1L << FaultCode.LINK_DOWN.code());
            tb.run(5);
            assertThat(sim.peekBool(a.out.valid)).isFalse();
            sim.poke(a.faults, 0b111);
            assertThat(sim.peek(a.pendingSet)).isEqualTo(0b100);
            tb.run(2);
            assertThat(sim.peekBool(a.out.valid)).isTrue();
            ManagementPacket p = TestPackets.parse(sim.peekBig(a.out.bits));
            assertThat(((FaultPayload) p.payload()).faultCode()).isEqualTo(FaultCode.LINK_DEGRADED.code());
            assertThat(p.srcType()).isEqualTo(ChipType.NIC);
        }
    }
}
