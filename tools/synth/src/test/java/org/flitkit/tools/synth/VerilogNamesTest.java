package org.flitkit.tools.synth;

import org.flitkit.hdl.verilog.VerilogEmitter;
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
        final UInt late = output(UInt(4));
        final UInt low = output(UInt(2));
        final UInt held = reg(UInt(4));
        final UInt idle = reg(UInt(4));
        final UInt w = wire(UInt(4));
        final UInt buf = wire(UInt(4));
        final Pass inside = instance(new Pass(4));
        final Pass other = instance(new Pass(6));
        final Pass spare = instance(new Pass(4));
        final Pass halfUsed = instance(new Pass(4));

        Names() {
            out.assign(type.xor(delete).xor(half.bits(3, 0)));
            w.assign(type);
            buf.assign(delete);
            held.assign(out);
            late.assign(held.xor(buf));
            inside.in.assign(delete);
            ref.assign(inside.out);
            other.in.assign(cat(type, lit(0, 2)));
            wide.assign(other.out);
            spare.in.assign(type);
            halfUsed.in.assign(type);
            low.assign(halfUsed.out.bits(1, 0));
        }
    }

    @Test
    void keywordsAndWaivers() {
        Circuit c = Circuit.elaborate(Names::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(c, "names");
        String v = e.text("Names");
        assertThat(e.result().files().keySet()).containsExactly("Fifo.v", "Fifo_1.v", "Names.v");
        assertThat(v).contains("  input [3:0] \\type ,\n")
                .contains("  // delete is a C++ keyword: legal Verilog, but Verilator warns about it\n"
                        + "  /* verilator lint_off SYMRSVDWORD */\n  input [3:0] delete,\n  /* verilator lint_on SYMRSVDWORD */\n")
                .contains("  // input unused is not read by this module\n"
                        + "  /* verilator lint_off UNUSEDSIGNAL */\n  input [7:0] unused,\n  /* verilator lint_on UNUSEDSIGNAL */\n")
                .contains("  // bits [7:4] of input half are not read: this module uses only part of it\n"
                        + "  /* verilator lint_off UNUSEDSIGNAL */\n  input [7:0] half,\n  /* verilator lint_on UNUSEDSIGNAL */\n")
                .contains("  output [3:0] \\ref ,\n")
                .contains("  // spare.out is not used by this module\n"
                        + "  /* verilator lint_off UNUSEDSIGNAL */\n  wire [3:0] spare_out;\n  /* verilator lint_on UNUSEDSIGNAL */\n")
                .contains("  // bits [3:2] of halfUsed.out are not used by this module\n"
                        + "  /* verilator lint_off UNUSEDSIGNAL */\n  wire [3:0] halfUsed_out;\n")
                .contains("  reg [3:0] held = 4'h0;\n")
                .contains("  wire [3:0] buf_;\n")
                .contains("  Fifo \\inside  (\n");
        // dead logic is left out, not waived: the wire w and the registers nothing reads
        assertThat(v).doesNotContain(" w;").doesNotContain("idle");
        // the module has a register without reset: reset is present but unused, and says so
        assertThat(v).contains("  // reset is not used: no register of this module has a reset value\n"
                + "  /* verilator lint_off UNUSEDSIGNAL */\n  input reset,\n  /* verilator lint_on UNUSEDSIGNAL */\n");
        // every waiver is targeted and explained: as many lint_off as lint_on and comments, never a global one
        assertThat(count(v, "lint_off")).isEqualTo(count(v, "lint_on")).isEqualTo(6);
        assertThat(e.text("Fifo")).doesNotContain("lint_off").doesNotContain("clk");
        assertThat(e.result().renames()).containsExactly("module Names: Java name 'buf' (" + ((Names) c.top()).buf.loc()
                + ") is 'buf_' in Verilog and in waves, as buf is a Verilog keyword");
        assertThat(((Names) c.top()).buf.loc().toString()).startsWith("VerilogNamesTest.java:");
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
