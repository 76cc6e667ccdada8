package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.send.SendCompletionEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.PcieHost;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The completion-entry merge and the send-entry formatter: exact round-robin order with every source backlogged,
 * every entry once and in its source's order under random offers and backpressure with the wait bound n - 1;
 * send completions formatted exactly as formats/chpp {@code SendCompletion.encode} (Phase 0). docs/chpp-upload.md.
 */
@ExtendWith(TestbenchExtension.class)
class EventMergeTest {

    /** An entry of source {@code source}: the source in the top byte, so the merged stream says whose it is. */
    static BigInteger entry(int source, int seq) {
        return BigInteger.valueOf(source).shiftLeft(120).or(BigInteger.valueOf(seq));
    }

    @Test
    void backloggedSourcesAlternateExactly(RunConfig cfg) {
        int n = 3;
        try (Testbench<EventMerge> tb = Testbench.create(() -> new EventMerge(n), cfg)) {
            EventMerge m = tb.dut();
            List<BeatSource> srcs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                BeatSource s = tb.add(BeatSource.offering("src" + i, m.in.get(i), 1));
                for (int k = 0; k < 40; k++) {
                    s.beat(entry(i, k));
                }
                srcs.add(s);
            }
            List<BigInteger> got = new ArrayList<>();
            tb.add(new BeatMonitor("out", m.out, 1, p -> got.add(p.get(0))));
            tb.reset(1);
            tb.runUntil("120 entries", () -> got.size() == 120, 1000);
            for (int k = 0; k < 120; k++) {
                assertThat(got.get(k)).as("entry %d", k).isEqualTo(entry(k % n, k / n));
            }
            for (int i = 0; i < n; i++) {
                assertThat(tb.sim().peek(m.taken.get(i))).isEqualTo(40);
            }
        }
    }

    @Test
    void randomOffersAndBackpressureKeepEachSourceInOrderWithinTheWaitBound(RunConfig cfg) {
        int n = 5;
        Rng r = new Rng(6);
        try (Testbench<EventMerge> tb = Testbench.create(() -> new EventMerge(n), cfg)) {
            EventMerge m = tb.dut();
            List<BeatSource> srcs = new ArrayList<>();
            int[] counts = new int[n];
            for (int i = 0; i < n; i++) {
                BeatSource s = tb.add(BeatSource.offering("src" + i, m.in.get(i), 0.1 + 0.2 * i));
                counts[i] = 50 + r.nextInt(100);
                for (int k = 0; k < counts[i]; k++) {
                    s.beat(entry(i, k));
                }
                srcs.add(s);
            }
            List<BigInteger> got = new ArrayList<>();
            int[] waited = new int[n];
            int[] worst = new int[1];
            tb.add(new BeatMonitor("out", m.out, 0.6, p -> {
                int src = p.get(0).shiftRight(120).intValue();
                // every other source that was offering when this one won waited one more grant
                for (int i = 0; i < n; i++) {
                    if (i != src && srcs.get(i).showing()) {
                        worst[0] = Math.max(worst[0], ++waited[i]);
                    }
                }
                waited[src] = 0;
                got.add(p.get(0));
            }));
            tb.reset(1);
            int total = java.util.Arrays.stream(counts).sum();
            tb.runUntil("every entry merged", () -> got.size() == total, 100_000);
            int[] next = new int[n];
            for (BigInteger e : got) {
                int src = e.shiftRight(120).intValue();
                assertThat(e).isEqualTo(entry(src, next[src]++));
            }
            assertThat(next).containsExactly(counts);
            assertThat(worst[0]).as("grants to others while a source waits").isLessThanOrEqualTo(n - 1);
            assertThat(worst[0]).isEqualTo(n - 1);
        }
    }

    @Test
    void sendCompletionsAreFormattedAsTheFormatsEncodeThem(RunConfig cfg) {
        Rng r = new Rng(2);
        try (Testbench<SendCompletionEntry> tb = Testbench.create(SendCompletionEntry::new, cfg)) {
            SendCompletionEntry f = tb.dut();
            tb.reset(1);
            for (int i = 0; i < 200; i++) {
                DescKind kind = DescKind.values()[r.nextInt(DescKind.values().length)];
                CompletionStatus[] sendCodes = java.util.Arrays.stream(CompletionStatus.values()).filter(CompletionStatus::send).toArray(CompletionStatus[]::new);
                CompletionStatus st = sendCodes[r.nextInt(sendCodes.length)];
                int qp = r.nextInt(4);
                int cookie = r.nextInt(1 << 16);
                long bytes = r.nextLong(1L << 32);
                boolean ready = r.chance(0.5);
                tb.sim().poke(f.in.valid, true);
                tb.sim().poke(f.in.bits.status, st.code());
                tb.sim().poke(f.in.bits.function, r.nextInt(8));
                tb.sim().poke(f.in.bits.qp, qp);
                tb.sim().poke(f.in.bits.kind, kind.code());
                tb.sim().poke(f.in.bits.cookie, cookie);
                tb.sim().poke(f.in.bits.bytes, bytes);
                tb.sim().poke(f.out.ready, ready);
                byte[] want = new SendCompletion(kind, qp, st, cookie, bytes, false).encode();
                assertThat(PcieHost.littleEndian(tb.sim().peekBig(f.out.bits), 16)).isEqualTo(want);
                assertThat(tb.sim().peekBool(f.out.valid)).isTrue();
                assertThat(tb.sim().peekBool(f.in.ready)).isEqualTo(ready);
                tb.run(1);
            }
        }
    }

    @Test
    void sourceCountIsChecked() {
        assertThatThrownBy(() -> new EventMerge(0)).hasMessage("EventMerge: sources must be 1..64, got 0");
        assertThatThrownBy(() -> new EventMerge(65)).hasMessage("EventMerge: sources must be 1..64, got 65");
    }
}
