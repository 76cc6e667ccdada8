package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.PopCount;

import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** The chisel3.util names a Chisel user looks for: Mux1H, MuxLookup, ShiftRegister, Valid, PopCount. */
class ChiselNamesTest {
    static final class Muxes extends Module {
        final UInt sel = input(UInt(3));
        final UInt key = input(UInt(4));
        final UInt oneHot = output(UInt(8));
        final UInt oneHotBits = output(UInt(8));
        final UInt lookup = output(UInt(8));
        final UInt ones = output(UInt(2));

        Muxes() {
            List<UInt> values = List.of(lit(0x11, 8), lit(0x22, 8), lit(0x44, 8));
            oneHot.assign(Mux1H(List.of(sel.bit(0), sel.bit(1), sel.bit(2)), values));
            oneHotBits.assign(Mux1H(sel, values));
            // Map.of iterates in no fixed order: the hardware must not depend on it
            lookup.assign(MuxLookup(key, lit(0xEE, 8), Map.of(3, lit(0x30, 8), 0, lit(0x0A, 8), 9, lit(0x90, 8))));
            ones.assign(PopCount(sel));
        }
    }

    /** A 300-entry register read: the shape of the NMA's register file, where a chain was 300 ORs deep. */
    static final class WideRead extends Module {
        static final int N = 300;
        final UInt sel = input(UInt(9));
        final UInt data = output(UInt(16));
        final Bool hit = output(Bool());
        final int muxDepth;
        final int orDepth;

        WideRead() {
            List<Bool> sels = new java.util.ArrayList<>();
            List<UInt> values = new java.util.ArrayList<>();
            for (int i = 0; i < N; i++) {
                sels.add(sel.eq(i));
                values.add(lit(i * 7 + 1, 16));
            }
            UInt read = Mux1H(sels, values);
            Bool any = orAll(sels);
            muxDepth = orDepth(read);
            orDepth = orDepth(any);
            data.assign(read);
            hit.assign(any);
        }

        private static int orDepth(org.flitkit.hdl.Bits n) {
            if (n.op() != org.flitkit.hdl.Op.OR) {
                return 0;
            }
            return 1 + n.args().stream().mapToInt(WideRead::orDepth).max().orElse(0);
        }
    }

    @Test
    void mux1hAndOrAllAreBalancedTrees() {
        WideRead[] top = new WideRead[1];
        Simulator sim = Simulator.of(() -> top[0] = new WideRead());
        // ceil(log2(300)) = 9 levels; a left-to-right chain would be 299
        assertThat(top[0].muxDepth).isEqualTo(9);
        assertThat(top[0].orDepth).isEqualTo(9);
        for (int sel = 0; sel < 512; sel++) {
            sim.poke("wideRead.sel", sel);
            assertThat(sim.peek("wideRead.data")).as("sel=%d", sel).isEqualTo(sel < WideRead.N ? sel * 7 + 1 : 0);
            assertThat(sim.peek("wideRead.hit")).as("sel=%d", sel).isEqualTo(sel < WideRead.N ? 1 : 0);
        }
        assertThatThrownBy(() -> reduceTree(List.<Bool>of(), Bool::or)).isInstanceOf(HdlException.class).hasMessageContaining("no values");
    }

    @Test
    void mux1hMuxLookupAndPopCount() {
        Simulator sim = Simulator.of(Muxes::new);
        for (int sel = 0; sel < 8; sel++) {
            sim.poke("muxes.sel", sel);
            long want = ((sel & 1) != 0 ? 0x11 : 0) | ((sel & 2) != 0 ? 0x22 : 0) | ((sel & 4) != 0 ? 0x44 : 0);
            assertThat(sim.peek("muxes.oneHot")).as("sel=%d", sel).isEqualTo(want);
            assertThat(sim.peek("muxes.oneHotBits")).as("sel=%d", sel).isEqualTo(want);
            assertThat(sim.peek("muxes.ones")).as("sel=%d", sel).isEqualTo(Integer.bitCount(sel));
        }
        Map<Integer, Integer> table = Map.of(0, 0x0A, 3, 0x30, 9, 0x90);
        for (int key = 0; key < 16; key++) {
            sim.poke("muxes.key", key);
            assertThat(sim.peek("muxes.lookup")).as("key=%d", key).isEqualTo((long) table.getOrDefault(key, 0xEE));
        }
        // the same design twice gives the same netlist order, whatever order Map.of iterates in
        assertThat(new org.flitkit.hdl.verilog.VerilogEmitter().emit(Circuit.elaborate(Muxes::new)))
                .isEqualTo(new org.flitkit.hdl.verilog.VerilogEmitter().emit(Circuit.elaborate(Muxes::new)));
    }

    @Test
    void aLookupKeyTooWideForTheSelectorIsAnError() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            final UInt key = input(UInt(2));
            final UInt out = output(UInt(8));

            {
                out.assign(MuxLookup(key, lit(0, 8), Map.of(4, lit(1, 8))));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("the constant 4 needs 3 bits");
    }

    static final class Delays extends Module {
        final UInt in = input(UInt(8));
        final Bool en = input(Bool());
        final UInt same = output(UInt(8));
        final UInt late = output(UInt(8));
        final UInt gated = output(UInt(8));

        Delays() {
            same.assign(ShiftRegister(in, 0));
            late.assign(ShiftRegister(in, 3));
            gated.assign(ShiftRegister(in, 2, en));
        }
    }

    @Test
    void shiftRegisterDelaysByNStagesThatShiftWhenEnabled() {
        Simulator sim = Simulator.of(Delays::new);
        long[] in = {5, 6, 7, 8, 9, 10, 11};
        long[] en = {1, 1, 0, 1, 0, 0, 1};
        long[] late = new long[in.length];
        long[] gated = new long[in.length];
        long g1 = 0;
        long g2 = 0;
        for (int c = 0; c < in.length; c++) {
            sim.poke("delays.in", in[c]);
            sim.poke("delays.en", en[c]);
            assertThat(sim.peek("delays.same")).isEqualTo(in[c]);
            late[c] = sim.peek("delays.late");
            gated[c] = sim.peek("delays.gated");
            assertThat(gated[c]).as("cycle %d", c).isEqualTo(g2);
            if (en[c] == 1) {
                g2 = g1;
                g1 = in[c];
            }
            sim.step();
        }
        assertThat(late).containsExactly(0, 0, 0, 5, 6, 7, 8);
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            final UInt x = input(UInt(2));
            final UInt y = output(UInt(2));

            {
                y.assign(ShiftRegister(x, -1));
            }
        })).hasMessageContaining("-1 stages");
    }

    /** A producer of Valid values and a consumer that keeps the last valid one. */
    static final class Producer extends Module {
        final UInt x = input(UInt(8));
        final Valid<UInt> out = output(Valid.of(UInt(8)));

        Producer() {
            out.valid.assign(x.bit(0));
            out.bits.assign(x);
        }
    }

    static final class Consumer extends Module {
        final UInt x = input(UInt(8));
        final UInt last = output(UInt(8));
        final Producer producer = instance(new Producer());
        final Valid<UInt> seen = wire(producer.out.cloneType());
        final UInt held = regInit(UInt(8), 0);

        Consumer() {
            producer.x.assign(x);
            seen.connect(producer.out);
            when(seen.fire(), () -> held.assign(seen.bits));
            last.assign(held);
        }
    }

    @Test
    void validCarriesAFlagWithItsBits() {
        Simulator sim = Simulator.of(Consumer::new);
        sim.reset();
        long[] xs = {3, 4, 6, 9, 10};
        long[] last = {0, 3, 3, 3, 9};
        for (int c = 0; c < xs.length; c++) {
            sim.poke("consumer.x", xs[c]);
            assertThat(sim.peek("consumer.last")).as("cycle %d", c).isEqualTo(last[c]);
            sim.step();
        }
        Valid<UInt> type = Valid.of(UInt(12));
        Valid<UInt> copy = Types.cloneType(type);
        assertThat(copy).isNotSameAs(type);
        assertThat(copy.elements().keySet()).containsExactly("valid", "bits");
        assertThat(Types.widthOf(copy)).isEqualTo(13);
    }
}
