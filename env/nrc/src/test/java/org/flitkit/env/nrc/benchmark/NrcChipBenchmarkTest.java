package org.flitkit.env.nrc.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcChip;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.junit.jupiter.api.Test;

/**
 * The {@code nrc-chip} benchmark loads the whole chip as its description says: all 24 links up, data
 * crossing the switch core from every port, the NMA answering the management requests mixed in, and
 * nothing dropped or misframed anywhere (docs/th2-nrc-switch.md, "Measured (chip level)"); and so does its 4-port build.
 */
class NrcChipBenchmarkTest {
    static final int CYCLES = 6_000;

    @Test
    void dataCrossesEveryPortAndTheNmaAnswers() {
        assertLoaded(NrcChipBenchmark::new, 19_166, 106);
    }

    /** The 4-port build the differential tests run (2 x 2 relay stations): the same load, every block at work. */
    @Test
    void theReducedChipCarriesDataAndAnswersOnItsFourPorts() {
        NrcChipBenchmark b = assertLoaded(NrcChipBenchmark::reduced, 3_863, 14);
        assertThat(b.board.nrc.geometry).isEqualTo(new RsGeometry(2, 2));
    }

    /**
     * The chip benchmark's requests never write a port's BIST_CTRL: a random write there started a link BIST of random
     * length, which stopped the traffic of the whole chip after about 40,000 cycles (the port's output backs up into
     * the shared buffers). The management plane's benchmark, which has no link layers, keeps them.
     */
    @Test
    void theChipsRequestsLeaveTheLinkBistAlone() {
        java.util.Set<Long> bist = new java.util.HashSet<>();
        for (int p = 0; p < 24; p++) {
            bist.add((long) NrcRegisters.portAddress(p, NmaRegisters.PORT_BIST_CTRL));
        }
        assertThat(java.util.Arrays.stream(RequestGenerator.registerAddresses(24, false)).boxed()).doesNotContainAnyElementsOf(bist);
        assertThat(java.util.Arrays.stream(RequestGenerator.registerAddresses(24, true)).boxed()).containsAnyElementsOf(bist);
    }

    /** {@link #CYCLES} cycles of the benchmark from reset: every port loaded, nothing lost, exactly this many packets and responses. */
    private static NrcChipBenchmark assertLoaded(java.util.function.Supplier<NrcChipBenchmark> design, long packets, long responses) {
        Simulator sim = Simulator.of(design);
        NrcChipBenchmark b = (NrcChipBenchmark) sim.circuit().top();
        sim.reset();
        sim.step(CYCLES);
        NrcChip chip = b.board.nrc;
        SwitchCore core = chip.core;
        for (int p = 0; p < core.params.ports(); p++) {
            assertThat(sim.peek(chip.links[p].status.up)).as("link %d up", p).isEqualTo(1);
            assertThat(sim.peek(core.forwarded.get(p))).as("packets forwarded from port %d", p).isGreaterThan(100);
            assertThat(sim.peek(chip.links[p].status.protocolErrors)).as("link %d protocol errors", p).isZero();
            assertThat(sim.peek(b.board.peers[p].overflowDrops)).as("far end %d overflow drops", p).isZero();
        }
        assertThat(sim.peek(core.malformedDrops) + sim.peek(core.unroutableDrops) + sim.peek(core.badVcDrops)
                + sim.peek(core.overflowDrops) + sim.peek(core.framingErrors) + sim.peek(core.linkDownDrops))
                .as("packets the core dropped or misframed").isZero();
        assertThat(sim.peek(b.packets)).as("packets the far ends took").isEqualTo(packets);
        assertThat(sim.peek(b.responses)).as("NMA responses the far ends took").isEqualTo(responses);
        return b;
    }
}
