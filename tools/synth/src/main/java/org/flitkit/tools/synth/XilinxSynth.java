package org.flitkit.tools.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Size of emitted Verilog on a Xilinx FPGA: Yosys {@code synth_xilinx} (flattened, no I/O buffers, since a block
 * sits inside a chip) and its cells tallied as the resources a datasheet counts: LUTs, LUTs used as RAM or shift
 * registers, flip-flops, block RAM, DSP slices, and a lower bound on slices. The paper figures this is compared with
 * (e.g. "8 % of the slices of an LX365T") are vendor place-and-route results, so the comparison is rough.
 */
public final class XilinxSynth {
    /** A device's capacity, from its family data sheet. */
    public record Device(String name, String family, int slices, int luts, int flipFlops, int bram36, int dsp) {
    }

    /**
     * Virtex-6 XC6VLX365T (Xilinx DS150, Virtex-6 Family Overview, table 1): 56,880 slices of 4 LUTs and 8
     * flip-flops, 416 block RAMs of 36 Kb, 576 DSP48E1. The cHPP paper's prototype board.
     */
    public static final Device XC6VLX365T = new Device("xc6vlx365t", "xc6v", 56_880, 227_520, 455_040, 416, 576);
    /** The devices {@link #device} knows. */
    public static final List<Device> DEVICES = List.of(XC6VLX365T);

    /** LUTs per slice and flip-flops per slice in the Virtex-6 and 7-series fabric. */
    public static final int LUTS_PER_SLICE = 4;
    public static final int FFS_PER_SLICE = 8;

    /** LUTs a distributed-RAM or shift-register primitive occupies. */
    static final Map<String, Integer> LUT_RAM = Map.ofEntries(Map.entry("RAM32X1S", 1), Map.entry("RAM32X1D", 2),
            Map.entry("RAM32M", 4), Map.entry("RAM64X1S", 1), Map.entry("RAM64X1D", 2), Map.entry("RAM64M", 4),
            Map.entry("RAM128X1S", 2), Map.entry("RAM128X1D", 4), Map.entry("RAM256X1S", 4), Map.entry("SRL16E", 1),
            Map.entry("SRLC16E", 1), Map.entry("SRLC32E", 1));

    private XilinxSynth() {
    }

    /** The device called {@code name}; IllegalArgumentException naming the known ones otherwise. */
    public static Device device(String name) {
        for (Device d : DEVICES) {
            if (d.name().equalsIgnoreCase(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown device '" + name + "'; known: " + DEVICES.stream().map(Device::name).toList());
    }

    /** The cells of a synthesized design by type, and what they add up to. */
    public record Resources(Map<String, Integer> cells) {
        public Resources {
            cells = Map.copyOf(cells);
        }

        private int sum(java.util.function.Predicate<String> type) {
            return cells.entrySet().stream().filter(e -> type.test(e.getKey())).mapToInt(Map.Entry::getValue).sum();
        }

        /** Logic LUTs: LUT1..LUT6 and inverters (an INV cell becomes a LUT1 unless it is absorbed). */
        public int luts() {
            return sum(XilinxSynth::isLut);
        }

        /** LUTs used as distributed RAM or shift registers. */
        public int lutRamLuts() {
            return cells.entrySet().stream().mapToInt(e -> LUT_RAM.getOrDefault(e.getKey(), 0) * e.getValue()).sum();
        }

        /** Flip-flops and latches (FDRE, FDSE, FDCE, FDPE, LDCE, LDPE and their inverted-clock forms). */
        public int flipFlops() {
            return sum(XilinxSynth::isFlipFlop);
        }

        /** Block RAM in 36 Kb units: a RAMB18 is half of one. */
        public double bram36() {
            return sum(t -> t.startsWith("RAMB36")) + sum(t -> t.startsWith("RAMB18")) / 2.0;
        }

        public int dsp() {
            return sum(XilinxSynth::isDsp);
        }

        /** Slices if LUTs and flip-flops were packed perfectly: a lower bound on what place and route gives. */
        public int slicesAtLeast() {
            int byLuts = (luts() + lutRamLuts() + LUTS_PER_SLICE - 1) / LUTS_PER_SLICE;
            int byFfs = (flipFlops() + FFS_PER_SLICE - 1) / FFS_PER_SLICE;
            return Math.max(byLuts, byFfs);
        }

        /** Cell types none of the totals above counts (carry chains, wide muxes, clock buffers...). */
        public Map<String, Integer> others() {
            Map<String, Integer> m = new TreeMap<>();
            cells.forEach((t, n) -> {
                if (!isLut(t) && !LUT_RAM.containsKey(t) && !isFlipFlop(t) && !isBram(t) && !isDsp(t)) {
                    m.put(t, n);
                }
            });
            return m;
        }
    }

    private static boolean isLut(String type) {
        return type.matches("LUT[1-6]") || type.equals("INV");
    }

    private static boolean isFlipFlop(String type) {
        return type.startsWith("FD") || type.startsWith("LD");
    }

    private static boolean isBram(String type) {
        return type.startsWith("RAMB36") || type.startsWith("RAMB18");
    }

    private static boolean isDsp(String type) {
        return type.startsWith("DSP48");
    }

    /** The outcome of one run: the resources, the Yosys command and how long it took. */
    public record Run(Resources resources, List<String> command, double seconds) {
    }

    /** The Yosys script: read, synthesize flattened without I/O buffers, write the cell statistics as JSON. */
    static String script(List<Path> files, String top, String family, Path statJson) {
        StringBuilder s = new StringBuilder("read_verilog -sv");
        files.forEach(f -> s.append(" \"").append(f.toAbsolutePath()).append('"'));
        s.append("; synth_xilinx -family ").append(family).append(" -flatten -noiopad -top ").append(top);
        // yosys runs in the files' directory; a module name has no spaces or quotes
        s.append("; tee -q -o ").append(statJson.getFileName()).append(" stat -json");
        return s.toString();
    }

    /**
     * Synthesizes {@code files} (top module {@code top}) for {@code family}; IllegalStateException with Yosys' output
     * when it fails or runs out of {@code timeout}.
     */
    public static Run run(List<Path> files, String top, String family, Duration timeout) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no Verilog files to synthesize");
        }
        Path dir = files.get(0).toAbsolutePath().getParent();
        Path stat = dir.resolve(top + ".stat.json");
        List<String> cmd = List.of("yosys", "-q", "-p", script(files, top, family, stat));
        long t0 = System.nanoTime();
        VerilogTools.Result r = VerilogTools.run(dir, timeout, cmd);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (r.timedOut()) {
            throw new IllegalStateException("yosys synth_xilinx of " + top + " did not finish within " + timeout.toMinutes() + " min");
        }
        if (!r.ok()) {
            throw new IllegalStateException("yosys synth_xilinx of " + top + " failed (exit " + r.exitCode() + "):\n" + r.output());
        }
        try {
            return new Run(new Resources(parseStat(Files.readString(stat), top)), cmd, seconds);
        } catch (IOException e) {
            throw new IllegalStateException("yosys wrote no statistics to " + stat + ": " + e.getMessage(), e);
        }
    }

    private static final Pattern MODULE = Pattern.compile("\"\\\\\\\\?([^\"]+)\"\\s*:\\s*\\{");
    private static final Pattern CELL = Pattern.compile("\"([^\"]+)\"\\s*:\\s*(\\d+)");

    /**
     * The {@code num_cells_by_type} of module {@code top} in the output of Yosys {@code stat -json} (after
     * flattening the top is the only module with cells); IllegalArgumentException when it is not there.
     */
    public static Map<String, Integer> parseStat(String json, String top) {
        Matcher m = MODULE.matcher(json);
        int from = -1;
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            String name = m.group(1);
            seen.add(name);
            if (name.equals(top)) {
                from = m.end();
                break;
            }
        }
        if (from < 0) {
            throw new IllegalArgumentException("no module " + top + " in the Yosys statistics (modules: " + seen + ")");
        }
        // the module's object ends at its matching brace (stat -json nests only objects, no braces in strings)
        int depth = 1;
        int end = from;
        while (depth > 0 && end < json.length()) {
            char ch = json.charAt(end++);
            depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
        }
        int at = json.indexOf("\"num_cells_by_type\"", from);
        Map<String, Integer> cells = new TreeMap<>();
        if (at < 0 || at > end) {
            return cells; // a module without cells
        }
        int open = json.indexOf('{', at);
        int close = json.indexOf('}', open);
        Matcher c = CELL.matcher(json.substring(open + 1, close));
        while (c.find()) {
            cells.put(c.group(1).replaceFirst("^\\\\+", ""), Integer.parseInt(c.group(2)));
        }
        return cells;
    }
}
