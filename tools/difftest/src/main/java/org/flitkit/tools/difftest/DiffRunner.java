package org.flitkit.tools.difftest;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.hdl.verilog.VerilogEmitter;

/**
 * Differential testing: each design runs in our simulator and in a reference simulator on its emitted
 * Verilog with the same stimulus, and every output is compared on every cycle. Designs are batched
 * under one wrapper module so one Verilator build covers many of them. A failing random design is
 * shrunk to a small program and printed as DSL source and Verilog with its first differing cycle.
 */
public final class DiffRunner {
    /** One design under test: a name and how to build it; {@code program} is set for random designs. */
    public record Design(String name, Supplier<? extends Module> maker, Program program) {
    }

    /** The first difference found in a design. */
    public record Mismatch(String design, int cycle, String port, BigInteger expected, BigInteger actual) {
        @Override
        public String toString() {
            return design + ": cycle " + cycle + " output " + port + ": reference 0x" + expected.toString(16) + ", ours 0x"
                    + actual.toString(16);
        }
    }

    /** A design the reference simulator refused to build or run: its values were not compared. */
    public record ReferenceError(String design, String error, Path dir) {
        @Override
        public String toString() {
            return design + ": " + error + " (Verilog and build in " + dir + ")";
        }
    }

    /**
     * What a run found. The summary line names reference errors only when there are some, so that a clean
     * run prints {@code designs=N cycles=M mismatches=0}.
     */
    public record Report(int designs, int cycles, List<Mismatch> mismatches, List<ReferenceError> referenceErrors) {
        public Report(int designs, int cycles, List<Mismatch> mismatches) {
            this(designs, cycles, mismatches, List.of());
        }

        public String summary() {
            return summary(designs, cycles, mismatches.size(), referenceErrors.size());
        }

        /** The summary line of a run with these counts (the sum of a sharded run's rows, say). */
        public static String summary(long designs, long cycles, long mismatches, long referenceErrors) {
            return "designs=" + designs + " cycles=" + cycles + " mismatches=" + mismatches
                    + (referenceErrors == 0 ? "" : " reference_errors=" + referenceErrors);
        }

        /** No mismatch and every design compared. */
        public boolean clean() {
            return mismatches.isEmpty() && referenceErrors.isEmpty();
        }
    }

    private final ReferenceSim ref;
    private final Path work;
    private final PrintStream log;
    private int batchSize = 25;
    private int shrinkBudget = 40;

    public DiffRunner(ReferenceSim ref, Path work, PrintStream log) {
        this.ref = ref;
        this.work = work;
        this.log = log;
    }

    public DiffRunner batchSize(int n) {
        batchSize = Math.max(1, n);
        return this;
    }

    public DiffRunner shrinkBudget(int tries) {
        shrinkBudget = tries;
        return this;
    }

    /** {@code count} random designs from {@code seed} (design k uses a seed derived from both). */
    public static List<Design> randomDesigns(int count, long seed, RandomProgram.Shape shape) {
        return randomDesigns(0, count, seed, shape);
    }

    /** Designs {@code from .. from+count-1} of {@link #randomDesigns(int, long, RandomProgram.Shape)}: one shard of a larger run. */
    public static List<Design> randomDesigns(int from, int count, long seed, RandomProgram.Shape shape) {
        List<Design> out = new ArrayList<>();
        for (int k = from; k < from + count; k++) {
            long s = new SplittableRandom(seed).split().nextLong() ^ (k * 0x9E3779B97F4A7C15L);
            Program p = RandomProgram.generate(s, shape);
            String name = "D" + k;
            out.add(new Design(name, () -> new ProgramDesign(name, p), p));
        }
        return out;
    }

    /** Runs every design for {@code cycles} cycles; random designs share batches, others get their own. */
    public Report run(List<Design> designs, int cycles, long seed) {
        List<Mismatch> found = new ArrayList<>();
        List<ReferenceError> refused = new ArrayList<>();
        List<Design> batch = new ArrayList<>();
        int batchNo = 0;
        for (Design d : designs) {
            if (d.program() == null) {
                found.addAll(runOrSplit(List.of(d), cycles, seed, "b" + batchNo++, refused));
                continue;
            }
            batch.add(d);
            if (batch.size() == batchSize) {
                found.addAll(runOrSplit(batch, cycles, seed, "b" + batchNo++, refused));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            found.addAll(runOrSplit(batch, cycles, seed, "b" + batchNo, refused));
        }
        for (ReferenceError e : refused) {
            log.println("REFERENCE-ERROR " + e);
        }
        for (Mismatch m : found) {
            log.println("MISMATCH " + m);
        }
        if (!found.isEmpty()) {
            for (Design d : designs) {
                if (d.name().equals(found.get(0).design()) && d.program() != null) {
                    shrinkAndPrint(d, cycles, seed);
                }
            }
        }
        return new Report(designs.size(), cycles, found, refused);
    }

    /**
     * {@link #runBatch}; when the reference refuses the batch, each of its designs again on its own, so that
     * only the designs it refuses go unchecked (each named with the tool's first error line).
     */
    private List<Mismatch> runOrSplit(List<Design> batch, int cycles, long seed, String tag, List<ReferenceError> refused) {
        try {
            return runBatch(batch, cycles, seed, tag);
        } catch (ReferenceFailure e) {
            if (batch.size() == 1) {
                refused.add(new ReferenceError(batch.get(0).name(), e.firstError(), work.resolve(tag)));
                return List.of();
            }
            log.printf("%s: %s refused the batch (%s); running its %d designs one at a time%n", tag, ref.name(), e.firstError(), batch.size());
            List<Mismatch> out = new ArrayList<>();
            for (Design d : batch) {
                out.addAll(runOrSplit(List.of(d), cycles, seed, tag + "-" + d.name(), refused));
            }
            return out;
        }
    }

    /** Per design, the first mismatch (if any). */
    private List<Mismatch> runBatch(List<Design> batch, int cycles, long seed, String tag) {
        Path dir = work.resolve(tag);
        List<Built> built = new ArrayList<>();
        Map<String, String> files = new LinkedHashMap<>();
        for (Design d : batch) {
            Built b = new Built(d, elaborate(d));
            built.add(b);
            VerilogEmitter.Result v = new VerilogEmitter().emitResult(b.circuit);
            b.top = v.topModule();
            b.clocked = v.topClocked();
            v.files().forEach((k, text) -> {
                String prev = files.putIfAbsent(k, text);
                if (prev != null && !prev.equals(text)) {
                    throw new IllegalStateException("module " + k + " differs between designs of one batch");
                }
            });
        }
        boolean single = built.size() == 1;
        String top = single ? built.get(0).top : "DiffTop";
        if (!single) {
            files.put("DiffTop.v", wrapper(built));
        }
        List<Path> paths = VerilogEmitter.write(files, dir);
        List<Port> ports = new ArrayList<>();
        for (Built b : built) {
            for (Bits in : b.circuit.netlist().inputs()) {
                ports.add(new Port(single ? in.name() : b.design.name() + "_" + in.name(), in.width(), true));
            }
        }
        for (Built b : built) {
            for (Bits out : b.circuit.netlist().outputs()) {
                ports.add(new Port(single ? out.name() : b.design.name() + "_" + out.name(), out.width(), false));
            }
        }
        List<BigInteger[]> stim = new ArrayList<>();
        for (Built b : built) {
            b.stimulus = stimulus(b, cycles, seed);
        }
        for (int c = 0; c < cycles; c++) {
            List<BigInteger> row = new ArrayList<>();
            for (Built b : built) {
                row.addAll(List.of(b.stimulus.get(c)));
            }
            stim.add(row.toArray(new BigInteger[0]));
        }
        boolean clocked = built.stream().anyMatch(b -> b.clocked);
        log.printf("%s: %d design(s) through %s ...%n", tag, built.size(), ref.name());
        List<BigInteger[]> theirs = ref.run(dir, paths, top, clocked, ports, stim);
        if (theirs.size() != cycles) {
            throw new IllegalStateException(ref.name() + " produced " + theirs.size() + " cycles, expected " + cycles);
        }
        List<Mismatch> out = new ArrayList<>();
        int col = 0;
        for (Built b : built) {
            List<Bits> outs = b.circuit.netlist().outputs();
            List<BigInteger[]> ours = simulate(b.circuit, b.stimulus);
            Mismatch m = compare(b.design.name(), outs, ours, theirs, col);
            if (m != null) {
                out.add(m);
            }
            col += outs.size();
        }
        return out;
    }

    private static final class Built {
        final Design design;
        final Circuit circuit;
        String top;
        boolean clocked;
        List<BigInteger[]> stimulus;

        Built(Design design, Circuit circuit) {
            this.design = design;
            this.circuit = circuit;
        }
    }

    private static Mismatch compare(String name, List<Bits> outs, List<BigInteger[]> ours, List<BigInteger[]> theirs, int col) {
        for (int c = 0; c < ours.size(); c++) {
            for (int i = 0; i < outs.size(); i++) {
                BigInteger a = ours.get(c)[i];
                BigInteger e = theirs.get(c)[col + i];
                if (!a.equals(e)) {
                    return new Mismatch(name, c, outs.get(i).name(), e, a);
                }
            }
        }
        return null;
    }

    /** Deterministic per design, input name and cycle, so a shrunk design sees the same values. */
    private static List<BigInteger[]> stimulus(Built b, int cycles, long seed) {
        List<Bits> ins = b.circuit.netlist().inputs();
        List<SplittableRandom> rs = new ArrayList<>();
        for (Bits in : ins) {
            rs.add(new SplittableRandom(seed * 31 + (b.design.name() + "." + in.name()).hashCode()));
        }
        List<BigInteger[]> rows = new ArrayList<>();
        for (int c = 0; c < cycles; c++) {
            BigInteger[] row = new BigInteger[ins.size()];
            for (int i = 0; i < ins.size(); i++) {
                row[i] = value(rs.get(i), ins.get(i).width());
            }
            rows.add(row);
        }
        return rows;
    }

    /** Mostly uniform, sometimes tiny or all ones, so that comparisons and carries get exercised. */
    private static BigInteger value(SplittableRandom r, int w) {
        int k = r.nextInt(8);
        BigInteger max = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
        if (k == 0) {
            return BigInteger.valueOf(r.nextInt(4)).and(max);
        }
        if (k == 1) {
            return max;
        }
        byte[] bytes = new byte[(w + 7) / 8 + 1];
        r.nextBytes(bytes);
        bytes[0] = 0;
        return new BigInteger(bytes).and(max);
    }

    /** Elaborates a design; a random program leaves most values unread on purpose, so its dead-logic warnings are dropped. */
    private static Circuit elaborate(Design d) {
        Circuit c = Circuit.elaborate(d.maker());
        if (d.program() != null) {
            c.reportWarnings(w -> { });
        }
        return c;
    }

    /** Our simulator under the reference protocol: poke, settle, sample, one edge (reset in cycle 0). */
    static List<BigInteger[]> simulate(Circuit c, List<BigInteger[]> stimulus) {
        Simulator sim = Simulator.of(c);
        List<Bits> ins = c.netlist().inputs();
        List<Bits> outs = c.netlist().outputs();
        List<BigInteger[]> rows = new ArrayList<>();
        for (int cyc = 0; cyc < stimulus.size(); cyc++) {
            for (int i = 0; i < ins.size(); i++) {
                Bits in = ins.get(i);
                BigInteger v = stimulus.get(cyc)[i];
                sim.poke(in, in.isSigned() && v.testBit(in.width() - 1) ? v.subtract(BigInteger.ONE.shiftLeft(in.width())) : v);
            }
            BigInteger[] row = new BigInteger[outs.size()];
            for (int i = 0; i < outs.size(); i++) {
                BigInteger v = sim.peekBig(outs.get(i));
                row[i] = v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(outs.get(i).width())) : v;
            }
            rows.add(row);
            if (cyc == 0) {
                sim.reset(1);
            } else {
                sim.step();
            }
        }
        return rows;
    }

    private static String wrapper(List<Built> built) {
        StringBuilder ports = new StringBuilder("module DiffTop (\n    input clk,\n    input reset");
        StringBuilder body = new StringBuilder();
        for (Built b : built) {
            List<String> conn = new ArrayList<>();
            if (b.clocked) {
                conn.add(".clk(clk)");
                conn.add(".reset(reset)");
            }
            for (Bits p : b.circuit.top().ports()) {
                String outer = b.design.name() + "_" + p.name();
                ports.append(",\n    ").append(p.kind() == org.flitkit.hdl.Kind.INPUT ? "input " : "output ")
                        .append(p.width() > 1 ? "[" + (p.width() - 1) + ":0] " : "").append(outer);
                conn.add("." + p.name() + "(" + outer + ")");
            }
            body.append("    ").append(b.top).append(" ").append(b.design.name().toLowerCase()).append(" (")
                    .append(String.join(", ", conn)).append(");\n");
        }
        return ports.append("\n);\n").append(body).append("endmodule\n").toString();
    }

    // ------------------------------------------------------------------ shrinking

    private void shrinkAndPrint(Design d, int cycles, long seed) {
        log.println("shrinking " + d.name() + " (" + d.program().size() + " statements, budget " + shrinkBudget + " runs) ...");
        int[] tries = {0};
        Program p = Shrinker.shrink(d.program(), cand -> {
            if (tries[0]++ >= shrinkBudget) {
                return false;
            }
            try {
                Design c = new Design(d.name(), () -> new ProgramDesign(d.name(), cand), cand);
                return !runBatch(List.of(c), cycles, seed, "shrink" + tries[0]).isEmpty();
            } catch (RuntimeException e) {
                return false;
            }
        });
        Design small = new Design(d.name(), () -> new ProgramDesign(d.name(), p), p);
        List<Mismatch> m = runBatch(List.of(small), cycles, seed, "shrunk");
        Circuit c = elaborate(small);
        log.println("---- smallest failing design (" + p.size() + " statements), DSL source:");
        log.println(p.toJava(d.name(), ((ProgramDesign) c.top()).outputTypes()));
        log.println("---- emitted Verilog:");
        new VerilogEmitter().emit(c).forEach((f, text) -> log.println("// " + f + "\n" + text));
        log.println("---- first difference: " + (m.isEmpty() ? "(none on re-run)" : m.get(0)));
    }

    /** A fresh work directory under the system temp directory. */
    public static Path tempWork(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
