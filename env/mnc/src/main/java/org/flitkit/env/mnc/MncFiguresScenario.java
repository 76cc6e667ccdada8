package org.flitkit.env.mnc;

import java.io.PrintStream;
import java.util.List;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.figures.FigureScenario;


/**
 * {@code ./hdl run mnc-figures}: every {@link MncFigures} row measured on the node RTL and the platform, model
 * beside paper with the deviation and a status (a calibration point shows {@code calibrated}), then the
 * sweep over the bus rate. The runs go in parallel, one per processor. docs/mnc.md, "Figures".
 */
public final class MncFiguresScenario {
    private MncFiguresScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out) {
        CycleTally cycles = new CycleTally(cfg.progress());
        return FigureScenario.run("MNC figures: node RTL with " + MncEnvs.PACKET_CYCLES + " firmware cycles per packet, PCI calibrated "
                + "on 315/372 MB/s, 250 MB/s links, 3 us; the paper's rows with its software dispatch", "./hdl run mnc-figures",
                List.of(new MncFigures(cycles)), cycles, true, out);
    }
}
