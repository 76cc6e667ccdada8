package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.sim.VariantPolicy.Phase;
import org.junit.jupiter.api.Test;

/** The variant policy's decisions, window by window, for given times and skip counts (no simulator, no clock). */
class VariantPolicyTest {
    /** chunks of the imaginary design: a window of 4,096 cycles has 40,960 chunk runs, 36,864 of them is 90% */
    static final int CHUNKS = 10;
    static final long BUSY = 1_000;
    static final long IDLE = 36_864;

    @Test
    void anIdleDesignStaysFlagged() {
        VariantPolicy p = new VariantPolicy();
        for (int i = 0; i < 5; i++) {
            assertThat(p.windowEnded(100, IDLE, 0, CHUNKS, true, false)).isFalse();
            assertThat(p.phase()).isEqualTo(Phase.FLAGGED);
        }
    }

    @Test
    void aBusyDesignTriesPlainOnlyOnceItIsCompiled() {
        VariantPolicy p = new VariantPolicy();
        assertThat(p.windowEnded(100, BUSY, 0, CHUNKS, false, false)).isFalse();
        assertThat(p.phase()).isEqualTo(Phase.FLAGGED);
        assertThat(p.windowEnded(100, IDLE - 1, 0, CHUNKS, true, false)).isTrue();
        assertThat(p.phase()).isEqualTo(Phase.PLAIN_WARM);
    }

    @Test
    void plainWinsRunsEightWindowsWithProbesThenComparesAgainAndDoublesItsRun() {
        VariantPolicy p = new VariantPolicy();
        assertThat(p.windowEnded(100, BUSY, 0, CHUNKS, true, false)).isTrue();
        assertThat(p.windowEnded(500, 0, 0, CHUNKS, true, true)).as("the warm-up window is not timed").isTrue();
        assertThat(p.phase()).isEqualTo(Phase.PLAIN_TIMED);
        assertThat(p.windowEnded(99, 0, 0, CHUNKS, true, true)).isTrue();
        assertThat(p.phase()).isEqualTo(Phase.PLAIN);
        assertThat(p.probeStartsAt(4096 - 64)).isTrue();
        assertThat(p.probeStartsAt(4096 - 63)).isFalse();
        // 8 windows: 7 go on in plain (each after a busy probe, which ran flagged), the 8th returns to flagged
        for (int w = 1; w < 8; w++) {
            assertThat(p.windowEnded(99, 0, 0, CHUNKS, true, false)).as("window %d", w).isTrue();
        }
        assertThat(p.windowEnded(99, 0, 0, CHUNKS, true, false)).isFalse();
        assertThat(p.phase()).isEqualTo(Phase.FLAGGED);
        assertThat(p.probeStartsAt(4096 - 64)).isFalse();
        // plain wins again: now 16 windows
        p.windowEnded(100, BUSY, 0, CHUNKS, true, false);
        p.windowEnded(100, 0, 0, CHUNKS, true, true);
        p.windowEnded(99, 0, 0, CHUNKS, true, true);
        int plainWindows = 0;
        while (p.windowEnded(99, 0, 0, CHUNKS, true, false)) {
            plainWindows++;
        }
        assertThat(plainWindows + 1).isEqualTo(16);
    }

    @Test
    void aNewInstanceOfADesignThatRanFasterPlainOpensPlainUntilAnIdleProbe() {
        VariantPolicy.Verdict shared = new VariantPolicy.Verdict();
        VariantPolicy first = new VariantPolicy(shared);
        assertThat(first.opening(true, false)).as("nothing known yet").isFalse();
        first.windowEnded(100, BUSY, 0, CHUNKS, true, false);
        first.windowEnded(100, 0, 0, CHUNKS, true, true);
        first.windowEnded(99, 0, 0, CHUNKS, true, true);
        assertThat(shared.plainWon()).isTrue();

        VariantPolicy second = new VariantPolicy(shared);
        assertThat(second.opening(false, false)).as("plain not compiled yet").isFalse();
        VariantPolicy third = new VariantPolicy(shared);
        assertThat(third.opening(true, false)).isTrue();
        assertThat(third.phase()).isEqualTo(Phase.PLAIN);
        assertThat(third.probeStartsAt(4096 - 64)).isTrue();
        assertThat(third.opening(true, true)).as("only the first step opens").isTrue();
        // its first probe finds the design idle: flags again, and the next instance opens flagged
        assertThat(third.windowEnded(99, 0, 567, CHUNKS, true, false)).isFalse();
        assertThat(shared.plainWon()).isFalse();
        assertThat(new VariantPolicy(shared).opening(true, false)).isFalse();
    }

    @Test
    void flaggedWinningAComparisonMakesTheNextInstanceOpenFlagged() {
        VariantPolicy.Verdict shared = new VariantPolicy.Verdict();
        VariantPolicy a = new VariantPolicy(shared);
        a.windowEnded(100, BUSY, 0, CHUNKS, true, false);
        a.windowEnded(100, 0, 0, CHUNKS, true, true);
        a.windowEnded(99, 0, 0, CHUNKS, true, true);
        VariantPolicy b = new VariantPolicy(shared);
        b.windowEnded(100, BUSY, 0, CHUNKS, true, false);
        b.windowEnded(100, 0, 0, CHUNKS, true, true);
        assertThat(b.windowEnded(100, 0, 0, CHUNKS, true, true)).as("plain not faster").isFalse();
        assertThat(new VariantPolicy(shared).opening(true, false)).isFalse();
    }

    @Test
    void anIdleProbeEndsPlainAtOnce() {
        VariantPolicy p = new VariantPolicy();
        p.windowEnded(100, BUSY, 0, CHUNKS, true, false);
        p.windowEnded(100, 0, 0, CHUNKS, true, true);
        p.windowEnded(99, 0, 0, CHUNKS, true, true);
        // 63 cycles of 10 chunks, 90%: 567 skipped runs
        assertThat(p.windowEnded(99, 0, 566, CHUNKS, true, false)).isTrue();
        assertThat(p.windowEnded(99, 0, 567, CHUNKS, true, false)).isFalse();
        assertThat(p.phase()).isEqualTo(Phase.FLAGGED);
    }

    @Test
    void flaggedWinsRunsEightFlaggedWindowsBeforeTheNextComparison() {
        VariantPolicy p = new VariantPolicy();
        p.windowEnded(100, BUSY, 0, CHUNKS, true, false);
        p.windowEnded(100, 0, 0, CHUNKS, true, true);
        assertThat(p.windowEnded(100, 0, 0, CHUNKS, true, true)).as("not faster: back to flagged").isFalse();
        assertThat(p.phase()).isEqualTo(Phase.FLAGGED_WON);
        for (int w = 1; w < 8; w++) {
            assertThat(p.windowEnded(1, BUSY, 0, CHUNKS, true, false)).isFalse();
            assertThat(p.phase()).isEqualTo(Phase.FLAGGED_WON);
        }
        assertThat(p.windowEnded(1, BUSY, 0, CHUNKS, true, false)).isFalse();
        assertThat(p.phase()).isEqualTo(Phase.FLAGGED);
    }

    @Test
    void aPinnedPolicyKeepsTheVariantUntilReset() {
        VariantPolicy p = new VariantPolicy();
        p.pin();
        assertThat(p.windowEnded(100, BUSY, 0, CHUNKS, true, true)).isTrue();
        assertThat(p.windowEnded(100, BUSY, 0, CHUNKS, true, false)).isFalse();
        p.reset();
        assertThat(p.windowEnded(100, BUSY, 0, CHUNKS, true, false)).isTrue();
    }
}
