package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The four flows of one relay station (port 9: row 1, column 3), its timing and packet-granular merging. */
class RelayStationTest {
    static final int PORT = 9;
    Simulator sim;
    RelayStation rs;
    Ports.Source fromSwitch;
    Ports.Source fromLeft;
    Ports.Source fromRight;
    Ports.Sink towardNma;
    Ports.Sink toPort;
    Ports.Sink toLeft;
    List<Ports.Endpoint> all;

    @BeforeEach
    void build() {
        sim = Simulator.of(() -> new RelayStation(PORT));
        rs = (RelayStation) sim.circuit().top();
        wire(null, 1.0);
    }

    void wire(Random rnd, double readyProb) {
        fromSwitch = new Ports.Source(sim, rs.fromSwitch);
        fromLeft = new Ports.Source(sim, rs.fromLeft);
        fromRight = new Ports.Source(sim, rs.fromRight);
        towardNma = new Ports.Sink(sim, rs.towardNma, rnd, readyProb);
        toPort = new Ports.Sink(sim, rs.toPort, rnd, readyProb);
        toLeft = new Ports.Sink(sim, rs.toLeft, rnd, readyProb);
        all = List.of(fromSwitch, fromLeft, fromRight, towardNma, toPort, toLeft);
        sim.reset();
    }

    long runUntilIdle(int beatsOut) {
        return Ports.run(sim, 2_000, () -> towardNma.got.size() + toLeft.got.size() + 10 * toPort.got.size() >= beatsOut
                && fromSwitch.done() && fromLeft.done() && fromRight.done(), all);
    }

    @Test
    void flow1SerializesSwitchFlitsTowardTheNmaTaggedWithThePort() throws Exception {
        Path vcd = Waves.start(sim, "relay-station-flows");
        BitVector a = Packets.arrived(1).toBits();
        BitVector b = Packets.arrived(2).toBits();
        fromSwitch.addAll(Packets.flits(a)).addAll(Packets.flits(b));
        runUntilIdle(80);
        sim.stopVcd();
        List<BigInteger> expected = new ArrayList<>(Packets.beats(a, PORT));
        expected.addAll(Packets.beats(b, PORT));
        assertThat(towardNma.got).isEqualTo(expected);
        // 20-bit data path: 10 cycles per flit, 40 per packet, back to back
        assertThat(towardNma.at.get(39) - towardNma.at.get(0)).isEqualTo(39);
        assertThat(towardNma.at.get(79) - towardNma.at.get(0)).isEqualTo(79);
        assertThat(Files.size(vcd)).isPositive();
    }

    @Test
    void flow2PassesLeftBeatsOnInOneCycle() {
        BitVector a = Packets.arrived(3).toBits();
        fromLeft.addAll(Packets.beats(a, 7));
        runUntilIdle(40);
        assertThat(towardNma.got).isEqualTo(Packets.beats(a, 7));
        assertThat(towardNma.at.get(0) - fromLeft.takenAt.get(0)).isEqualTo(1);
        assertThat(towardNma.at.get(39) - towardNma.at.get(0)).isEqualTo(39);
    }

    @Test
    void flow3ReassemblesBeatsForThisPortIntoFlits() {
        BitVector a = Packets.arrived(4).toBits();
        fromRight.addAll(Packets.beats(a, PORT));
        runUntilIdle(40);
        assertThat(toPort.got).isEqualTo(Packets.flits(a));
        assertThat(toLeft.got).isEmpty();
        assertThat(towardNma.got).isEmpty();
    }

    @Test
    void flow4SendsOtherPortsBeatsOnToTheLeft() {
        BitVector a = Packets.arrived(5).toBits();
        fromRight.addAll(Packets.beats(a, 8));
        runUntilIdle(40);
        assertThat(toLeft.got).isEqualTo(Packets.beats(a, 8));
        assertThat(toLeft.at.get(0) - fromRight.takenAt.get(0)).isEqualTo(1);
        assertThat(toPort.got).isEmpty();
    }

    @Test
    void allFourFlowsAtOnceUnderBackpressureKeepPacketsWhole() {
        wire(new Random(42), 0.6);
        List<BitVector> local = List.of(Packets.arrived(10).toBits(), Packets.arrived(11).toBits());
        List<BitVector> left = List.of(Packets.arrived(20).toBits(), Packets.arrived(21).toBits(), Packets.arrived(22).toBits());
        local.forEach(p -> fromSwitch.addAll(Packets.flits(p)));
        left.forEach(p -> fromLeft.addAll(Packets.beats(p, 2)));
        BitVector mine = Packets.arrived(30).toBits();
        BitVector other = Packets.arrived(31).toBits();
        fromRight.addAll(Packets.beats(mine, PORT)).addAll(Packets.beats(other, 6)).addAll(Packets.beats(mine, PORT));
        runUntilIdle(5 * 40 + 40 + 80);
        // inbound: five whole packets, never interleaved, alternating while both inputs had one
        List<List<BigInteger>> packets = new ArrayList<>();
        for (int i = 0; i < towardNma.got.size(); i += 40) {
            packets.add(towardNma.got.subList(i, i + 40));
        }
        assertThat(packets).hasSize(5);
        List<String> order = new ArrayList<>();
        for (List<BigInteger> p : packets) {
            boolean fromLocal = Packets.port(p.get(0)) == PORT;
            BitVector src = null;
            for (BitVector c : fromLocal ? local : left) {
                if (Packets.beats(c, fromLocal ? PORT : 2).equals(p)) {
                    src = c;
                }
            }
            assertThat(src).as("packet %d is one sent packet, whole", order.size()).isNotNull();
            order.add(fromLocal ? "local" : "left");
        }
        assertThat(order.subList(0, 4)).containsExactly("left", "local", "left", "local");
        assertThat(toPort.got).isEqualTo(List.of(mine, mine).stream().flatMap(p -> Packets.flits(p).stream()).toList());
        assertThat(toLeft.got).isEqualTo(Packets.beats(other, 6));
    }
}
