package org.flitkit.tools.synth;

import org.flitkit.hdl.verilog.VerilogEmitter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.flitkit.hdl.Circuit;
import org.junit.jupiter.api.Assumptions;

/** Emits designs into target/verilog-tests and runs the external tools on them. */
final class VerilogTestSupport {
    static final Path ROOT = Path.of("target", "verilog-tests");

    private VerilogTestSupport() {
    }

    /** Skips the test when a tool is missing, unless CI=true, where a missing tool fails it. */
    static void requireTool(String tool) {
        if (VerilogTools.available(tool)) {
            return;
        }
        String msg = tool + " is not on the PATH; install it (Debian: apt-get install verilator iverilog yosys) to run this test";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(msg + " (CI=true: missing tools fail the build)");
        }
        Assumptions.assumeTrue(false, msg);
    }

    /** Emitted design on disk. */
    record Emitted(VerilogEmitter.Result result, Path dir, List<Path> files) {
        String text(String module) {
            return result.files().get(module + ".v");
        }
    }

    static Emitted emit(Circuit c, String name) {
        VerilogEmitter.Result r = new VerilogEmitter().emitResult(c);
        Path dir = ROOT.resolve(name);
        clean(dir);
        List<Path> files = VerilogEmitter.write(r.files(), dir);
        return new Emitted(r, dir, files);
    }

    /** Emits and checks: verilator lint clean, yosys synth and iverilog -g2001 accept it. */
    static Emitted emitAndCheck(Circuit c, String name) {
        Emitted e = emit(c, name);
        lint(e);
        synth(e);
        compile(e);
        return e;
    }

    static void lint(Emitted e) {
        requireTool("verilator");
        VerilogTools.Result r = VerilogTools.verilatorLint(e.files(), e.result().topModule());
        assertThat(r.clean()).as("verilator lint of %s:\n%s", e.dir(), r).isTrue();
    }

    static void synth(Emitted e) {
        requireTool("yosys");
        VerilogTools.Result r = VerilogTools.yosysSynth(e.files(), e.result().topModule());
        assertThat(r.ok()).as("yosys synth of %s:\n%s", e.dir(), r).isTrue();
    }

    static void compile(Emitted e) {
        requireTool("iverilog");
        VerilogTools.Result r = VerilogTools.iverilogCompile(e.files(), e.result().topModule(), e.dir().resolve("design.vvp"));
        assertThat(r.ok()).as("iverilog of %s:\n%s", e.dir(), r).isTrue();
    }

    /** Compiles the design with a testbench module {@code tb} and returns the lines vvp printed. */
    static List<String> simulate(Emitted e, String testbench) {
        VerilogTools.Result r = runIcarus(e, testbench);
        assertThat(r.ok()).as("vvp in %s:\n%s", e.dir(), r).isTrue();
        List<String> lines = new ArrayList<>();
        for (String l : r.output().split("\n")) {
            if (!l.isBlank() && !l.startsWith("VCD") && !l.contains("$finish")) {
                lines.add(l.trim());
            }
        }
        return lines;
    }

    /** Runs the design with a testbench module {@code tb} in Icarus, whatever the exit code (a $fatal exits 1). */
    static VerilogTools.Result runIcarus(Emitted e, String testbench) {
        requireTool("iverilog");
        requireTool("vvp");
        List<Path> files = withTestbench(e, testbench);
        Path out = e.dir().resolve("tb.vvp");
        VerilogTools.Result c = VerilogTools.iverilogCompile(files, "tb", out);
        assertThat(c.ok()).as("iverilog of testbench in %s:\n%s", e.dir(), c).isTrue();
        return VerilogTools.vvp(out, Duration.ofSeconds(60));
    }

    /** Builds the design with a testbench module {@code tb} with Verilator and returns the lines the program printed. */
    static List<String> simulateVerilator(Emitted e, String testbench) {
        VerilogTools.Result r = runVerilator(e, testbench);
        assertThat(r.ok()).as("verilated testbench in %s:\n%s", e.dir(), r).isTrue();
        List<String> lines = new ArrayList<>();
        for (String l : r.output().split("\n")) {
            if (!l.isBlank()) {
                lines.add(l.trim());
            }
        }
        return lines;
    }

    /** Builds and runs the design with a testbench module {@code tb} as a Verilator program, whatever its exit code. */
    static VerilogTools.Result runVerilator(Emitted e, String testbench) {
        requireTool("verilator");
        List<Path> files = withTestbench(e, testbench);
        Path obj = e.dir().resolve("obj_dir");
        VerilogTools.Result c = VerilogTools.verilatorBinary(files, "tb", obj, "simv", Duration.ofMinutes(5));
        assertThat(c.ok()).as("verilator --binary in %s:\n%s", e.dir(), c).isTrue();
        return VerilogTools.run(e.dir(), Duration.ofSeconds(60), List.of(obj.resolve("simv").toAbsolutePath().toString()));
    }

    private static List<Path> withTestbench(Emitted e, String testbench) {
        Path tb = e.dir().resolve("tb.v.txt");
        try {
            Files.writeString(tb, testbench);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        List<Path> files = new ArrayList<>(e.files());
        files.add(tb);
        return files;
    }

    static void clean(Path dir) {
        try {
            if (Files.exists(dir)) {
                try (var s = Files.walk(dir)) {
                    for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                        if (!p.equals(dir)) {
                            Files.delete(p);
                        }
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static Map<String, String> files(Emitted e) {
        return e.result().files();
    }
}
