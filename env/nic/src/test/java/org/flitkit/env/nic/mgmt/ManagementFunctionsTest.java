package org.flitkit.env.nic.mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.rtl.nic.NicRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.junit.jupiter.api.Test;

/**
 * The management functions after discovery, on a frame of whole chips: the status scan and its compare mode across a
 * cut, fault reports collected into the log, and link BIST with and without bit errors. Cable 7 (lower NRC 1 port 8
 * to upper NRC 5) carries no route of the server's: lower NRC 1 is found through upper NRC 4.
 */
class ManagementFunctionsTest {
    static final int CABLE = 7;

    private static ManagementServer frame() {
        ManagementServer m = new ManagementServer(Th2FatTree.frame(), DiscoveryTest.PROTOS, 1, 0, ManagementServer.WINDOW, ManagementServer.TIMEOUT);
        m.powerUp(5_000);
        return m;
    }

    /** a whole scan of the frame (726 requests, window 16); NRC 0x8003 dying halfway through its part: 61 of its 121 requests time out, 121 of its 241 registers unread */
    static final long WHOLE_SCAN = 187_026;
    static final long LOST_READINGS = 121;
    static final long LOST_REQUESTS = 61;

    @Test
    void compareModeShowsWhatACutChanged() {
        try (ManagementServer m = frame()) {
            Discovery.Result found = m.discover((f, d) -> { });
            StatusScan.Snapshot first = m.scan(found, 2);
            m.machine.cut(CABLE, true);
            m.machine.fabric.run(2_000);
            StatusScan.Snapshot second = m.scan(found, 2);
            List<StatusScan.Change> diff = StatusScan.compare(first, second);
            // the paper's scan, 10 registers x 24 ports two per request, and the temperature: every one answered
            assertThat(first.requests()).isEqualTo(6 * 121);
            assertThat(first.readings()).hasSize(6 * 241);
            assertThat(first.readings().get("0x8002 NRC_TEMPERATURE").value()).isEqualTo(45);
            assertThat(first.failures() + second.failures()).isZero();
            // both ends of the cut: the neighbour forgotten, the link down once, the zeros' bad CRCs; elsewhere only the
            // counters of the scan's own packets moved
            List<String> ends = diff.stream().filter(c -> !c.register().endsWith("FRAMES_SENT") && !c.register().endsWith("FLITS_RECEIVED"))
                    .map(StatusScan.Change::toString).toList();
            assertThat(ends).containsExactly(
                    "NRC 0x8005 PORT13_NEIGHBOUR: 0x180010801 -> 0x0",
                    "NRC 0x8005 PORT13_LINK_STATUS: 0xffff0801 -> 0xffff0000",
                    "NRC 0x8005 PORT13_CRC_ERRORS: 0x0 -> 0x40",
                    "NRC 0x8005 PORT13_LINK_DOWNS: 0x0 -> 0x1",
                    "NRC 0x8001 PORT8_NEIGHBOUR: 0x180050d01 -> 0x0",
                    "NRC 0x8001 PORT8_LINK_STATUS: 0xffff0801 -> 0xffff0000",
                    "NRC 0x8001 PORT8_CRC_ERRORS: 0x0 -> 0x40",
                    "NRC 0x8001 PORT8_LINK_DOWNS: 0x0 -> 0x1");
        }
    }

    @Test
    void aChipThatDiesDuringAScanEndsItsRequestsAsTimeoutsAndTheScanGoesOn() {
        try (ManagementServer m = frame()) {
            Discovery.Result found = m.discover((f, d) -> { });
            // a whole scan first: NRC 0x8003 comes last (breadth-first order), so it is scanned in the last sixth
            long whole = m.scan(found, 2).cycles();
            assertThat(whole).isEqualTo(WHOLE_SCAN);
            // NRC 3 (a lower NRC: no other chip's route crosses it) dies halfway through its part of the next scan
            m.machine.at(m.machine.fabric.now() + whole - whole / 12, () -> m.machine.kill(3));
            StatusScan.Snapshot s = m.scan(found, 2);
            assertThat(s.requests()).isEqualTo(6 * 121);
            long lost = s.readings().values().stream().filter(r -> r.value() == null).count();
            assertThat(lost).as("registers without an answer").isEqualTo(LOST_READINGS);
            assertThat(s.readings().values().stream().filter(r -> r.value() == null).map(StatusScan.Reading::chipId).distinct().toList())
                    .containsExactly(0x8003);
            assertThat(s.failures()).isEqualTo(LOST_REQUESTS);
            assertThat(s.readings().values().stream().filter(r -> r.value() == null).findFirst().orElseThrow().failure()).startsWith("no answer in ");
            // the server goes on: every other NRC answers (a response cut short in the dead chip's link was completed by
            // the upper NRC's input, so no output waits for its missing flits), the dead one times out
            for (Discovery.FoundNrc n : found.nrcs()) {
                RequestPipe.Done d = m.pipe.call(org.flitkit.env.nic.host.MgmtRequest.readRegisters(n.target(), List.of(0)));
                assertThat(Discovery.describe(d.result())).as("NRC 0x%04x", n.chipId())
                        .isEqualTo(n.chipId() == 0x8003 ? "no answer in 20000 cycles" : "ok");
            }
            StatusScan.Snapshot after = new StatusScan(m.pipe, 2, true).scan(List.of(found.nrc(0x8002)), m.machine.fabric);
            assertThat(after.failures()).as("after: %s", after.readings().values().stream().filter(r -> r.value() == null).findFirst()).isZero();
        }
    }

    @Test
    void aCutIsReportedByBothEnds() {
        try (ManagementServer m = frame()) {
            Discovery.Result found = m.discover((f, d) -> { });
            assertThat(m.enableFaultReports(found)).isZero();
            m.machine.cut(CABLE, true);
            m.machine.fabric.run(5_000);
            m.server.endpoint.poll();
            // both ends' reports reach the server; NRC 0x8001's is routed through NRC 0x8004, 0x8005's straight down
            assertThat(m.faults.entries()).extracting(FaultLog.Entry::toString).containsExactlyInAnyOrder(
                    "cycle 56007: NRC 0x8005 fault=link-down port 13 (seq 0, chip time 50939)",
                    "cycle 56007: NRC 0x8001 fault=link-down port 8 (seq 0, chip time 50939)");
            assertThat(m.faults.entries()).extracting(FaultLog.Entry::faultCode).containsOnly(FaultCode.LINK_DOWN.code());
        }
    }

    @Test
    void bistCountsTheErrorsOfANoisyCable() {
        try (ManagementServer m = frame()) {
            Discovery.Result found = m.discover((f, d) -> { });
            BistRun.Result clean = BistRun.run(m.pipe, m.machine.fabric, found, 0x8001, 8, 2_000, 1, 100_000);
            assertThat(List.of(clean.there(), clean.back())).allSatisfy(d -> {
                assertThat(d.done()).isTrue();
                assertThat(d.sent()).isEqualTo(2_000);
                assertThat(d.checked()).isEqualTo(2_000);
                assertThat(d.erroredFrames()).isZero();
                assertThat(d.bitErrors()).isZero();
            });
            assertThat(clean.there().toChip()).isEqualTo(0x8005);
            assertThat(clean.there().toPort()).isEqualTo(13);
            // 1e-4 per bit on the cable from now on: about 2,000 x 198 x 1e-4 = 40 payload bits each way
            m.machine.bitErrors(CABLE, 1e-4, 5);
            BistRun.Result noisy = BistRun.run(m.pipe, m.machine.fabric, found, 0x8001, 8, 2_000, 1, 100_000);
            assertThat(noisy.there()).hasToString("NRC 0x8001 port 8 -> NRC 0x8005 port 13: done, sent 2000, checked 2000, errored frames 32, bit errors 32");
            assertThat(noisy.back()).hasToString("NRC 0x8005 port 13 -> NRC 0x8001 port 8: done, sent 2000, checked 2000, errored frames 35, bit errors 36");
        }
    }

    @Test
    void theChipRaisesDegradedRetryAndTemperatureFaults() {
        try (ManagementServer m = frame()) {
            Discovery.Result found = m.discover((f, d) -> { });
            assertThat(m.enableFaultReports(found)).isZero();
            Discovery.FoundNrc nrc4 = found.nrc(0x8004);
            long[] regs = read(m, nrc4, NrcRegisters.TEMPERATURE, NrcRegisters.TEMPERATURE_LIMIT);
            assertThat(regs).containsExactly(45, 85);
            // NRC 3 runs hot
            m.machine.temperature(3, 90);
            // NRC 4 counts a fault once one retransmission happened; bit errors on cable 0 (NRC 0 port 8 - NRC 4 port 10)
            write(m, nrc4, NrcRegisters.RETRY_THRESHOLD, 1);
            m.machine.bitErrors(0, 2e-4, 3);
            read(m, nrc4, NrcRegisters.TEMPERATURE, NrcRegisters.TEMPERATURE);
            m.machine.bitErrors(0, 0, 3);
            // lanes 4..7 of cable 1 die: the next request across it takes the link down, it retrains on 4 lanes
            m.machine.lanesDown(1, 0xF0);
            read(m, found.nrc(0x8004), NrcRegisters.TEMPERATURE, NrcRegisters.TEMPERATURE);
            m.machine.fabric.run(20_000);
            m.server.endpoint.poll();
            assertThat(m.faults.entries()).extracting(FaultLog.Entry::toString).containsExactly(
                    "cycle 51899: NRC 0x8003 fault=over-temperature port chip (seq 0, chip time 51541)",
                    "cycle 53060: NRC 0x8004 fault=retry-threshold port 10 (seq 0, chip time 52720)",
                    "cycle 53265: NRC 0x8000 fault=link-down port 9 (seq 0, chip time 52935)",
                    "cycle 53275: NRC 0x8004 fault=link-down port 11 (seq 1, chip time 52935)",
                    "cycle 53309: NRC 0x8000 fault=link-degraded port 9 (seq 1, chip time 52979)",
                    "cycle 53319: NRC 0x8004 fault=link-degraded port 11 (seq 2, chip time 52979)");
            // the cable is back up on 4 lanes: LINK_STATUS width [11:8]
            long status = read(m, nrc4, org.flitkit.rtl.nma.NmaRegisters.portReg(11, org.flitkit.rtl.nma.NmaRegisters.PORT_LINK_STATUS))[0];
            assertThat(status & 1).isEqualTo(1);
            assertThat(status >> 8 & 0xF).isEqualTo(4);
        }
    }

    @Test
    void aNicRaisesItsPortAndTemperatureFaultsAndRunsBist() {
        try (ManagementServer m = frame()) {
            Discovery.Result found = m.discover((f, d) -> { });
            // 6 NRCs and 32 NICs, two requests each
            assertThat(m.enableFaultReports(found)).isZero();
            assertThat(read(m, nic(found, 5), NicRegisters.TEMPERATURE, NicRegisters.TEMPERATURE_LIMIT)).containsExactly(45, 85);
            // NIC 5 runs hot
            m.machine.nicTemperature(5, 90);
            // NIC 7 counts a fault once one of its frames was sent again; bit errors on its cable while it answers
            write(m, nic(found, 7), NicRegisters.RETRY_THRESHOLD, 1);
            m.machine.nodeBitErrors(7, 2e-4, 3);
            for (int i = 0; i < 8; i++) {
                read(m, nic(found, 7), NicRegisters.TEMPERATURE, NicRegisters.TEMPERATURE);
            }
            m.machine.nodeBitErrors(7, 0, 3);
            // lanes 4..7 of node 9's cable die: the next request across it takes the link down, it retrains on 4 lanes
            m.machine.nodeLanesDown(9, 0xF0);
            read(m, nic(found, 9), NicRegisters.TEMPERATURE, NicRegisters.TEMPERATURE);
            m.machine.fabric.run(20_000);
            m.server.endpoint.poll();
            // NIC 9's cable hangs on NRC 0x8001 port 1: both ends report
            assertThat(m.faults.entries()).extracting(FaultLog.Entry::toString).containsExactly(
                    "cycle 51756: NIC 0x0005 fault=over-temperature port chip (seq 0, chip time 51459)",
                    "cycle 52795: NIC 0x0007 fault=retry-threshold port 0 (seq 0, chip time 52498)",
                    "cycle 57203: NRC 0x8001 fault=link-down port 1 (seq 0, chip time 56845)",
                    "cycle 57247: NRC 0x8001 fault=link-degraded port 1 (seq 1, chip time 56889)",
                    "cycle 57252: NIC 0x0009 fault=link-down port 0 (seq 0, chip time 56845)",
                    "cycle 57257: NIC 0x0009 fault=link-degraded port 0 (seq 1, chip time 56889)");
            // BIST on node 11's cable, from its NRC's port and back from the NIC's
            Th2FatTree.Node node11 = m.machine.tree.nodes().get(11);
            BistRun.Result bist = BistRun.run(m.pipe, m.machine.fabric, found, Th2Machine.NRC_ID_BASE + node11.nrc(), node11.port(), 2_000, 1, 100_000);
            assertThat(bist.there()).hasToString("NRC 0x8001 port 3 -> NIC 0x000b port 0: done, sent 2000, checked 2000, errored frames 0, bit errors 0");
            assertThat(bist.back()).hasToString("NIC 0x000b port 0 -> NRC 0x8001 port 3: done, sent 2000, checked 2000, errored frames 0, bit errors 0");
        }
    }

    private static Target nic(Discovery.Result found, int chipId) {
        return found.nicTarget(chipId);
    }

    private static long[] read(ManagementServer m, Discovery.FoundNrc n, String... regs) {
        return read(m, n.target(), regs);
    }

    private static long[] read(ManagementServer m, Target t, String... regs) {
        RequestPipe.Done d = m.pipe.call(org.flitkit.env.nic.host.MgmtRequest.readRegisters(t,
                java.util.Arrays.stream(regs).map(r -> Discovery.address(t, r)).toList()));
        List<Long> v = Discovery.values(d.result());
        assertThat(v).as("the read of %s ended %s", List.of(regs), d.result()).isNotNull();
        return v.stream().mapToLong(Long::longValue).toArray();
    }

    private static void write(ManagementServer m, Discovery.FoundNrc n, String reg, long value) {
        write(m, n.target(), reg, value);
    }

    private static void write(ManagementServer m, Target t, String reg, long value) {
        RequestPipe.Done d = m.pipe.call(org.flitkit.env.nic.host.MgmtRequest.writeRegisters(t, List.of(Discovery.address(t, reg)), List.of(value)));
        assertThat(Discovery.values(d.result())).as("the write of %s ended %s", reg, d.result()).isNotNull();
    }
}
