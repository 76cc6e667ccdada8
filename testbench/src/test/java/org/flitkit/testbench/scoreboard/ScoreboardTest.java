package org.flitkit.testbench.scoreboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.testbench.Duts;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchFailure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scoreboard matching and messages, fed directly (the design only provides the clock). */
class ScoreboardTest {
    /** A transaction with an id, as returned out of order by a tagged interface. */
    record Tx(int id, String data) {
    }

    private Testbench<Queue<UInt>> tb;

    @BeforeEach
    void start() {
        tb = Testbench.create(Duts::fifo, RunConfig.of(9, 0));
    }

    @AfterEach
    void stop() {
        tb.close();
    }

    @Test
    void inOrderMatchesAndCounts() {
        InOrderScoreboard<String> sb = tb.add(new InOrderScoreboard<>("sb"));
        sb.expect("a");
        sb.expect("b");
        sb.observe("a");
        assertThat(sb.outstanding()).isEqualTo(1);
        sb.observe("b");
        sb.finish();
        assertThat(sb.matched()).isEqualTo(2);
        assertThat(sb.expected()).isEqualTo(2);
        assertThat(sb.isEmpty()).isTrue();
    }

    @Test
    void inOrderNamesTheItemsThatWentMissing() {
        InOrderScoreboard<String> sb = tb.add(new InOrderScoreboard<>("sb"));
        sb.format(s -> "'" + s + "'");
        sb.expect("a");
        tb.run(3);
        sb.expect("b");
        sb.expect("c");
        sb.expect("d");
        sb.observe("a");
        assertThatThrownBy(() -> sb.observe("d"))
                .isInstanceOfSatisfying(TestbenchFailure.class, f -> assertThat(f.seed()).isEqualTo(9))
                .hasMessageContaining("cycle 3: sb: item #1 (expected since cycle 3) does not match")
                .hasMessageContaining("expected: 'b'")
                .hasMessageContaining("observed: 'd'")
                .hasMessageContaining("it is item #3: items #1..2 were lost or reordered");
    }

    @Test
    void inOrderSpotsDuplicatesAndUnexpectedItems() {
        InOrderScoreboard<String> sb = tb.add(new InOrderScoreboard<>("sb"));
        sb.expect("a");
        sb.expect("b");
        sb.observe("a");
        assertThatThrownBy(() -> sb.observe("a")).hasMessageContaining("it equals the previous item: duplicated?");
        sb.observe("b");
        assertThatThrownBy(() -> sb.observe("x")).hasMessageContaining("unexpected item, nothing outstanding (2 matched so far)")
                .hasMessageContaining("observed: x");
    }

    @Test
    void finishFailsOnItemsNeverObserved() {
        InOrderScoreboard<String> sb = tb.add(new InOrderScoreboard<>("sb"));
        sb.expect("a");
        tb.run(2);
        sb.expect("b");
        sb.observe("a");
        assertThatThrownBy(tb::finish).hasMessageContaining("sb: 1 expected item(s) never observed (1 matched); the oldest is #1, "
                + "expected since cycle 2").hasMessageContaining("expected: b");
    }

    @Test
    void outOfOrderMatchesAcrossIdsInOrderWithinAnId() {
        OutOfOrderScoreboard<Integer, Tx> sb = tb.add(new OutOfOrderScoreboard<>("sb", Tx::id));
        sb.expect(new Tx(1, "a"));
        sb.expect(new Tx(2, "b"));
        sb.expect(new Tx(1, "c"));
        sb.observe(new Tx(2, "b"));
        sb.observe(new Tx(1, "a"));
        assertThat(sb.outstanding()).isEqualTo(1);
        sb.observe(new Tx(1, "c"));
        sb.finish();
        assertThat(sb.matched()).isEqualTo(3);
    }

    @Test
    void outOfOrderRejectsReorderingWithinAnIdAndUnknownIds() {
        OutOfOrderScoreboard<Integer, Tx> sb = tb.add(new OutOfOrderScoreboard<>("sb", Tx::id));
        sb.expect(new Tx(1, "a"));
        sb.expect(new Tx(1, "c"));
        assertThatThrownBy(() -> sb.observe(new Tx(1, "c"))).hasMessageContaining("item #0 with id 1")
                .hasMessageContaining("expected: Tx[id=1, data=a]").hasMessageContaining("observed: Tx[id=1, data=c]");
        assertThatThrownBy(() -> sb.observe(new Tx(7, "z"))).hasMessageContaining("unexpected item with id 7")
                .hasMessageContaining("2 outstanding with ids [1]");
        assertThatThrownBy(tb::finish).hasMessageContaining("the oldest is #0");
    }

    @Test
    void integerMismatchesAreInHexWithTheDifferingBitsAndTheirMask() {
        InOrderScoreboard<BigInteger> sb = tb.add(new InOrderScoreboard<>("sb"));
        sb.expect(BigInteger.valueOf(0x7a));
        assertThatThrownBy(() -> sb.observe(BigInteger.valueOf(0x27a)))
                .hasMessage("cycle 0: sb: item #0 (expected since cycle 0) does not match\n  expected: 0x7a\n  observed: 0x27a"
                        + "\n  differs in bit 9 (xor 0x200)\n  seed=9");
        OutOfOrderScoreboard<Integer, Long> byTag = tb.add(new OutOfOrderScoreboard<>("tags", v -> (int) (v & 0xf)));
        byTag.expect(0x0f_0fL);
        assertThatThrownBy(() -> byTag.observe(0xf3_bfL)).hasMessageContaining("expected: 0xf0f\n  observed: 0xf3bf\n"
                + "  differs in bits 4..5, 7, 10..15 (xor 0xfcb0)");
    }

    @Test
    void listsOfIntegersNameTheFirstDifferingElement() {
        InOrderScoreboard<List<Integer>> sb = tb.add(new InOrderScoreboard<>("sb"));
        sb.expect(List.of(0x100, 0x102, 0x104, 0x107));
        assertThatThrownBy(() -> sb.observe(List.of(0x100, 0x102, 0x107, 0x200)))
                .hasMessageContaining("expected: [0x100, 0x102, 0x104, 0x107]\n  observed: [0x100, 0x102, 0x107, 0x200]\n"
                        + "  element 2: expected 0x104 observed 0x107, differs in bits 0..1 (xor 0x3) (1 more element(s) of the first 4 differ)");
        assertThatThrownBy(() -> sb.observe(List.of(0x100, 0x102)))
                .hasMessageContaining("observed: [0x100, 0x102]\n  expected 4 elements, observed 2");
    }
}
