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
import org.flitkit.env.nic.NicEnv;
import org.flitkit.env.nic.NicTransport;
import org.flitkit.env.nic.fabric.FabricEnv;
import org.flitkit.env.nic.fabric.FabricTransport;
import org.flitkit.env.nrc.chip.FabricSpec;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nrc.FaultDriver;
import org.flitkit.env.nrc.MgmtSession;
import org.flitkit.env.host.PcieParams;
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

    @Option(names = "--via", paramLabel = "nic|direct", description = "How requests reach the NRC: nic (default: host API, "
            + "SDQ, the server's NIC and a cable; latency from the doorbell write to the answer in the MPQ) or direct (packets "
            + "straight into the NRC's ports; latency from the first flit in to the last flit out).")
    String via = "nic";

    @Option(names = "--cable-latency", paramLabel = "CYCLES", description = "With --via nic: cycles a flit takes over the cable "
            + "(default ${DEFAULT-VALUE}: 100 ns, about 20 m of fibre).")
    int cableLatency = NicEnv.CABLE_LATENCY;

    @Option(names = "--fabric", paramLabel = "NAME", description = "Whole NRCs (switch core and link layers) cabled as "
            + "fabric NAME (pair, chain3), the server's NIC at chip 0; reach other chips with the script's route command. "
            + "Default: one NRC's management side.")
    String fabric;

    @Option(names = "--lanes-down", paramLabel = "CABLE=MASK", description = "With --fabric: lanes MASK (8 bits, e.g. 0x05) of "
            + "fabric cable CABLE (0 = the first cable between NRCs) are dead from power-up in both directions; the link "
            + "trains to the width the other lanes allow (LINK_STATUS shows it). Repeatable.")
    java.util.Map<Integer, String> lanesDown = new java.util.LinkedHashMap<>();

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
        if (!via.equals("nic") && !via.equals("direct")) {
            throw new ParameterException(spec.commandLine(), "--via must be nic or direct, got '" + via + "'");
        }
        if (cableLatency < 1 || cableLatency > 10_000) {
            throw new ParameterException(spec.commandLine(), "--cable-latency must be 1..10000 cycles, got " + cableLatency);
        }
        options.checkVcdWritable();
        try (ProgressBars progress = options.progressBars("mgmt nrc")) {
            RunConfig cfg = options.config(RunConfig.DEFAULT_SEED, 0, progress);
            // the request lines appear while the status line is up: above it
            PrintWriter lines = progress == null ? out : progress.guard(out);
            if (fabric != null) {
                FabricSpec f;
                try {
                    f = FabricSpec.named(fabric);
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), e.getMessage());
                }
                if (via.equals("direct")) {
                    throw new ParameterException(spec.commandLine(), "--fabric goes through the server's NIC: drop --via direct");
                }
                java.util.Map<Integer, Integer> dead = new java.util.LinkedHashMap<>();
                lanesDown.forEach((cable, mask) -> dead.put(cable, laneMask(mask)));
                if (!dead.isEmpty() && dead.keySet().stream().anyMatch(k -> k < 0 || k >= f.cables().size())) {
                    throw new ParameterException(spec.commandLine(), "--lanes-down: fabric " + f.name() + " has cables 0.."
                            + (f.cables().size() - 1) + ", got " + dead.keySet());
                }
                try (FabricEnv env = new FabricEnv(f, cfg, params, cableLatency, PcieParams.th2(), HostSoftware.NONE, dead)) {
                    FaultDriver faults = env.tb.add(new FaultDriver("faults", env.dut.nrcFaults));
                    new MgmtSession(env.tb, new FabricTransport(env), faults, params, lines).run(parsed);
                }
            } else if (!lanesDown.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--lanes-down needs --fabric (the management-only board has no link layers)");
            } else if (via.equals("direct")) {
                try (Testbench<Nrc> tb = Testbench.create("the NRC", () -> new Nrc(params, null), cfg)) {
                    new MgmtSession(tb, lines).run(parsed);
                }
            } else {
                try (NicEnv env = new NicEnv(cfg, params, cableLatency, PcieParams.th2(), HostSoftware.NONE, 0)) {
                    FaultDriver faults = env.tb.add(new FaultDriver("faults", env.dut.nrcFaults));
                    new MgmtSession(env.tb, new NicTransport(env), faults, params, lines).run(parsed);
                }
            }
        } catch (VcdLimitExceeded e) {
            throw options.limitReached(e);
        }
        return 0;
    }

    private int laneMask(String text) {
        try {
            int m = text.startsWith("0x") || text.startsWith("0X") ? Integer.parseInt(text.substring(2), 16) : Integer.parseInt(text);
            if (m >= 0 && m <= 0xFF) {
                return m;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ParameterException(spec.commandLine(), "--lanes-down: MASK must be 0..0xFF (decimal or 0x hex), got '" + text + "'");
    }
}
