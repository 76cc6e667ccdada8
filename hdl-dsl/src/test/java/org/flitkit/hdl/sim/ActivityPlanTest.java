package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/**
 * The activity plan from given chunk reads: who wakes whom, arm readers, guarded counter readers, shadow
 * copies, as the wake-up code the emitters append.
 */
class ActivityPlanTest {
    /** A design whose layout gives the plan a wide slot (the register) to shadow. */
    static final class WideReg extends Module {
        final UInt a = input(UInt(8));
        final UInt q = output(UInt(100));

        WideReg() {
            UInt r = regInit(UInt(100), 0);
            r.assign(a.pad(100));
            q.assign(r);
        }
    }

    private static ActivityPlan.ChunkUse chunk(List<int[]> reads, List<Integer> mems, List<Integer> wide, List<String> owners) {
        return new ActivityPlan.ChunkUse(reads, mems, wide, owners, 100);
    }

    private static int[] narrow(int slot, int guard) {
        return new int[] {0, slot, guard};
    }

    @Test
    void readersArmReadersAndMemoryReaders() {
        Netlist net = Circuit.elaborate(WideReg::new).netlist();
        SlotLayout layout = new SlotLayout(net);
        // chunk 0 computes narrow slot 5; 1 reads it anywhere; 2 only in the first arm of select 7 (key 15);
        // 3 in the second arm of 7 and outside any arm: an ordinary reader
        List<ActivityPlan.ChunkUse> chunks = List.of(
                chunk(List.of(), List.of(), List.of(), List.of("top")),
                chunk(List.<int[]>of(narrow(5, -1)), List.of(0), List.of(), List.of("top.a")),
                chunk(List.of(narrow(5, 15), narrow(5, 15)), List.of(), List.of(), List.of("top.a", "top.b", "top.c")),
                chunk(List.of(narrow(5, 14), narrow(5, -1)), List.of(), List.of(), List.of("top.a", "top.b")));
        ActivityPlan plan = new ActivityPlan(net, layout, chunks, Map.of(5, 0), Set.of());
        assertThat(plan.chunkCount).isEqualTo(4);
        assertThat(plan.flagWords()).isEqualTo(1);
        assertThat(plan.combWake(false, 5)).isEqualTo("act[4] |= 0xaL; if (v[7] != 0L) { act[4] |= 0x4L; }");
        assertThat(plan.storedSelects).containsExactly(7);
        // as a register, slot 5 would wake its ordinary readers in the next cycle's flags (word 5)
        assertThat(plan.nextWake(false, 5)).isEqualTo("act[5] |= 0xaL;");
        assertThat(plan.memWake(0)).isEqualTo("act[5] |= 0x2L;");
        assertThat(plan.combWake(false, 6)).isEmpty();
        assertThat(plan.chunkModules).containsExactly("top", "top.a", "top.a, top.b (+1)", "top.a, top.b");
    }

    @Test
    void aCounterReadOnlyUnderASelectIsWokenAtTheEdgeWhileTheSelectIsInItsArm() {
        Netlist net = Circuit.elaborate(WideReg::new).netlist();
        SlotLayout layout = new SlotLayout(net);
        int counter = layout.stateBase;
        List<ActivityPlan.ChunkUse> chunks = List.of(
                chunk(List.<int[]>of(narrow(counter, 2 * 9)), List.of(), List.of(), List.of("top")),
                chunk(List.<int[]>of(narrow(counter, -1)), List.of(), List.of(), List.of("top")));
        ActivityPlan plan = new ActivityPlan(net, layout, chunks, Map.of(), Set.of(counter));
        assertThat(plan.guardedWakes()).containsExactly("if (nx[0] != v[" + counter + "]) { if (v[9] == 0L) { act[5] |= 0x1L; } }");
        assertThat(plan.nextWake(false, counter)).isEqualTo("act[5] |= 0x2L;");
    }

    @Test
    void aWideValueReadByAnotherChunkGetsAShadowCopy() {
        Netlist net = Circuit.elaborate(WideReg::new).netlist();
        SlotLayout layout = new SlotLayout(net);
        int slot = layout.wideStateBase;
        int before = layout.nw;
        List<ActivityPlan.ChunkUse> chunks = List.of(
                chunk(List.of(), List.of(), List.of(slot), List.of("top")),
                chunk(List.<int[]>of(new int[] {1, slot, -1}), List.of(), List.of(), List.of("top")));
        ActivityPlan plan = new ActivityPlan(net, layout, chunks, Map.of(), Set.of());
        assertThat(plan.shadowOf(slot)).isEqualTo(before);
        assertThat(layout.nw).isEqualTo(before + 2);
        assertThat(plan.combWake(true, slot)).isEqualTo("act[4] |= 0x2L;");
    }
}
