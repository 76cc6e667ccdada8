package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.Th2;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NmpCollectorTest {
    @ParameterizedTest
    @ValueSource(doubles = {0.2, 0.6, 1.0})
    void wholePacketsFixedPriorityResponsesAboveReports(double readyProb, @TempDir Path dir) {
        Simulator sim = Simulator.of(NmpCollector::new);
        NmpCollector c = (NmpCollector) sim.circuit().top();
        sim.reset();
        sim.startVcd(dir.resolve("collector.vcd"));
        Random rnd = new Random(Double.hashCode(readyProb));
        List<Decoupled<?>> ins = List.of(c.reg, c.eep, c.err, c.report);
        List<Streams.Source> srcs = new ArrayList<>();
        List<List<BigInteger>> sent = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            Streams.Source s = new Streams.Source(sim, ins.get(k), rnd, 0.3);
            List<BigInteger> l = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                // a real packet, tagged by input in its TransactionID
                BigInteger p = TestPackets.big(TestPackets.registerRequest(rnd, ChipType.NRC, 1, 15).toBuilder().transactionId(k << 8 | i).build());
                s.add(p);
                l.add(p);
            }
            srcs.add(s);
            sent.add(l);
        }
        Streams.Sink sink = new Streams.Sink(sim, c.out, rnd, readyProb);
        boolean[] stalled = new boolean[1];
        int[] priorityChecks = new int[1];
        List<Streams.Endpoint> eps = new ArrayList<>(srcs);
        eps.add(sink);
        Streams.run(sim, 50_000, () -> sink.received.size() == 240, () -> {
            if (sim.peekBool(c.out.valid) && !stalled[0]) {
                int lowest = -1;
                for (int k = 3; k >= 0; k--) {
                    if (sim.peekBool(ins.get(k).valid)) {
                        lowest = k;
                    }
                }
                assertThat(sim.peek(c.chosen)).as("cycle %d: fixed priority", sim.cycle()).isEqualTo(lowest);
                priorityChecks[0]++;
            }
            stalled[0] = sim.peekBool(c.out.valid) && !sim.peekBool(c.out.ready);
        }, eps.toArray(new Streams.Endpoint[0]));
        sim.stopVcd();
        assertThat(priorityChecks[0]).isGreaterThan(100);
        for (int k = 0; k < 4; k++) {
            int kk = k;
            List<BigInteger> fromK = sink.received.stream()
                    .filter(p -> TestPackets.parse(p).transactionId() >> 8 == kk).toList();
            assertThat(fromK).as("input %d in order, whole", k).isEqualTo(sent.get(k));
        }
        assertThat(sink.received.get(0).bitLength()).isLessThanOrEqualTo(Th2.PACKET_BITS);
    }
}
