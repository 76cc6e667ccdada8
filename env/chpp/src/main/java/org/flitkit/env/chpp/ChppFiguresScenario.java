package org.flitkit.env.chpp;

import java.io.PrintStream;
import java.util.List;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.figures.FigureScenario;

/**
 * {@code ./hdl run chpp-figures}: every cHPP figure of the paper measured on the RTL (the NIC's, {@link ChppFigures},
 * and the crossbar's, {@link ChppXbarFigures}), printed as figure-table rows, model beside paper with the
 * deviation. The sessions run in parallel, one per processor; the PASS line's cycles are those of all of them, runs,
 * waits and crossbar loads, which the command's status line counts as they go. docs/chpp-nic.md, "Figures".
 */
public final class ChppFiguresScenario {
    private ChppFiguresScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out) {
        CycleTally cycles = new CycleTally(cfg.progress());
        return FigureScenario.run("cHPP figures: two RTL DMA engines of one controller against the PCIe host model (250 MHz,"
                + " PcieParams.chpp()), and the crossbar alone; seed " + cfg.seed(), "./hdl run chpp-figures",
                List.of(new ChppFigures(cfg.seed(), cycles), new ChppXbarFigures(cycles)), cycles, false, out);
    }
}
