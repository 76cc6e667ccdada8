package org.flitkit.tools.difftest;

import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.tools.synth.VerilogTools;

/** Icarus Verilog as the reference: a generated Verilog testbench reads the stimulus with $fscanf. */
public final class IcarusSim implements ReferenceSim {
    @Override
    public String name() {
        return "iverilog";
    }

    @Override
    public List<BigInteger[]> run(Path dir, List<Path> files, String top, boolean clocked, List<Port> ports, List<BigInteger[]> stimulus) {
        Path stim = dir.resolve("stimulus.hex");
        StimulusFiles.write(stim, stimulus);
        Path tb = dir.resolve("difftest_tb.v");
        VerilatorSim.write(tb, testbench(top, clocked, ports, stim, stimulus.size()));
        List<Path> all = new ArrayList<>(files);
        all.add(tb);
        Path out = dir.resolve("sim.vvp");
        VerilogTools.Result c = VerilogTools.iverilogCompile(all, "difftest_tb", out);
        if (!c.ok()) {
            throw new ReferenceFailure("iverilog failed: " + c);
        }
        VerilogTools.Result r = VerilogTools.vvp(out, Duration.ofMinutes(10));
        if (!r.ok()) {
            throw new ReferenceFailure("vvp failed: " + r);
        }
        List<String> lines = new ArrayList<>();
        for (String l : r.output().split("\n")) {
            if (l.startsWith("@ ")) {
                lines.add(l.substring(2));
            }
        }
        return StimulusFiles.read(String.join("\n", lines), (int) ports.stream().filter(p -> !p.input()).count(), name());
    }

    static String testbench(String top, boolean clocked, List<Port> ports, Path stim, int cycles) {
        StringBuilder sb = new StringBuilder("`timescale 1ns/1ns\nmodule difftest_tb;\n");
        sb.append("    reg clk = 0;\n    reg reset = 0;\n    integer fd, cycle, n;\n");
        List<String> conn = new ArrayList<>();
        if (clocked) {
            conn.add(".clk(clk)");
            conn.add(".reset(reset)");
        }
        StringBuilder scan = new StringBuilder();
        StringBuilder fmt = new StringBuilder();
        StringBuilder outs = new StringBuilder();
        for (Port p : ports) {
            String range = p.width() > 1 ? "[" + (p.width() - 1) + ":0] " : "";
            sb.append("    ").append(p.input() ? "reg " : "wire ").append(range).append("p_").append(p.name()).append(";\n");
            conn.add("." + p.name() + "(p_" + p.name() + ")");
            if (p.input()) {
                scan.append(", p_").append(p.name());
            } else {
                fmt.append(fmt.length() == 0 ? "%h" : " %h");
                outs.append(", p_").append(p.name());
            }
        }
        sb.append("    ").append(top).append(" dut (").append(String.join(", ", conn)).append(");\n");
        sb.append("    initial begin\n        fd = $fopen(\"").append(stim).append("\", \"r\");\n");
        sb.append("        for (cycle = 0; cycle < ").append(cycles).append("; cycle = cycle + 1) begin\n");
        long inputs = ports.stream().filter(Port::input).count();
        if (inputs > 0) {
            sb.append("            n = $fscanf(fd, \"").append("%h ".repeat((int) inputs).trim()).append("\\n\"").append(scan).append(");\n");
        }
        sb.append("            reset = cycle == 0;\n            #1;\n");
        sb.append("            $display(\"@ ").append(fmt).append("\"").append(outs).append(");\n");
        sb.append("            clk = 1;\n            #1;\n            clk = 0;\n        end\n        $finish;\n    end\nendmodule\n");
        return sb.toString();
    }
}
