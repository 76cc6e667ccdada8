package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.Map;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.junit.jupiter.api.Test;

/**
 * Reductions over a single bit are written as the bit itself (unsigned): Verilator 5.006 stops with "Reduction over single bit
 * value should have been folded" on some of them (a random difftest design found it), and the bit means the same.
 */
class VerilogReductionTest {
    static final class Reductions extends Module {
        final UInt one = input(UInt(1));
        final SInt signedOne = input(SInt(1));
        final UInt four = input(UInt(4));
        final Bool xorOne = output(Bool());
        final Bool andOne = output(Bool());
        final Bool orSigned = output(Bool());
        final Bool xorFour = output(Bool());

        Reductions() {
            xorOne.assign(one.xorR());
            andOne.assign(one.andR());
            orSigned.assign(signedOne.orR());
            xorFour.assign(four.xorR());
        }
    }

    @Test
    void aReductionOverOneUnsignedBitIsTheBit() {
        Map<String, String> files = new VerilogEmitter().emit(Circuit.elaborate(Reductions::new));
        String v = String.join("\n", files.values());
        assertThat(v).contains("assign xorOne = one;").contains("assign andOne = one;")
                .contains("assign orSigned = $unsigned(signedOne);").contains("assign xorFour = ^four;");
    }
}
