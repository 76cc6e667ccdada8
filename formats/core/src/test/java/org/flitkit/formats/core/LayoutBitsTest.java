package org.flitkit.formats.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** The hardware field accessor against hand-computed words: get, with, pack, byteReverse and their errors. */
class LayoutBitsTest {
    static final Field LOW = new Field("low", 0, 8);
    static final Field MID = new Field("mid", 12, 4);
    static final Field TOP = new Field("top", 24, 8);

    static final class Dut extends Module {
        final UInt word = input(UInt(32));
        final UInt mid = output(UInt(4));
        /** word with mid = 0x3 (a 2-bit value, zero-extended) */
        final UInt withMid = output(UInt(32));
        /** word with top = 0xA5 */
        final UInt withTop = output(UInt(32));
        /** low and top of word packed back into a zero word */
        final UInt packed = output(UInt(32));
        final UInt reversed = output(UInt(32));

        Dut() {
            mid.assign(LayoutBits.get(word, MID));
            withMid.assign(LayoutBits.with(word, MID, lit(3, 2)));
            withTop.assign(LayoutBits.with(word, TOP, 0xA5));
            packed.assign(LayoutBits.pack(32, List.of(new LayoutBits.Slot(LOW, LayoutBits.get(word, LOW)),
                    new LayoutBits.Slot(TOP, LayoutBits.get(word, TOP)))));
            reversed.assign(LayoutBits.byteReverse(word));
        }
    }

    @Test
    void readsReplacesPacksAndReversesFields() {
        Simulator sim = Simulator.of(Dut::new);
        Dut d = (Dut) sim.circuit().top();
        sim.poke(d.word, 0x1234_5678L);
        sim.step();
        assertThat(sim.peek(d.mid)).isEqualTo(0x5);
        assertThat(sim.peek(d.withMid)).isEqualTo(0x1234_3678L);
        assertThat(sim.peek(d.withTop)).isEqualTo(0xA534_5678L);
        assertThat(sim.peek(d.packed)).isEqualTo(0x1200_0078L);
        assertThat(sim.peek(d.reversed)).isEqualTo(0x7856_3412L);
    }

    @Test
    void misfitValuesAndFieldsAreClearErrors() {
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt out = output(UInt(32));
            {
                out.assign(LayoutBits.with(lit(0, 32), MID, lit(0x1F, 5)));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("field mid is 4 bits; value is 5");
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt out = output(UInt(16));
            {
                out.assign(LayoutBits.with(lit(0, 16), TOP, 1));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("field top [31:24] is outside a 16-bit word");
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt out = output(UInt(32));
            {
                out.assign(LayoutBits.pack(32, List.of(new LayoutBits.Slot(LOW, lit(1, 8)),
                        new LayoutBits.Slot(new Field("wide", 4, 8), lit(1, 8)))));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("low[7:0] overlaps another field or exceeds the 32-bit word");
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt out = output(UInt(32));
            {
                out.assign(LayoutBits.pack(32, List.of(new LayoutBits.Slot(LOW, lit(1, 4)))));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("low[7:0]: value of 4 bits");
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt out = output(UInt(12));
            {
                out.assign(LayoutBits.byteReverse(lit(0, 12)));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("byteReverse needs whole bytes, got 12 bits");
    }

    @Test
    void softwareGetAndSetOfABigIntegerWordMatchTheField() {
        java.math.BigInteger w = MID.set(java.math.BigInteger.valueOf(0x1234_5678L), 0xC);
        assertThat(w).isEqualTo(java.math.BigInteger.valueOf(0x1234_C678L));
        assertThat(MID.get(w)).isEqualTo(0xC);
        assertThatThrownBy(() -> MID.set(w, 0x10)).hasMessage("mid is 4 bits; 0x10 does not fit");
    }
}
