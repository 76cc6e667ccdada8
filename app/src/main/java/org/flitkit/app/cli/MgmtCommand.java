package org.flitkit.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.env.nrc.MgmtScript;
import org.flitkit.env.nrc.MgmtSession;
import org.flitkit.waves.VcdLimitExceeded;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hdl mgmt nrc --script FILE [--vcd FILE]}: drives a simulated NRC through its ports like the
 * management server and prints one line per request, one per fault report and a summary (format in
 * docs/th2-nrc.md). Exit 0 when the script ran, 2 for bad usage or a script that cannot be read (with
 * the reason) or is malformed (with its line).
 */
@Command(name = "mgmt", description = "Run a management-server script against a simulated chip (one line per request, then a summary).")
final class MgmtCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<chip>", description = "Chip: nrc.")
    String chip;

    @Option(names = "--script", required = true, paramLabel = "FILE",
            description = "Commands, one per line: port P, dest ID|any, read A [B], write A V [B W], eeprom-read A.., "
                    + "eeprom-write A V.., corrupt-next, fault N, wait N, timeout N; '#' starts a comment.")
    Path script;

    @Mixin
    RunOptions options;

    @Option(names = "--eeprom-timing", paramLabel = "board|fast", description = "E2PROM path timing: board "
            + "(100 MHz core, 400 kHz I2C, 3 ms write cycle; default) or fast (unit-test timing).")
    String timing = "board";

    @Override
    public Integer call() {
        if (!chip.equals("nrc")) {
            throw new ParameterException(spec.commandLine(), "unknown chip '" + chip + "'; available: nrc");
        }
        EepParams params = switch (timing) {
            case "board" -> EepParams.DEFAULT;
            case "fast" -> EepParams.FAST;
            default -> throw new ParameterException(spec.commandLine(), "--eeprom-timing must be board or fast, got '" + timing + "'");
        };
        PrintWriter out = spec.commandLine().getOut();
        MgmtScript parsed;
        try {
            parsed = MgmtScript.read(script);
        } catch (IOException e) {
            throw CliError.usage("cannot read " + script + ": " + IoErrors.reason(e));
        } catch (MgmtScript.ParseException e) {
            throw CliError.usage(script + ":" + e.line() + ": " + e.getMessage().replaceFirst("^line \\d+: ", ""));
        }
        options.checkVcdWritable();
        try (ProgressBars progress = options.progressBars("mgmt nrc");
                Testbench<Nrc> tb = Testbench.create(() -> new Nrc(params, null), options.config(RunConfig.DEFAULT_SEED, 0, progress))) {
            new MgmtSession(tb, out).run(parsed);
        } catch (VcdLimitExceeded e) {
            throw options.limitReached(e);
        }
        return 0;
    }
}
