package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/**
 * A static right shift by the operand's width or more leaves one bit: 0 for UInt, the sign for SInt
 * (as the emitted Verilog computes it). Operands narrow and wide, shifted into a narrow or wide result.
 */
class StaticShiftPastWidthTest {

    static final class Shifts extends Module {
        final UInt u;
        final SInt s;
        final UInt[] uOut;
        final SInt[] sOut;

        Shifts(int width, int[] amounts) {
            u = input(UInt(width));
            s = input(SInt(width));
            uOut = new UInt[amounts.length];
            sOut = new SInt[amounts.length];
            for (int i = 0; i < amounts.length; i++) {
                int w = Math.max(1, width - amounts[i]);
                uOut[i] = output(UInt(w));
                uOut[i].assign(u.shr(amounts[i]));
                sOut[i] = output(SInt(w));
                sOut[i].assign(s.shr(amounts[i]));
            }
        }
    }

    @Test
    void shiftsAtAndPastTheWidthLeaveZeroOrTheSign() {
        SplittableRandom r = new SplittableRandom(1769);
        for (int width : new int[] {2, 31, 63, 64, 65, 67, 128, 130, 200}) {
            int[] amounts = {width - 1, width, width + 1, width + 2, width + 70};
            Simulator sim = Simulator.of(() -> new Shifts(width, amounts));
            Shifts t = (Shifts) sim.circuit().top();
            for (int trial = 0; trial < 8; trial++) {
                // the top bit set in half the trials: a UInt's MSB must not leak into a shift past the width
                BigInteger u = new BigInteger(width, new java.util.Random(r.nextLong())).setBit(width - 1);
                BigInteger s = new BigInteger(width, new java.util.Random(r.nextLong()))
                        .subtract(BigInteger.ONE.shiftLeft(width - 1));
                if (trial % 2 == 1) {
                    u = u.clearBit(width - 1);
                    s = s.negate().subtract(BigInteger.ONE);
                }
                sim.poke(t.u, u);
                sim.poke(t.s, s);
                for (int i = 0; i < amounts.length; i++) {
                    int p = amounts[i];
                    assertThat(sim.peekBig(t.uOut[i])).as("UInt(%d) >> %d of %s", width, p, u)
                            .isEqualTo(p >= width ? BigInteger.ZERO : u.shiftRight(p));
                    assertThat(sim.peekBig(t.sOut[i])).as("SInt(%d) >> %d of %s", width, p, s)
                            .isEqualTo(s.shiftRight(Math.min(p, width - 1)));
                }
            }
        }
    }
}
