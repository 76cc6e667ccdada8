package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Module;

/**
 * A generated Icarus testbench for the top module: poke inputs, sample every output (printed in hex),
 * step the clock. Each cycle is poke..., sample, step, as a cycle-based simulator would do it.
 */
final class TbScript {
    private final VerilogTestSupport.Emitted design;
    private final Module top;
    private final StringBuilder body = new StringBuilder();
    private final List<Bits> outputs = new ArrayList<>();
    private int samples;

    TbScript(VerilogTestSupport.Emitted design, Module top) {
        this.design = design;
        this.top = top;
        for (Bits p : top.ports()) {
            if (p.kind() == Kind.OUTPUT) {
                outputs.add(p);
            }
        }
    }

    private Bits port(String name) {
        for (Bits p : top.ports()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no port " + name);
    }

    TbScript poke(String input, long v) {
        Bits p = port(input);
        BigInteger b = BigInteger.valueOf(v);
        if (b.signum() < 0) {
            b = b.add(BigInteger.ONE.shiftLeft(p.width()));
        }
        return poke(input, b);
    }

    TbScript poke(String input, BigInteger v) {
        Bits p = port(input);
        body.append("    ").append(input).append(" = ").append(p.width()).append("'h").append(v.toString(16)).append(";\n");
        return this;
    }

    TbScript reset(boolean on) {
        body.append("    reset = 1'b").append(on ? 1 : 0).append(";\n");
        return this;
    }

    /** Prints every output once the inputs have settled. */
    TbScript sample() {
        StringBuilder fmt = new StringBuilder("S");
        StringBuilder args = new StringBuilder();
        for (Bits o : outputs) {
            fmt.append(' ').append(o.name()).append("=%h");
            args.append(", ").append(o.name());
        }
        body.append("    #1;\n    $display(\"").append(fmt).append('"').append(args).append(");\n");
        samples++;
        return this;
    }

    /**
     * Prints {@code text} on a line of its own once the inputs have settled (as {@link #sample()} does):
     * places what the design prints ($write, $fatal) in the sequence.
     */
    TbScript mark(String text) {
        body.append("    #1;\n    $display(\"").append(text).append("\");\n");
        return this;
    }

    /** One rising clock edge. */
    TbScript step() {
        body.append("    clk = 1'b1;\n    #1;\n    clk = 1'b0;\n");
        return this;
    }

    String text() {
        StringBuilder sb = new StringBuilder("module tb;\n");
        List<String> pins = new ArrayList<>();
        if (design.result().topClocked()) {
            sb.append("  reg clk = 1'b0;\n  reg reset = 1'b0;\n");
            pins.add(".clk(clk)");
            pins.add(".reset(reset)");
        }
        for (Bits p : top.ports()) {
            String range = p.width() == 1 ? "" : "[" + (p.width() - 1) + ":0] ";
            if (p.kind() == Kind.INPUT) {
                sb.append("  reg ").append(range).append(p.name()).append(" = 0;\n");
            } else {
                sb.append("  wire ").append(range).append(p.name()).append(";\n");
            }
            pins.add("." + p.name() + "(" + p.name() + ")");
        }
        sb.append("  ").append(design.result().topModule()).append(" dut (").append(String.join(", ", pins)).append(");\n");
        sb.append("  initial begin\n").append(body).append("    $finish;\n  end\nendmodule\n");
        return sb.toString();
    }

    /** Runs in "icarus" or "verilator". */
    List<Map<String, BigInteger>> run(String simulator) {
        return switch (simulator) {
            case "icarus" -> run();
            case "verilator" -> runVerilator();
            default -> throw new IllegalArgumentException(simulator);
        };
    }

    /** Runs in "icarus" or "verilator" and returns the whole output with the exit code, which a $fatal makes non-zero. */
    VerilogTools.Result runRaw(String simulator) {
        return switch (simulator) {
            case "icarus" -> VerilogTestSupport.runIcarus(design, text());
            case "verilator" -> VerilogTestSupport.runVerilator(design, text());
            default -> throw new IllegalArgumentException(simulator);
        };
    }

    /** Runs the testbench in Icarus; one map (output name to value) per sample. */
    List<Map<String, BigInteger>> run() {
        return parse(VerilogTestSupport.simulate(design, text()));
    }

    /** Runs the testbench as a Verilator-built program; one map (output name to value) per sample. */
    List<Map<String, BigInteger>> runVerilator() {
        return parse(VerilogTestSupport.simulateVerilator(design, text()));
    }

    private List<Map<String, BigInteger>> parse(List<String> lines) {
        List<Map<String, BigInteger>> out = new ArrayList<>();
        for (String l : lines) {
            if (!l.startsWith("S")) {
                continue;
            }
            Map<String, BigInteger> m = new LinkedHashMap<>();
            for (String kv : l.substring(1).trim().split(" ")) {
                int eq = kv.indexOf('=');
                String v = kv.substring(eq + 1);
                assertThat(v).as("output %s is not a 2-state value", kv.substring(0, eq)).matches("[0-9a-f]+");
                m.put(kv.substring(0, eq), new BigInteger(v, 16));
            }
            out.add(m);
        }
        assertThat(out).as("samples printed by vvp: %s", lines).hasSize(samples);
        return out;
    }
}
