package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.junit.jupiter.api.Test;

/** Three levels, bundles with flipped fields, parameterised instances of one class, Vec of bundles. */
class VerilogHierarchyTest {
    static final class Stream extends Bundle {
        public final Bool valid = Bool();
        public final Bool ready = flipped(Bool());
        public final UInt bits;

        Stream(int w) {
            bits = UInt(w);
        }
    }

    /** A one-entry pipeline stage adding {@code k} to the data. */
    static final class Stage extends Module {
        final Stream in;
        final Stream out;
        final Bool full = regInit(Bool(), 0);
        final UInt data;

        Stage(int w, int k) {
            in = input(new Stream(w));
            out = output(new Stream(w));
            data = reg(UInt(w));
            Bool take = in.valid.and(in.ready);
            in.ready.assign(full.not().or(out.ready));
            when(take, () -> {
                data.assign(in.bits.add(k));
                full.assign(TRUE());
            }).elsewhen(out.ready, () -> full.assign(FALSE()));
            out.valid.assign(full);
            out.bits.assign(data);
        }
    }

    /** Purely combinational: no clock. */
    static final class Swap extends Module {
        final UInt in;
        final UInt out;

        Swap(int w) {
            in = input(UInt(w));
            out = output(UInt(w));
            out.assign(cat(in.bits(w / 2 - 1, 0), in.bits(w - 1, w / 2)));
        }
    }

    static final class Lane extends Module {
        final Stream in;
        final Stream out;
        final Stage first;
        final Stage second;
        final Stage third;
        final Swap swap;

        Lane(int w) {
            in = input(new Stream(w));
            out = output(new Stream(w));
            first = instance(new Stage(w, 1));
            second = instance(new Stage(w, 1));
            third = instance(new Stage(w, 3));
            swap = instance(new Swap(w));
            first.in.connect(in);
            second.in.connect(first.out);
            third.in.connect(second.out);
            swap.in.assign(third.out.bits);
            out.valid.assign(third.out.valid);
            third.out.ready.assign(out.ready);
            out.bits.assign(swap.out);
        }
    }

    static final class Top extends Module {
        final Stream narrowIn = input(new Stream(8));
        final Stream narrowOut = output(new Stream(8));
        final Stream wideIn = input(new Stream(16));
        final Stream wideOut = output(new Stream(16));
        final UInt pick = input(UInt(2));
        final Stream picked = output(new Stream(8));
        final Lane narrow = instance(new Lane(8));
        final Lane wide = instance(new Lane(16));

        Top() {
            narrow.in.connect(narrowIn);
            narrowOut.connect(narrow.out);
            wide.in.connect(wideIn);
            wideOut.connect(wide.out);
            Vec<Stream> choices = Vec(3, () -> new Stream(8));
            Vec<Stream> w = wire(choices);
            for (int i = 0; i < 3; i++) {
                w.get(i).valid.assign(pick.eq(i));
                w.get(i).ready.assign(pick.ne(i));
                w.get(i).bits.assign(lit(0x10 + i, 8));
            }
            Stream sel = w.at(pick);
            picked.valid.assign(sel.valid);
            sel.ready.assign(picked.ready);
            picked.bits.assign(sel.bits);
        }
    }

    @Test
    void oneModulePerDistinctBody() {
        Circuit c = Circuit.elaborate(Top::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(c, "hier");
        Map<String, String> files = e.result().files();
        // Stage(8,1) twice + Stage(8,3) + Stage(16,1) twice + Stage(16,3): four bodies; Lane(8), Lane(16); Swap(8), Swap(16)
        assertThat(files.keySet()).containsExactlyInAnyOrder("Stage.v", "Stage_1.v", "Stage_2.v", "Stage_3.v",
                "Swap.v", "Swap_1.v", "Lane.v", "Lane_1.v", "Top.v");
        assertThat(List.copyOf(files.keySet()).get(files.size() - 1)).isEqualTo("Top.v");
        Top t = (Top) c.top();
        Map<org.flitkit.hdl.Module, String> names = e.result().moduleNames();
        assertThat(names.get(t.narrow.first)).isEqualTo(names.get(t.narrow.second)).isNotEqualTo(names.get(t.narrow.third));
        assertThat(names.get(t.narrow.first)).isNotEqualTo(names.get(t.wide.first));
        String lane = files.get(names.get(t.narrow) + ".v");
        assertThat(lane).contains("  " + names.get(t.narrow.first) + " first (\n    .clk(clk),\n    .reset(reset),\n    .in_valid(first_in_valid),")
                .contains("  " + names.get(t.narrow.swap) + " swap (\n    .in(swap_in),");
        assertThat(files.get(names.get(t.narrow.swap) + ".v")).doesNotContain("clk");
        // flipped field: ready is an output of the top, an input of each stage
        assertThat(files.get("Top.v")).contains("  output narrowIn_ready,").contains("  input narrowOut_ready,");
        assertThat(files.get(names.get(t.narrow.first) + ".v")).contains("  output in_ready,").contains("  input out_ready,");
    }

    @Test
    void pipelineRunsInIcarus() {
        Circuit c = Circuit.elaborate(Top::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(c, "hier-sim");
        TbScript tb = new TbScript(e, c.top());
        tb.reset(true).sample().step().reset(false);
        tb.poke("narrowOut_ready", 1).poke("wideOut_ready", 1);
        tb.poke("narrowIn_valid", 1).poke("narrowIn_bits", 0x12).poke("wideIn_valid", 1).poke("wideIn_bits", 0x1234);
        tb.poke("pick", 1).sample().step();
        tb.poke("narrowIn_valid", 0).poke("wideIn_valid", 0).poke("pick", 3).sample().step();
        tb.sample().step();
        tb.sample();
        List<Map<String, BigInteger>> s = tb.run();
        // three stages: +1, +1, +3, then the halves swap
        assertThat(s.get(4).get("narrowOut_valid")).isEqualTo(1);
        assertThat(s.get(4).get("narrowOut_bits")).isEqualTo(0x71);
        assertThat(s.get(4).get("wideOut_bits")).isEqualTo(0x3912);
        assertThat(s.get(3).get("narrowOut_valid")).isEqualTo(0);
        // Vec of bundles indexed by hardware: element 1, then index 3 is out of range
        assertThat(s.get(1).get("picked_bits")).isEqualTo(0x11);
        assertThat(s.get(1).get("picked_valid")).isEqualTo(1);
        assertThat(s.get(2).get("picked_bits")).isEqualTo(0);
        assertThat(s.get(2).get("picked_valid")).isEqualTo(0);
    }
}
