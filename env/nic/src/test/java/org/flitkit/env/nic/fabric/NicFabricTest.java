package org.flitkit.env.nic.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nrc.Requests;
import org.flitkit.env.nrc.chip.FabricSpec;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three whole NRCs in a chain (0:7 - 1:3, 1:9 - 2:2) behind the server's NIC at chip 0 port 5: every cable end
 * learnt its neighbour's chip ID and port over the link; a request source-routed to the last chip is answered
 * along its backward route; cutting a cable takes both ends' links down and the enabled LINK_DOWN fault reports
 * of both chips reach the server. docs/th2-nrc-switch.md, "Fabrics".
 */
@ExtendWith(TestbenchExtension.class)
class NicFabricTest {
    static final long TIMEOUT = 20_000;
    static final int REPORT_ENABLE = 0x010;
    static final int REPORT_ROUTE_LO = 0x013;
    static final int REPORT_DEST = 0x015;

    @Test
    void neighboursRoutesAndLinkDownReports(RunConfig cfg) {
        FabricSpec spec = FabricSpec.CHAIN3;
        try (FabricEnv env = new FabricEnv(spec, cfg, EepParams.FAST, 10, PcieParams.th2(), HostSoftware.NONE)) {
            MgmtEndpoint ep = env.endpoint;
            // every cable end, read through the fabric: {chip, port, neighbour chip, neighbour port}
            int[][] ends = {{0, 7, 1, 3}, {1, 3, 0, 7}, {1, 9, 2, 2}, {2, 2, 1, 9}, {0, 5, -1, 0}};
            for (int[] e : ends) {
                long want = e[2] < 0 ? NmaRegisters.identity(ChipType.NIC, Requests.SERVER_NIC_ID, 0)
                        : NmaRegisters.identity(ChipType.NRC, FabricEnv.chipId(e[2]), e[3]);
                assertThat(read(env, e[0], NmaRegisters.PORT_BASE + e[1] * NmaRegisters.PORT_STRIDE + 1))
                        .as("chip %d port %d neighbour", e[0], e[1]).isEqualTo(want);
            }
            assertThat(read(env, 2, 0x000)).isEqualTo(FabricEnv.chipId(2));
            // the NIC's own port learnt chip 0's port 5
            assertThat(env.tb.sim().peek(env.dut.nicChip.port.status.neighbour)).isEqualTo(NmaRegisters.identity(ChipType.NRC, FabricEnv.chipId(0), 5));

            // fault reports of chips 0 and 1 to the server (VP 1), LINK_DOWN enabled
            for (int chip : new int[] {0, 1}) {
                long route = new RoutingField(spec.path(chip).returnRoute(spec.serverPort())).encode().toBigInteger().longValue();
                write(env, chip, List.of(REPORT_ROUTE_LO, REPORT_DEST),
                        List.of(route, (long) Requests.SERVER_NIC_ID | (long) env.reports.vp << NmaRegisters.REPORT_DEST_VP_LSB));
                write(env, chip, List.of(REPORT_ENABLE), List.of(1L << FaultCode.LINK_DOWN.code()));
            }
            List<MgmtEndpoint.Arrival> reports = new ArrayList<>();
            env.reports.onPacket(reports::add);
            env.tb.add(new Component("mgmt_poll") {
                @Override
                protected void sample() {
                    env.driver.poll();
                }
            });
            env.tb.sim().poke(env.dut.cut.get(0), 1);
            env.tb.runUntil("both ends of cable 0 down", () -> !env.tb.sim().peekBool(env.dut.nrcs[0].links[7].status.up)
                    && !env.tb.sim().peekBool(env.dut.nrcs[1].links[3].status.up), 1_000);
            env.tb.runUntil("chip 0's report", () -> reports.size() >= 1, TIMEOUT);
            FaultPayload f = (FaultPayload) reports.get(0).packet().payload();
            assertThat(f.faultCode()).isEqualTo(FaultCode.LINK_DOWN.code());
            assertThat(f.port()).isEqualTo(7);
            assertThat(reports.get(0).packet().srcId()).isEqualTo(FabricEnv.chipId(0));
            // chip 1's report needs the cut cable: its port drains while the link is down, so the report is lost (as in
            // the machine: a report whose route crosses the failed link never arrives), also once the cable is back
            env.tb.run(2_000);
            assertThat(reports).hasSize(1);
            env.tb.sim().poke(env.dut.cut.get(0), 0);
            env.tb.runUntil("the cable back up", () -> env.tb.sim().peekBool(env.dut.nrcs[1].links[3].status.up), TIMEOUT);
            env.tb.run(TIMEOUT);
            assertThat(reports).hasSize(1);
            assertThat(read(env, 1, NmaRegisters.PORT_BASE + 3 * NmaRegisters.PORT_STRIDE + 4)).as("chip 1 port 3 handshakes").isEqualTo(2);
        }
    }

    @Test
    void aLaneDyingOnAFabricCableIsFoundByTheNextRequestAndTheLinkRetrainsNarrower(RunConfig cfg) {
        try (FabricEnv env = new FabricEnv(FabricSpec.CHAIN3, cfg, EepParams.FAST, 10, PcieParams.th2(), HostSoftware.NONE)) {
            int linkStatus = NmaRegisters.PORT_BASE + 2 * NmaRegisters.PORT_STRIDE + 2;
            assertThat(read(env, 2, linkStatus)).as("chip 2 port 2: 8 lanes both ways").isEqualTo(0xFFFF_0801L);
            // lanes 0 and 2 of cable 1 (chip 1 port 9 - chip 2 port 2) die in both directions on the idle link:
            // IDLE frames carry zeros there and still pass; the next request's flits do not
            env.tb.sim().poke(env.dut.lanesDown.get(1), 0b0000_0101);
            env.tb.run(500);
            assertThat(env.tb.sim().peekBool(env.dut.nrcs[2].links[2].status.up)).as("still up while idle").isTrue();
            // the request to chip 2 crosses the cable: fruitless replays take the link down, it retrains on the
            // 6 lanes left (width 4) and the request completes
            assertThat(read(env, 2, 0x000)).isEqualTo(FabricEnv.chipId(2));
            long lanes = 0xFAL;
            assertThat(read(env, 2, linkStatus)).isEqualTo(lanes << 24 | lanes << 16 | 4 << 8 | 1);
            assertThat(read(env, 1, NmaRegisters.PORT_BASE + 9 * NmaRegisters.PORT_STRIDE + 2))
                    .isEqualTo(lanes << 24 | lanes << 16 | 4 << 8 | 1);
            assertThat(read(env, 2, NmaRegisters.PORT_BASE + 2 * NmaRegisters.PORT_STRIDE + 7)).as("chip 2 port 2 LINK_DOWNS").isEqualTo(1);
            assertThat(read(env, 2, NmaRegisters.PORT_BASE + 2 * NmaRegisters.PORT_STRIDE + 4)).as("handshakes").isEqualTo(2);
        }
    }

    static long read(FabricEnv env, int chip, int addr) {
        int tid = env.endpoint.send(MgmtRequest.readRegisters(env.target(chip), List.of(addr)));
        MgmtResult r = receive(env, tid);
        return ((RegisterPayload) ((MgmtResult.Ok) r).response().payload()).data().get(0);
    }

    static void write(FabricEnv env, int chip, List<Integer> addrs, List<Long> values) {
        int tid = env.endpoint.send(MgmtRequest.writeRegisters(env.target(chip), addrs, values));
        assertThat(receive(env, tid)).isInstanceOf(MgmtResult.Ok.class);
    }

    static MgmtResult receive(FabricEnv env, int tid) {
        MgmtResult[] got = new MgmtResult[1];
        env.tb.runUntil("the answer to " + tid, () -> {
            env.driver.poll();
            got[0] = env.endpoint.tryReceive(tid).orElse(null);
            return got[0] != null;
        }, TIMEOUT);
        assertThat(got[0]).as("answer to %d", tid).isInstanceOf(MgmtResult.Ok.class);
        return got[0];
    }
}
