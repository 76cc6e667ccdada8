package org.flitkit.tools.difftest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flitkit.tools.synth.VerilogTools;

/** Verilator as the reference: a generated C++ harness reads the stimulus and prints the outputs. */
public final class VerilatorSim implements ReferenceSim {
    @Override
    public String name() {
        return "verilator";
    }

    @Override
    public List<BigInteger[]> run(Path dir, List<Path> files, String top, boolean clocked, List<Port> ports, List<BigInteger[]> stimulus) {
        Path harness = dir.resolve("harness.cpp");
        write(harness, harness(top, clocked, ports));
        Path exe = build(dir, files, top, harness, referenceOptions(), "-O1");
        Path stim = dir.resolve("stimulus.hex");
        StimulusFiles.write(stim, stimulus);
        VerilogTools.Result r = VerilogTools.run(dir, Duration.ofMinutes(10), List.of("sh", "-c", exe + " " + stimulus.size() + " < " + stim));
        if (!r.ok()) {
            throw new ReferenceFailure("Verilator model failed: " + r);
        }
        return StimulusFiles.read(r.output(), (int) ports.stream().filter(p -> !p.input()).count(), name());
    }

    /**
     * Verilator options for the reference (docs/difftest.md), with two Verilator 5 passes off. Verilator
     * 5.006's DFG pass folds {@code a <= $signed(b | $unsigned(a))}, with {@code a = $signed({1'b0, x})},
     * to 0 once inlining ties {@code x} and {@code b} to 0; Icarus, Verilator {@code -O0} and we say 1.
     * Its expand pass leaves an XOR reduction over a port that inlining narrows to one bit (a child's
     * output {@code {4'h0, b}}) for code generation, which stops with an internal error. A reference
     * must not report its optimizer's bugs as ours. The benchmark keeps both passes on: it measures
     * Verilator at its fastest and checks the checksum.
     */
    static List<String> referenceOptions() {
        return majorVersion() >= 5 ? List.of("-O1", "-fno-dfg", "-fno-expand") : List.of("-O1");
    }

    private static Integer majorVersion;

    /** The major version of the Verilator on the PATH (0 when {@code --version} says nothing readable). */
    static synchronized int majorVersion() {
        if (majorVersion == null) {
            VerilogTools.Result r = VerilogTools.run(Path.of("."), Duration.ofMinutes(1), List.of("verilator", "--version"));
            Matcher m = Pattern.compile("Verilator (\\d+)\\.").matcher(r.output());
            majorVersion = r.ok() && m.find() ? Integer.parseInt(m.group(1)) : 0;
        }
        return majorVersion;
    }

    /** Verilates and compiles a harness; returns the executable. Shared with the benchmark. */
    public static Path build(Path dir, List<Path> files, String top, Path harness, List<String> verilatorOpt, String cOpt) {
        List<String> cmd = new ArrayList<>(List.of("verilator", "--cc", "--exe", "--build", "-j", "2", "-Wno-fatal", "-Wno-lint",
                "-Wno-style", "--x-assign", "fast", "--x-initial", "fast", "--top-module", top, "-Mdir", dir.resolve("obj").toString(),
                "-CFLAGS", cOpt, "-o", "V" + top));
        cmd.addAll(verilatorOpt);
        cmd.add(harness.toString());
        for (Path f : files) {
            cmd.add(f.toString());
        }
        VerilogTools.Result r = VerilogTools.run(dir, Duration.ofMinutes(15), cmd);
        if (!r.ok()) {
            throw new ReferenceFailure("Verilator build failed: " + r);
        }
        return dir.resolve("obj").resolve("V" + top);
    }

    /** Writes a generated source file (harnesses, testbenches). */
    public static void write(Path p, String text) {
        try {
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String harness(String top, boolean clocked, List<Port> ports) {
        StringBuilder sb = new StringBuilder();
        sb.append("#include \"V").append(top).append(".h\"\n#include \"verilated.h\"\n#include <cstdio>\n#include <cstring>\n#include <cstdint>\n#include <cstdlib>\n\n");
        sb.append("""
                // hex text <-> 32-bit words, least significant word first
                static void parse(const char* s, uint32_t* w, int words) {
                    for (int i = 0; i < words; i++) w[i] = 0;
                    int n = (int) strlen(s);
                    for (int k = 0; k < n; k++) {
                        char c = s[n - 1 - k];
                        uint32_t d = c <= '9' ? c - '0' : (c | 32) - 'a' + 10;
                        if (k / 8 < words) w[k / 8] |= d << (4 * (k % 8));
                    }
                }
                static void print(const uint32_t* w, int words) {
                    int i = words - 1;
                    while (i > 0 && w[i] == 0) i--;
                    printf("%x", w[i]);
                    for (i--; i >= 0; i--) printf("%08x", w[i]);
                }
                static uint64_t parse64(const char* s) { uint32_t w[2]; parse(s, w, 2); return ((uint64_t) w[1] << 32) | w[0]; }
                static void print64(uint64_t v) { uint32_t w[2] = {(uint32_t) v, (uint32_t) (v >> 32)}; print(w, 2); }

                int main(int argc, char** argv) {
                    Verilated::commandArgs(argc, argv);
                """);
        sb.append("    V").append(top).append("* top = new V").append(top).append(";\n");
        // the cycle count comes as argv[1]: designs without inputs read no stimulus lines
        sb.append("    static char tok[4096];\n    long cycles = argc > 1 ? atol(argv[1]) : 0;\n");
        sb.append("    for (long cycle = 0; cycle < cycles; cycle++) {\n");
        boolean first = true;
        for (Port p : ports) {
            if (!p.input()) {
                continue;
            }
            sb.append("        if (scanf(\"%4095s\", tok) != 1) ").append(first ? "break" : "return 1").append(";\n");
            first = false;
            if (p.width() <= 64) {
                sb.append("        top->").append(p.name()).append(" = (").append(p.cppType()).append(") parse64(tok);\n");
            } else {
                sb.append("        parse(tok, top->").append(p.name()).append(".data(), ").append(p.words()).append(");\n");
            }
        }
        if (clocked) {
            sb.append("        top->reset = cycle == 0;\n        top->clk = 0;\n");
        }
        sb.append("        top->eval();\n");
        boolean sep = false;
        for (Port p : ports) {
            if (p.input()) {
                continue;
            }
            if (sep) {
                sb.append("        putchar(' ');\n");
            }
            sep = true;
            sb.append(p.width() <= 64 ? "        print64(top->" + p.name() + ");\n"
                    : "        print(top->" + p.name() + ".data(), " + p.words() + ");\n");
        }
        sb.append("        putchar('\\n');\n");
        if (clocked) {
            sb.append("        top->clk = 1;\n        top->eval();\n");
        }
        sb.append("    }\n    top->final();\n    delete top;\n    return 0;\n}\n");
        return sb.toString();
    }
}
