package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Netlist;
import org.junit.jupiter.api.Test;

/** The two evaluation orders of {@link SlotLayoutTest.Top}. */
class ScheduleTest {
    /** An item as "comb NAME", "next NAME", or the operation of an unnamed value, with its module instance. */
    private static List<String> describe(List<Schedule.Item> items) {
        return items.stream().map(it -> (it.next() ? "next " : "comb ") + (it.node().name() != null ? it.node().path() : it.node().op())
                + " @" + it.node().owner().path()).toList();
    }

    @Test
    void constantsFirstThenEachModuleInstanceTogether() {
        Netlist net = Circuit.elaborate(SlotLayoutTest.Top::new).netlist();
        Schedule s = new Schedule(net, new SlotLayout(net));
        assertThat(s.constantItems).isEqualTo(1);
        assertThat(describe(s.clustered)).containsExactly(
                "comb top.seven @top",
                "comb top.leaf_0.out @top.leaf_0",
                "comb top.big @top",
                "comb top.s @top",
                "comb ADD @top",
                "comb SLICE @top",
                "comb XOR @top",
                "next top.cnt @top",
                "comb CAT @top",
                "comb top.sum @top",
                "comb EXT @top",
                "next top.wide @top",
                "comb top.leaf_0.in @top.leaf_0",
                "comb ADD @top.leaf_0",
                "next top.leaf_0.r @top.leaf_0");
    }

    @Test
    void thePlainOrderPutsEachNextStateRightAfterTheLastValueItReads() {
        Netlist net = Circuit.elaborate(SlotLayoutTest.Top::new).netlist();
        Schedule s = new Schedule(net, new SlotLayout(net));
        assertThat(describe(s.fused)).containsExactly(
                "comb top.leaf_0.out @top.leaf_0",
                "comb XOR @top",
                "comb top.sum @top",
                "comb top.big @top",
                "comb top.seven @top",
                "comb top.s @top",
                "comb top.leaf_0.in @top.leaf_0",
                "comb ADD @top",
                "next top.cnt @top",
                "comb SLICE @top",
                "comb CAT @top",
                "comb EXT @top",
                "next top.wide @top",
                "comb ADD @top.leaf_0",
                "next top.leaf_0.r @top.leaf_0");
    }
}
