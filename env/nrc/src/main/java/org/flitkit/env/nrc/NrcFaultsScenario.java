package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.NmpCollector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.stream.Throttle;

/**
 * Active fault reports through the plane: a report with no route set yet is dropped by nmp_packer and
 * counted (NRC_ROUTE_DROPS), never blocking; an enabled fault is reported (to REPORT_ROUTE / REPORT_DEST,
 * sequence-numbered, its pending bit set and cleared by writing 1); a masked fault neither reports nor
 * sets its pending bit; an unmasked but not enabled one only sets its pending bit. Under load (answers
 * backed up to the collector while the server stalls its ports) the collector's fixed priority puts
 * every waiting response ahead of a waiting report (checked on every cycle they compete), and the
 * reports still get out. Spec: 20-th2-management.md, function 3 and
 * "NMA submodules" (active_report, nmp_collector).
 */
public final class NrcFaultsScenario {
    /** The counts of the PASS line. */
    public static final java.util.Map<String, String> COUNTS = ScenarioResult.legend(
            "answers", NrcEnv.COUNTS.get("answers"),
            "reports", NrcEnv.COUNTS.get("reports"),
            "contended_cycles", "cycles a fault report and a response competed for the collector (the response must win)",
            "answered_during_faults", "responses matched while fault reports were being raised");

    static final int SERVER_PORT = 7;
    static final long WAIT = 3_000;

    private NrcFaultsScenario() {
    }

    /**
     * Checks that a waiting response wins over a waiting fault report whenever the collector decides:
     * not while it holds a grant for a packet already offered and stalled (valid/ready requires the
     * offered packet to stay until taken).
     */
    static final class PriorityWatch extends Component {
        private final Nrc dut;
        private boolean held;
        long contended;

        PriorityWatch(Nrc dut) {
            super("collector_priority");
            this.dut = dut;
        }

        @Override
        protected void sample() {
            NmpCollector c = dut.nma.collector;
            boolean report = sim().peekBool(c.report.valid);
            boolean response = sim().peekBool(c.reg.valid) || sim().peekBool(c.eep.valid) || sim().peekBool(c.err.valid);
            if (report && response && !held) {
                contended++;
                if (sim().peek(c.chosen) == NmpCollector.REPORT) {
                    throw fail("a fault report was chosen while a response was waiting");
                }
            }
            held = sim().peekBool(c.out.valid) && !sim().peekBool(c.out.ready);
        }
    }

    public static ScenarioResult run(RunConfig cfg) {
        boolean[] stall = {false};
        Throttle outputs = (rng, cycle) -> !stall[0];
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, outputs)) {
            PriorityWatch watch = env.tb.add(new PriorityWatch(env.dut));
            int any = 0xFFFF;
            // enabled before a report route is set: the report has no hop, nmp_packer drops and counts it
            write(env, NmaRegisters.REPORT_ENABLE, 1L << FaultCode.LINK_DOWN.code());
            env.faults.pulse(NrcRegisters.faultInput(FaultCode.LINK_DOWN.code(), 0), 4);
            env.idle(WAIT);
            ManagementPacket drops = Requests.read(SERVER_PORT, any, env.tid(), List.of(0x100));
            env.submitRaw(SERVER_PORT, drops.toBits(), env.ref.readAnswer(drops, List.of(1L)));
            env.drain(WAIT);
            write(env, NmaRegisters.pendingWord(0), 1L);
            long route = RoutingField.of(SERVER_PORT).encode().toBigInteger().longValue();
            write(env, NmaRegisters.REPORT_ROUTE_LO, route);
            write(env, NmaRegisters.REPORT_DEST, Requests.SERVER_NIC_ID | (long) Requests.SERVER_VP << NmaRegisters.REPORT_DEST_VP_LSB);
            long enable = 1L << FaultCode.LINK_DOWN.code() | 1L << FaultCode.LINK_DEGRADED.code() | 1L << FaultCode.OVER_TEMPERATURE.code();
            write(env, NmaRegisters.REPORT_ENABLE, enable);
            write(env, NmaRegisters.FAULT_MASK, 1L << FaultCode.LINK_DEGRADED.code());

            // enabled: port 3 link down
            int linkDown3 = NrcRegisters.faultInput(FaultCode.LINK_DOWN.code(), 3);
            env.faults.pulse(linkDown3, 4);
            env.tb.runUntil("the link-down report", () -> env.reports.size() == 1, WAIT);
            expectReport(env, env.reports.get(0), FaultCode.LINK_DOWN, 3, 1);
            readPending(env, 1L << linkDown3);
            write(env, NmaRegisters.pendingWord(linkDown3), 1L << linkDown3);
            readPending(env, 0);

            // masked: no report, no pending bit; unmasked but not enabled: pending bit only
            env.faults.pulse(NrcRegisters.faultInput(FaultCode.LINK_DEGRADED.code(), 3), 4);
            int retry5 = NrcRegisters.faultInput(FaultCode.RETRY_THRESHOLD.code(), 5);
            env.faults.pulse(retry5, 4);
            env.idle(WAIT);
            if (env.reports.size() != 1) {
                throw env.tb.fail("a masked or disabled fault was reported: " + env.reports);
            }
            readPending(env, 1L << retry5);

            // under load: an E2PROM read and 3 register reads on every port while the server stops taking
            // answers for a while, so answers of both function blocks back up to the collector; two faults
            // rise meanwhile. When the server takes answers again, responses compete with the reports.
            stall[0] = true;
            env.submit(RsGeometry.TH2.lastCol(), Requests.eepromRead(RsGeometry.TH2.lastCol(), any, env.tid(), List.of(0x20)));
            for (int k = 0; k < 3; k++) {
                for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                    env.submit(p, Requests.read(p, any, env.tid(), List.of(NmaRegisters.PORT_BASE + p * NmaRegisters.PORT_STRIDE)));
                }
            }
            env.tb.run(1_500);
            int overTemp = NrcRegisters.faultInput(FaultCode.OVER_TEMPERATURE.code(), FaultCode.CHIP_LEVEL_PORT);
            int linkDown20 = NrcRegisters.faultInput(FaultCode.LINK_DOWN.code(), 20);
            env.faults.pulse(overTemp, 4);
            env.faults.pulse(linkDown20, 4);
            long answeredBefore = env.scoreboard.matched();
            env.tb.run(500);
            stall[0] = false;
            env.drain(50_000);
            env.tb.runUntil("both reports", () -> env.reports.size() == 3, WAIT);
            List<Integer> seen = new ArrayList<>();
            for (NrcEnv.Report r : env.reports.subList(1, 3)) {
                seen.add(NrcRegisters.faultInput(r.fault().faultCode(), r.fault().port()));
            }
            if (!seen.containsAll(List.of(overTemp, linkDown20))) {
                throw env.tb.fail("expected reports of inputs " + overTemp + " and " + linkDown20 + ", got " + seen);
            }
            expectReport(env, env.reports.get(1), null, -1, 2);
            expectReport(env, env.reports.get(2), null, -1, 3);
            if (watch.contended == 0) {
                throw env.tb.fail("no cycle with a response and a report competing: the load did not reach the collector");
            }
            env.tb.finish();
            return env.result().with("contended_cycles", watch.contended).with("answered_during_faults",
                    env.scoreboard.matched() - answeredBefore);
        }
    }

    static void write(NrcEnv env, String reg, long value) {
        int addr = env.ref.registers().stream().filter(d -> d.name().equals(reg)).findFirst().orElseThrow().addr();
        env.submit(SERVER_PORT, Requests.write(SERVER_PORT, 0xFFFF, env.tid(), List.of(addr), List.of(value)));
        env.drain(WAIT);
    }

    /** FAULT_PENDING0 must read {@code expected}. */
    static void readPending(NrcEnv env, long expected) {
        ManagementPacket req = Requests.read(SERVER_PORT, 0xFFFF, env.tid(), List.of(0x018));
        env.submitRaw(SERVER_PORT, req.toBits(), env.ref.readAnswer(req, List.of(expected)));
        env.drain(WAIT);
    }

    /** Header of a fault report: to the server NIC by REPORT_ROUTE, from this NRC, sequence {@code seq}. */
    static void expectReport(NrcEnv env, NrcEnv.Report r, FaultCode code, int port, int seq) {
        ManagementPacket p = r.packet();
        boolean ok = r.port() == SERVER_PORT && p.destId() == Requests.SERVER_NIC_ID && p.destType() == ChipType.NIC
                && p.srcType() == ChipType.NRC && p.srcId() == env.ref.chipId() && p.destVp() == Requests.SERVER_VP
                && p.transactionId() == seq && p.route().equals(RoutingField.of(SERVER_PORT)) && p.hopPtr() == 1
                && (code == null || r.fault().faultCode() == code.code() && r.fault().port() == port);
        if (!ok) {
            throw env.tb.fail("reports", "unexpected fault report " + p);
        }
    }
}
