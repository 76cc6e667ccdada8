package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.Callable;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.waves.VcdLimitExceeded;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hdl sim <design>|--class CLASS --cycles N}: simulates a design with nothing around it: the
 * inputs stay at zero (or take seeded random values), reset, N cycles, a summary line, and waves of
 * every signal with a save file showing the top-level ports when asked. A design's {@code check} failing ends
 * the run with one FAIL line (cycle, instance, source line, message) and exit code 1.
 */
@Command(name = "sim", description = "Simulate a design on its own: inputs at zero (or random), reset, N cycles; "
        + "the last line is the summary (cycles, cycles/s).")
final class SimCommand implements Callable<Integer> {
    /** Reset cycles before the N cycles of the run, as the catalog's testbenches do. */
    static final int RESET_CYCLES = 2;

    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Mixin
    DesignOption design;

    @Option(names = "--cycles", paramLabel = "N", description = "Cycles after reset (default: ${DEFAULT-VALUE}).")
    long cycles = 1000;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of --random-inputs (default: ${DEFAULT-VALUE}).")
    long seed = RunConfig.DEFAULT_SEED;

    @Option(names = "--random-inputs", description = "Drive every input with a new random value each cycle instead of zero.")
    boolean randomInputs;

    @Mixin
    RunOptions options;

    /** Drives every top-level input with a fresh random value each cycle, from the run's seed. */
    private static final class RandomInputs extends Component {
        private final List<Bits> inputs;

        RandomInputs(List<Bits> inputs) {
            super("inputs");
            this.inputs = inputs;
        }

        @Override
        protected void drive() {
            for (Bits in : inputs) {
                BigInteger v = rng().bits(in.width());
                sim().poke(in, in.isSigned() && v.testBit(in.width() - 1) ? v.subtract(BigInteger.ONE.shiftLeft(in.width())) : v);
            }
        }
    }

    @Override
    public Integer call() {
        if (cycles < 1) {
            throw new ParameterException(spec.commandLine(), "--cycles must be at least 1, got " + cycles);
        }
        DesignOption.Design d = design.resolve(hdl.catalog());
        options.checkVcdWritable();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.println("design: " + d.origin());
        out.flush();
        String what = "sim " + d.label() + (randomInputs ? " random-inputs seed=" + seed : " zero-inputs");
        ScenarioResult r;
        try (ProgressBars progress = options.progressBars(d.label());
                Testbench<? extends Module> tb = Testbench.create(d.top(), options.config(seed, cycles, progress))) {
            List<Bits> ports = tb.dut().ports();
            tb.traces(ports.toArray(new Bits[0]));
            if (randomInputs) {
                tb.add(new RandomInputs(ports.stream().filter(p -> p.kind() == Kind.INPUT).toList()));
            }
            tb.reset(RESET_CYCLES);
            tb.run(cycles);
            r = tb.result();
        } catch (SimAssertionError | TestbenchFailure f) {
            return Failures.report(out, err, what, f, options.vcd);
        } catch (HdlException e) {
            err.println(e.getMessage());
            err.flush();
            throw CliError.failure("design " + d.label() + " did not elaborate");
        } catch (VcdLimitExceeded e) {
            throw options.limitReached(e);
        }
        RunCommand.printWaves(out, r);
        out.println(RunCommand.summary(what, r));
        out.flush();
        return 0;
    }
}
