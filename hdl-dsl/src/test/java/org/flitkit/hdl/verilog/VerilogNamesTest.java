package org.flitkit.hdl.verilog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.Map;

import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/** Names that clash with Verilog or C++ keywords, definition names, and the targeted lint waivers. */
class VerilogNamesTest {
    static final class Pass extends Module {
        final UInt in;
        final UInt out;

        Pass(int w) {
            in = input(UInt(w));
            out = output(UInt(w));
            out.assign(in);
        }

        @Override
        public String definitionName() {
            return "Fifo";
        }
    }

    static final class Names extends Module {
        final UInt type = input(UInt(4));
        final UInt delete = input(UInt(4));
        final UInt unused = input(UInt(8));
        final UInt half = input(UInt(8));
        final UInt out = output(UInt(4));
        final UInt ref = output(UInt(4));
        final UInt wide = output(UInt(6));
        final UInt idle = reg(UInt(4));
        final UInt kept = reg(UInt(4));
        final UInt w = wire(UInt(4));
        final Pass inside = instance(new Pass(4));
        final Pass other = instance(new Pass(6));

        Names() {
            out.assign(type.xor(delete).xor(half.bits(3, 0)));
            w.assign(type);
            kept.assign(out);
            inside.in.assign(delete);
            ref.assign(inside.out);
            other.in.assign(cat(type, lit(0, 2)));
            wide.assign(other.out);
        }
    }

    @Test
    void keywordsAndWaivers() {
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(Circuit.elaborate(Names::new), "names");
        String v = e.text("Names");
        assertThat(e.result().files().keySet()).containsExactly("Fifo.v", "Fifo_1.v", "Names.v");
        assertThat(v).contains("  input [3:0] \\type ,\n")
                .contains("  /* verilator lint_off SYMRSVDWORD */\n  input [3:0] delete,\n  /* verilator lint_on SYMRSVDWORD */\n")
                .contains("  /* verilator lint_off UNUSEDSIGNAL */\n  input [7:0] unused,\n  /* verilator lint_on UNUSEDSIGNAL */\n")
                .contains("  /* verilator lint_off UNUSEDSIGNAL */\n  input [7:0] half,\n  /* verilator lint_on UNUSEDSIGNAL */\n")
                .contains("  output [3:0] \\ref ,\n")
                .contains("  /* verilator lint_off UNUSEDSIGNAL */\n  wire [3:0] w;\n  /* verilator lint_on UNUSEDSIGNAL */\n")
                .contains("  /* verilator lint_off UNUSEDSIGNAL */\n  reg [3:0] idle = 4'h0;\n")
                .contains("  Fifo \\inside  (\n");
        // the module has registers without reset: reset is present but unused
        assertThat(v).contains("  /* verilator lint_off UNUSEDSIGNAL */\n  input reset,\n  /* verilator lint_on UNUSEDSIGNAL */\n");
        // every waiver is targeted: as many lint_off as lint_on, never a global one
        assertThat(count(v, "lint_off")).isEqualTo(count(v, "lint_on")).isEqualTo(7);
        assertThat(e.text("Fifo")).doesNotContain("lint_off").doesNotContain("clk");
    }

    private static int count(String s, String sub) {
        int n = 0;
        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void emissionIsDeterministic() {
        Map<String, String> a = new VerilogEmitter().emit(Circuit.elaborate(Names::new));
        Map<String, String> b = new VerilogEmitter().emit(Circuit.elaborate(Names::new));
        assertThat(a).isEqualTo(b);
    }

    /** No ports, no logic. */
    static final class Empty extends Module {
    }

    static final class Shell extends Module {
        final UInt seed = input(UInt(4));
        final UInt out = output(UInt(4));
        final UInt r = regInit(UInt(4), seed);
        final Empty nothing = instance(new Empty());

        Shell() {
            r.assign(r.add(1));
            out.assign(r);
        }
    }

    @Test
    void emptyModuleAndResetToASignal() {
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(Circuit.elaborate(Shell::new), "shell");
        assertThat(e.text("Empty")).contains("module Empty;\n").doesNotContain("lint_off");
        assertThat(e.text("Shell")).contains("  Empty nothing ();\n").contains("    if (reset) begin\n      r <= seed;\n");
    }
}
