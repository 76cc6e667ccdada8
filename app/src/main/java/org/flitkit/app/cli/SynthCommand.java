package org.flitkit.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.tools.synth.XilinxSynth;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hdl synth <design>|--class CLASS [--device D]}: the design's Verilog through Yosys {@code synth_xilinx}, its
 * cells counted as LUTs, LUT RAM, flip-flops, block RAM and DSP, each beside the device's capacity.
 */
@Command(name = "synth", description = "Synthesize a design's Verilog with Yosys for a Xilinx FPGA (synth_xilinx, flattened) and "
        + "report LUTs, LUT RAM, flip-flops, block RAM, DSP and slices against a device; the last line is the summary.")
final class SynthCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Mixin
    DesignOption design;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "xc6vlx365t",
            description = "Device to compare with (its family is synthesized for); default ${DEFAULT-VALUE}, the cHPP paper's.")
    String device;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
            description = "Keep the Verilog and Yosys' statistics (<top>.stat.json) in DIR (default: a temporary directory, deleted).")
    Path dir;

    @Option(names = "--timeout", paramLabel = "MINUTES", defaultValue = "30",
            description = "Give up after this many minutes (default ${DEFAULT-VALUE}; the cHPP engine takes about 6).")
    int timeoutMinutes;

    @Override
    public Integer call() {
        XilinxSynth.Device dev;
        try {
            dev = XilinxSynth.device(device);
        } catch (IllegalArgumentException e) {
            throw CliError.usage("synth: " + e.getMessage());
        }
        if (timeoutMinutes < 1) {
            throw CliError.usage("synth: --timeout must be at least 1 minute, got " + timeoutMinutes);
        }
        if (!VerilogTools.available("yosys")) {
            throw CliError.failure("synth: yosys is not installed (apt-get install yosys)");
        }
        DesignOption.Design d = design.resolve(hdl.catalog());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        VerilogEmitter.Result emitted = VerilogCommand.emit(d, err, "synth");
        if (emitted == null) {
            return 1;
        }
        Path work = dir != null ? dir : temporaryDirectory();
        try {
            List<Path> files = VerilogEmitter.write(emitted.files(), work);
            String top = emitted.topModule();
            out.println("design: " + d.origin());
            out.println("yosys synth_xilinx -family " + dev.family() + " -flatten -noiopad -top " + top + " (" + files.size()
                    + " Verilog files in " + work + ")...");
            out.flush();
            XilinxSynth.Run run;
            try {
                run = XilinxSynth.run(files, top, dev.family(), Duration.ofMinutes(timeoutMinutes));
            } catch (IllegalStateException e) {
                throw CliError.failure("synth: " + e.getMessage());
            }
            report(out, top, dev, run);
            return 0;
        } finally {
            if (dir == null) {
                deleteTree(work);
            }
        }
    }

    private static void report(PrintWriter out, String top, XilinxSynth.Device dev, XilinxSynth.Run run) {
        XilinxSynth.Resources r = run.resources();
        out.println("cells: " + r.cells().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
        out.printf(Locale.ROOT, "%-28s %10s %12s %7s%n", "resource", "count", dev.name(), "%");
        row(out, "LUTs (logic)", r.luts(), dev.luts());
        row(out, "LUTs as RAM / shift reg.", r.lutRamLuts(), dev.luts());
        row(out, "flip-flops", r.flipFlops(), dev.flipFlops());
        row(out, "slices (perfect packing)", r.slicesAtLeast(), dev.slices());
        out.printf(Locale.ROOT, "%-28s %10.1f %,12d %7.1f%n", "block RAM (36 Kb)", r.bram36(), dev.bram36(), 100 * r.bram36() / dev.bram36());
        row(out, "DSP48", r.dsp(), dev.dsp());
        if (!r.others().isEmpty()) {
            out.println("not counted above: " + r.others().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(" ")));
        }
        out.printf(Locale.ROOT, "synth %s device=%s luts=%d lutram_luts=%d ffs=%d bram36=%s dsp=%d slices_at_least=%d slices_pct=%.1f time=%.1fs%n",
                top, dev.name(), r.luts(), r.lutRamLuts(), r.flipFlops(), fmt(r.bram36()), r.dsp(), r.slicesAtLeast(),
                100.0 * r.slicesAtLeast() / dev.slices(), run.seconds());
        out.flush();
    }

    private static void row(PrintWriter out, String what, int n, int capacity) {
        out.printf(Locale.ROOT, "%-28s %,10d %,12d %7.1f%n", what, n, capacity, 100.0 * n / capacity);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("flitkit-synth");
        } catch (IOException e) {
            throw CliError.failure("synth: cannot create a temporary directory: " + e.getMessage());
        }
    }

    private static void deleteTree(Path p) {
        try (var s = Files.walk(p)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
