package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.junit.jupiter.api.Test;

/** The integrated NRC answers a register read from a port, out of the same port. */
class NrcSmokeTest {
    @Test
    void readsChipIdThroughAPort() {
        long t0 = System.nanoTime();
        Simulator sim = Simulator.of(() -> new Nrc(EepParams.FAST, null));
        System.out.printf("build %.2fs %s%n", (System.nanoTime() - t0) / 1e9, sim.stats());
        Nrc nrc = (Nrc) sim.circuit().top();
        List<Ports.Endpoint> eps = new ArrayList<>();
        Ports.Source in = new Ports.Source(sim, nrc.portIn.get(3));
        Ports.Sink out = new Ports.Sink(sim, nrc.portOut.get(3));
        eps.add(in);
        eps.add(out);
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            if (p != 3) {
                eps.add(new Ports.Sink(sim, nrc.portOut.get(p)));
            }
            eps.add(new Ports.Sink(sim, nrc.toSwitch.get(p)));
        }
        sim.reset(2);
        long boot = sim.runUntil(() -> !sim.peekBool(nrc.booting), 100_000);
        System.out.println("boot (erased E2PROM) " + boot + " cycles, error " + sim.peek(nrc.bootError));
        ManagementPacket req = ManagementPacket.builder().route(RoutingField.EMPTY).returnRoute(RoutingField.of(3))
                .destType(ChipType.NRC).destId(0xFFFF).srcType(ChipType.NIC).srcId(1).destVp(1).srcVp(1)
                .transactionId(77).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(0)).build();
        in.addAll(Packets.flits(req.toBits()));
        long cycles = Ports.run(sim, 1_000, () -> out.got.size() == 4, eps);
        List<BitVector> flits = new ArrayList<>();
        for (BigInteger f : out.got) {
            flits.add(BitVector.of(Th2.FLIT_BITS, f));
        }
        ManagementPacket resp = ManagementPacket.parse(PacketLayout.fromFlits(flits));
        ManagementPacket expected = req.response(0xFFFF, ((RegisterPayload) req.payload()).answeredWith(List.of(0xFFFFL))).advance();
        assertThat(resp).isEqualTo(expected);
        System.out.println("read latency " + cycles);
        long t1 = System.nanoTime();
        sim.step(20_000);
        System.out.printf("idle speed %.0f cycles/s%n", 20_000 / ((System.nanoTime() - t1) / 1e9));
    }
}
