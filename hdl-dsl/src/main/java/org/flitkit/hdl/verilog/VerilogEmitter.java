package org.flitkit.hdl.verilog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;

/**
 * Writes an elaborated {@link Circuit} as Verilog-2001: one module per distinct module body, each in
 * its own file {@code <Module>.v}, clean under {@code verilator --lint-only -Wall}.
 *
 * <p>Conventions of the emitted code:
 * <ul>
 * <li>Module name: {@link Module#definitionName()}; instances of one class that elaborate to different
 * bodies get {@code Name}, {@code Name_1}, ... (instances with identical bodies share a module).</li>
 * <li>Ports, registers, wires, named expressions and instances carry their Java names; other
 * expressions are wires {@code _T_<n>}; a child port is seen in the parent as wire
 * {@code <instance>_<port>}.</li>
 * <li>A module with registers, registered memory reads or memory writes (itself or below) gets inputs
 * {@code clk} and {@code reset} (synchronous, active high) before its own ports; others have neither.</li>
 * <li>Registers and memories start at 0 (memories at their initial contents), like the simulator.</li>
 * <li>Dead logic (see {@link Circuit#warnings()}: a register, wire, named expression or memory whose
 * value reaches no output, child input, memory write or check) is left out; the simulator still runs
 * it and shows it in waves. Everything emitted is therefore read.</li>
 * <li>Lint waivers are targeted (around one declaration) and each has a comment saying why: a child's
 * output this module leaves unused ({@code // fifo.count is not used by this module}); an input port
 * not read, or not read in full; a partly read bus ({@code // bits [7:4] of x are not read: this module
 * uses only part of it}), waived rather than narrowed so that every signal keeps the width and the bits
 * it has in the simulator and in waves; names that Verilator flags as C++ keywords.</li>
 * <li>Java names that are Verilog keywords or {@code clk}/{@code reset} were renamed at elaboration
 * ({@code buf} is {@code buf_}); each is reported once per emission ({@link Result#renames()}). Other
 * SystemVerilog keywords are written as escaped identifiers.</li>
 * <li>Assertions and prints ({@code Hdl.check}, {@code Hdl.printf}) are an {@code always @(posedge clk)}
 * block inside {@code `ifndef SYNTHESIS}, calling {@code $fatal} and {@code $write} while reset is low.</li>
 * <li>Negative signed constants are written as numbers, {@code (-8'sd3)}, not as bit patterns.</li>
 * </ul>
 */
public final class VerilogEmitter {

    /**
     * Everything emitted for one circuit.
     *
     * @param topModule name of the top module
     * @param files file name ({@code Name.v}) to Verilog text, children before parents, the top last
     * @param moduleNames the Verilog module name of every module instance of the circuit (identity keys)
     * @param topClocked whether the top has {@code clk} and {@code reset} inputs
     * @param renames one line per Java name written differently in Verilog (a keyword such as {@code buf})
     */
    public record Result(String topModule, Map<String, String> files, Map<Module, String> moduleNames, boolean topClocked,
            List<String> renames) {
    }

    public VerilogEmitter() {
    }

    /** File name ({@code <Module>.v}) to Verilog text; children before parents, the top module last. */
    public Map<String, String> emit(Circuit c) {
        return emitResult(c).files();
    }

    /**
     * Like {@link #emit} with the top module name and the module name chosen for every instance. The
     * circuit's warnings go to standard error if nobody reported them yet, and each renamed signal once.
     */
    public Result emitResult(Circuit c) {
        c.reportWarnings();
        Map<Module, ModuleWriter.Info> info = new IdentityHashMap<>();
        Map<String, String> bodyToName = new HashMap<>();
        Set<String> usedNames = new HashSet<>();
        Map<String, String> files = new LinkedHashMap<>();
        emitTree(c.top(), info, bodyToName, usedNames, files);
        Map<Module, String> names = new IdentityHashMap<>();
        info.forEach((m, i) -> names.put(m, i.name()));
        ModuleWriter.Info top = info.get(c.top());
        List<String> renames = renames(c, names);
        renames.forEach(r -> System.err.println("note: " + r));
        return new Result(top.name(), Collections.unmodifiableMap(files), Collections.unmodifiableMap(names), top.clocked(), renames);
    }

    /**
     * One line per Java name that the Verilog could not use (a keyword, or clk/reset), per module
     * definition: instances sharing a definition share the rename.
     */
    private static List<String> renames(Circuit c, Map<Module, String> names) {
        Set<String> seen = new LinkedHashSet<>();
        for (Module m : c.modules()) {
            for (Module.Rename r : m.renames()) {
                String why = r.javaName().equals("clk") || r.javaName().equals("reset")
                        ? r.javaName() + " is the implicit " + (r.javaName().equals("clk") ? "clock" : "reset") + " input of the emitted modules"
                        : r.javaName() + " is a Verilog keyword";
                seen.add("module " + names.get(m) + ": Java name '" + r.javaName() + "' (" + r.loc() + ") is '" + r.name()
                        + "' in Verilog and in waves, as " + why);
            }
        }
        return List.copyOf(seen);
    }

    /** Writes every file of {@link #emit} into {@code dir} (created if missing) and returns their paths, the top last. */
    public List<Path> write(Circuit c, Path dir) {
        return write(emit(c), dir);
    }

    /** Writes already emitted files into {@code dir}. */
    public static List<Path> write(Map<String, String> files, Path dir) {
        List<Path> out = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> e : files.entrySet()) {
                Path p = dir.resolve(e.getKey());
                Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
                out.add(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Verilog to " + dir, e);
        }
        return out;
    }

    /**
     * Whether a module (with its children) acts at the clock edge and therefore has {@code clk}/{@code reset}
     * inputs: live registers, registered reads, memory writes, assertions or prints.
     */
    public static boolean isClocked(Module m) {
        if (hasOwnClockedLogic(m)) {
            return true;
        }
        for (Module c : m.children()) {
            if (isClocked(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasOwnClockedLogic(Module m) {
        if (!m.checks().isEmpty() || m.regs().stream().anyMatch(r -> !m.isDead(r)) || m.syncReads().stream().anyMatch(r -> !m.isDead(r))) {
            return true;
        }
        for (Mem<?> mem : m.mems()) {
            if (!m.isDead(mem) && !mem.writes().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void emitTree(Module m, Map<Module, ModuleWriter.Info> info, Map<String, String> bodyToName,
            Set<String> usedNames, Map<String, String> files) {
        boolean clocked = hasOwnClockedLogic(m);
        for (Module c : m.children()) {
            emitTree(c, info, bodyToName, usedNames, files);
            clocked |= info.get(c).clocked();
        }
        String body = new ModuleWriter(m, info, clocked).write();
        String name = bodyToName.get(body);
        if (name == null) {
            String base = Idents.moduleName(m.definitionName());
            name = base;
            // file names must also differ on case-insensitive file systems
            for (int k = 1; usedNames.contains(name.toLowerCase(Locale.ROOT)); k++) {
                name = base + "_" + k;
            }
            usedNames.add(name.toLowerCase(Locale.ROOT));
            bodyToName.put(body, name);
            files.put(name + ".v", body.replace(ModuleWriter.NAME_PLACEHOLDER, name));
        }
        info.put(m, new ModuleWriter.Info(name, clocked));
    }
}
