package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RoutingField;
import org.junit.jupiter.api.Test;

/** Port ingress: arrived management packets to the relay station, everything else to the switch, whole. */
class PortIngressTest {
    @Test
    void steersWholePacketsByTheirHeadFlit() {
        Simulator sim = Simulator.of(PortIngress::new);
        PortIngress ing = (PortIngress) sim.circuit().top();
        BitVector arrived = Packets.arrived(1).toBits();
        BitVector transit = Packets.readRequest(2, RoutingField.of(4, 5), 1, RoutingField.of(0)).toBits();
        BitVector dataVc = arrived.with(PacketLayout.HEAD.VC, 0);
        BitVector arrived2 = Packets.readRequest(3, RoutingField.EMPTY, 0, RoutingField.of(0)).toBits();
        Ports.Source in = new Ports.Source(sim, ing.in);
        for (BitVector p : List.of(arrived, transit, dataVc, arrived2)) {
            in.addAll(Packets.flits(p));
        }
        Ports.Sink rs = new Ports.Sink(sim, ing.toRs, new java.util.Random(1), 0.5);
        Ports.Sink sw = new Ports.Sink(sim, ing.toSwitch, new java.util.Random(2), 0.5);
        sim.reset();
        Ports.run(sim, 500, in::done, List.of(in, rs, sw));
        List<BigInteger> toRs = new ArrayList<>(Packets.flits(arrived));
        toRs.addAll(Packets.flits(arrived2));
        List<BigInteger> toSw = new ArrayList<>(Packets.flits(transit));
        toSw.addAll(Packets.flits(dataVc));
        assertThat(rs.got).isEqualTo(toRs);
        assertThat(sw.got).isEqualTo(toSw);
    }
}
