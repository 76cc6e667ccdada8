package org.flitkit.env.nic.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.testbench.RunConfig;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.fabric.Chip;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.IdentityWord;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.nma.EepParams;
import org.junit.jupiter.api.Test;

/**
 * One compute cabinet of the TH-2 machine as whole chips (164 NRCs, 128 NICs): every link trains, the chips learn
 * their neighbours' deposited CHIP_IDs, the idle machine sleeps between the identity clock's ticks, and sleeping
 * gives exactly the state of stepping every chip every cycle, on 1 and 2 threads.
 */
class Th2MachineTest {
    /** identity ticks every 4,096 cycles, so that a short run sees some */
    static final LinkParams LINK = LinkParams.defaults().withIdentPeriod(4096);
    static final long ANSWER_CYCLES = 752;
    private static Th2Machine.Protos protos;

    private static synchronized Th2Machine.Protos protos() {
        if (protos == null) {
            protos = new Th2Machine.Protos(EepParams.FAST, LINK);
        }
        return protos;
    }

    @Test
    void aCabinetTrainsLearnsItsNeighboursAndSleeps() {
        Th2FatTree tree = new Th2FatTree(1);
        try (Th2Machine m = new Th2Machine(tree, protos(), 1, false)) {
            long settle = m.runUntilSettled(5_000);
            assertThat(m.linksUp()).isEqualTo(m.cableEnds()).isEqualTo(2L * (tree.cables().size() + tree.nodes().size()));
            assertThat(m.chipId(m.nrcs[5])).isEqualTo(Th2Machine.NRC_ID_BASE + 5);
            assertThat(m.chipId(m.nics[7])).isEqualTo(7);
            // node 9 hangs on port 1 of NRC 1 (the second lower NRC of the first bottom switch): each sees the other
            Th2FatTree.Node n = tree.nodes().get(9);
            assertThat(n.nrc()).isEqualTo(1);
            assertThat(m.fabric.peek(m.nics[9], m.nicTop.port.status.neighbour))
                    .isEqualTo(IdentityWord.of(ChipType.NRC, Th2Machine.NRC_ID_BASE + 1, n.port()));
            assertThat(m.fabric.peek(m.nrcs[1], m.nrcTop.links[n.port()].status.neighbour)).isEqualTo(IdentityWord.of(ChipType.NIC, 9, 0));
            // idle: every chip wakes only around the ticks of its identity clock
            long e0 = m.fabric.chipEvaluations();
            m.fabric.run(40_960);
            long perTick = (m.fabric.chipEvaluations() - e0) / 10;
            assertThat(settle).isLessThan(200);
            assertThat(perTick).as("chip evaluations per identity tick").isLessThan(292L * 40);
        }
    }

    @Test
    void theServersNicReadsTheChipIdOfAnNrcFiveNrcsAway() {
        Th2FatTree tree = new Th2FatTree(1);
        try (Th2Machine m = new Th2Machine(tree, protos(), 2, false, 0); ServerNic server = new ServerNic(m, RunConfig.of(1, 0))) {
            m.fabric.runUntil(() -> server.linkUp() && m.linksUp() == m.cableEnds(), 2_000);
            m.fabric.run(200);
            Th2FatTree.Route route = tree.routeFromNode(0, 5);
            assertThat(route.forward()).hasSize(4);
            ServerNic.Answer a = server.readRegister(route, 0x000, 1, 5_000);
            assertThat(a.result()).isInstanceOf(MgmtResult.Ok.class);
            RegisterPayload answer = (RegisterPayload) ((MgmtResult.Ok) a.result()).response().payload();
            assertThat(answer.data()).containsExactly((long) Th2Machine.NRC_ID_BASE + route.target());
            // doorbell to the answer in host memory: PCIe, the NIC, 5 NRCs there and back over 8-cycle cables
            assertThat(a.cycles()).isEqualTo(ANSWER_CYCLES);
            // only the chips on the way woke for it
            assertThat(m.fabric.awakeChips()).isLessThan(10);
        }
    }

    @Test
    void sleepingChipsGiveExactlyTheSteppedMachine() {
        Th2FatTree tree = new Th2FatTree(1);
        List<List<Integer>> digests = new ArrayList<>();
        long[] evaluations = new long[3];
        int k = 0;
        for (boolean exhaustive : new boolean[] {true, false, false}) {
            int threads = k == 2 ? 2 : 1;
            try (Th2Machine m = new Th2Machine(tree, protos(), threads, exhaustive)) {
                // power-up, then two identity ticks
                m.fabric.run(9_000);
                m.fabric.sync();
                List<Integer> d = new ArrayList<>();
                for (Chip c : m.fabric.chips()) {
                    int h = 1;
                    for (String s : c.sim().signalNames()) {
                        h = 31 * h + c.sim().peekBig(s).hashCode();
                    }
                    d.add(h);
                }
                digests.add(d);
                evaluations[k++] = m.fabric.chipEvaluations();
            }
        }
        assertThat(digests.get(1)).containsExactlyElementsOf(digests.get(0));
        assertThat(digests.get(2)).containsExactlyElementsOf(digests.get(0));
        assertThat(evaluations[0]).isEqualTo(292L * 9_000);
        assertThat(evaluations[1]).isEqualTo(evaluations[2]).isLessThan(evaluations[0] / 20);
    }
}
