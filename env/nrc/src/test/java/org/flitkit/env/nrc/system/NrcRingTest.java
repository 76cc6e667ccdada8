package org.flitkit.env.nrc.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.fabric.Chip;
import org.flitkit.fabric.Fabric;
import org.junit.jupiter.api.Test;

/**
 * A ring of NRCs in a fabric: each chip configured to its own ID, requests routed over the ring to
 * random chips answered as the reference predicts, by the right chip, with a latency that grows by the
 * cable latency per hop; the same in exhaustive mode.
 */
class NrcRingTest {
    static final int CHIPS = 4;
    static final int LATENCY = 3;

    record Outcome(List<ManagementPacket> answers, List<Long> latencies, List<Integer> targets, long evaluations, long cycle) {
    }

    static Outcome run(boolean exhaustive, int requests) {
        try (NrcRing ring = new NrcRing(new Fabric().exhaustive(exhaustive), CHIPS, LATENCY)) {
            for (int k = 0; k < CHIPS; k++) {
                assertThat(ring.chipId(k)).isEqualTo(NrcRing.ID_BASE + k);
                assertThat(ring.fabric.peek(ring.chips.get(k), ring.top.chipId)).isEqualTo(NrcRing.ID_BASE + k);
            }
            SplittableRandom rng = new SplittableRandom(8);
            List<Integer> targets = new ArrayList<>();
            for (int r = 0; r < requests; r++) {
                int k = r < CHIPS ? r : rng.nextInt(CHIPS);
                targets.add(k);
                int tid = 100 + r;
                ManagementPacket req = r < CHIPS || r % 2 == 0
                        ? Requests.read(NrcRing.RING_PORT, 0, tid, List.of(0x000, 0x008))
                        : Requests.write(NrcRing.RING_PORT, 0, tid, List.of(0x008), List.of(rng.nextLong()));
                ring.send(k, req);
                ring.fabric.runUntil(ring::answered, 2_000);
            }
            assertThat(ring.passedRound()).isZero();
            long evaluations = 0;
            for (Chip c : ring.chips) {
                evaluations += c.evaluations();
            }
            return new Outcome(ring.answers(), ring.latencies(), targets, evaluations, ring.fabric.now());
        }
    }

    @Test
    void requestsTravelTheRingToTheirChipAndComeBackAsTheReferenceSays() {
        Outcome fast = run(false, 8);
        assertThat(fast.answers()).hasSize(8);
        for (int r = 0; r < 8; r++) {
            assertThat(fast.answers().get(r).srcId()).isEqualTo(NrcRing.ID_BASE + fast.targets().get(r));
        }
        // the first four requests (reads) go to chips 0..3 in turn: each hop adds the cable latency (a chip passes flits on combinationally)
        for (int k = 1; k < CHIPS; k++) {
            assertThat(fast.latencies().get(k) - fast.latencies().get(k - 1)).as("hop %d", k).isEqualTo(LATENCY);
        }
        Outcome exhaustive = run(true, 8);
        assertThat(fast.answers()).isEqualTo(exhaustive.answers());
        assertThat(fast.latencies()).isEqualTo(exhaustive.latencies());
        assertThat(fast.cycle()).isEqualTo(exhaustive.cycle());
        assertThat(fast.evaluations()).isLessThan(exhaustive.evaluations() / 2);
    }

    @Test
    void theRingBenchmarkChecksEveryAnswerOfBothSystems() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThat(NrcSystemBenchmark.ring(3, 5, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8))).isZero();
        String out = bytes.toString(StandardCharsets.UTF_8);
        // a warm-up pass and three timed passes of 5 requests each, every answer compared with the reference
        assertThat(out).contains("system: chips=3 requests=5 ").contains("single: chips=1 requests=5 ").contains("ratio_wall_per_cycle=");
        assertThat(out.split("answers_checked=20 ", -1)).hasSize(3);
    }
}
