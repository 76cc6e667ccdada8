package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.flitkit.rtl.nic.NicRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hdl regmap <chip> [--fields]}: the chip's register map, one line per register: {@code NAME 0xADDR ACCESS
 * reset=0xVALUE}; with {@code --fields}, each register that packs several values is followed by one line per field.
 */
@Command(name = "regmap", description = "Print a chip's register map: NAME 0xADDR ACCESS reset=0xVALUE, by address.")
final class RegmapCommand implements Callable<Integer> {
    static final Map<String, Function<Boolean, String>> CHIPS = Map.of("nrc", NrcRegisters::mapText, "nic", NicRegisters::mapText);

    @Option(names = "--fields", description = "After each register that packs several values, one line per field: "
            + "[msb:lsb] name meaning.")
    boolean fields;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<chip>", description = "Chip: ${COMPLETION-CANDIDATES}.", completionCandidates = Chips.class)
    String chip;

    static final class Chips extends java.util.ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Chips() {
            super(new java.util.TreeSet<>(CHIPS.keySet()));
        }
    }

    @Override
    public Integer call() {
        Function<Boolean, String> map = CHIPS.get(chip);
        if (map == null) {
            throw new ParameterException(spec.commandLine(), "unknown chip '" + chip + "'; available: " + String.join(", ", new Chips()));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(map.apply(fields));
        out.flush();
        return 0;
    }
}
