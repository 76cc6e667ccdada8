package org.flitkit.env.nrc.chip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.Throttle;
import org.flitkit.env.nrc.MgmtServer;
import org.flitkit.env.nrc.Requests;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
/**
 * The whole NRC with a link port at the far end of every cable: every link comes up, and a register read entering
 * port 5's link is answered through the core and the relay stations with the neighbour identity port 7's link
 * learnt from the far end's IDENT frames. docs/th2-nrc-switch.md, "Chip-level tests".
 */
class NrcChipLinkTest {
    @Test
    void linksComeUpAndTheNmaAnswersThroughThem(RunConfig cfg) {
        try (Testbench<NrcPeerBoard> tb = NrcPeerBoard.testbench(4, cfg)) {
            MgmtServer server = new MgmtServer(tb, tb.dut().portIn, tb.dut().portOut, null, Throttle.NONE);
            List<MgmtServer.Received> got = new ArrayList<>();
            server.onReceive(got::add);
            tb.reset(4);
            tb.runUntil("every link up", () -> {
                for (var l : tb.dut().nrc.links) {
                    if (!tb.sim().peekBool(l.status.up)) {
                        return false;
                    }
                }
                return true;
            }, 5_000);
            long up = tb.cycle();
            tb.runUntil("boot ends", () -> !tb.sim().peekBool(tb.dut().nrc.booting), 2_000_000);
            int nb = NmaRegisters.PORT_BASE + 7 * NmaRegisters.PORT_STRIDE + 1;
            server.send(5, Requests.read(5, 0xFFFF, 77, List.of(nb)).toBits());
            tb.runUntil("the answer", () -> !got.isEmpty(), 5_000);
            ManagementPacket ans = ManagementPacket.parse(got.get(0).bits());
            // reset(4), then lane training over a 4-cycle cable: 2L + 27 cycles (docs/th2-link.md, "Lanes")
            assertThat(up).isEqualTo(4 + 2 * 4 + 27);
            assertThat(got.get(0).port()).isEqualTo(5);
            NrcPeerBoard.PeerIdentity seven = NrcPeerBoard.PeerIdentity.of(7);
            assertThat(((RegisterPayload) ans.payload()).data().get(0))
                    .isEqualTo(NmaRegisters.identity(seven.type(), seven.chipId(), seven.port()));
        }
    }
}
