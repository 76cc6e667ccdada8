package org.flitkit.rtl.nrc;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Port ingress: arrived management packets to the relay station, everything else to the switch, whole. */
@ExtendWith(TestbenchExtension.class)
class PortIngressTest {
    @Test
    void steersWholePacketsByTheirHeadFlit(RunConfig cfg) {
        try (Testbench<PortIngress> tb = Testbench.create(PortIngress::new, cfg)) {
            PortIngress ing = tb.dut();
            FrameSource<BitVector> in = tb.add(new FrameSource<>("in", StreamPort.of(ing.in), TestPackets.FLITS));
            InOrderScoreboard<BitVector> toRs = output(tb, "rs", StreamPort.of(ing.toRs));
            InOrderScoreboard<BitVector> toSwitch = output(tb, "switch", StreamPort.of(ing.toSwitch));

            BitVector arrived = TestPackets.arrived(1).toBits();
            BitVector transit = TestPackets.readRequest(2, RoutingField.of(4, 5), 1, RoutingField.of(0)).toBits();
            BitVector dataVc = arrived.with(PacketLayout.HEAD.VC, 0);
            BitVector arrived2 = TestPackets.readRequest(3, RoutingField.EMPTY, 0, RoutingField.of(0)).toBits();
            for (BitVector p : List.of(arrived, transit, dataVc, arrived2)) {
                in.send(p);
            }
            toRs.expect(arrived);
            toSwitch.expect(transit);
            toSwitch.expect(dataVc);
            toRs.expect(arrived2);
            tb.reset(1);
            tb.runUntil("4 packets steered", () -> toRs.isEmpty() && toSwitch.isEmpty(), 500);
            tb.finish();
        }
    }

    /** A sink with random backpressure on {@code out} and a scoreboard of the whole packets leaving by it. */
    static InOrderScoreboard<BitVector> output(Testbench<?> tb, String name, StreamPort out) {
        tb.add(new StreamSink(name, out).backpressure(Throttle.random(0.5)));
        InOrderScoreboard<BitVector> sb = tb.add(new InOrderScoreboard<>(name + "_sb"));
        tb.add(new FrameMonitor<>(name + "_mon", out, Framing.fixed(Th2.PACKET_FLITS), TestPackets.FLITS).checkHoldEveryCycle()
                .subscribe(sb::observe));
        return sb;
    }
}
