package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.rtl.chpp.xbar.DmaCrossbar;
import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The cHPP controller (paper section 2.3, figure 3): one {@link DmaEngine} per processor, each on its own PCIe port,
 * joined by the intra-DMA {@link DmaCrossbar} (Dest-Mod VCs; GET on its own VC and its own output into the engine's GET
 * path). Processor p's engine is crossbar
 * port p and sends with SRC_ID processor p. docs/chpp-nic.md.
 */
public final class ChppController extends Module {
    public final int ports;
    /** Per processor: host BAR writes, DMA requests and completions. */
    public final Vec<Decoupled<MmioWrite>> mmio;
    public final Vec<Decoupled<DmaRequest>> dmaRq;
    public final Vec<Decoupled<DmaCompletion>> dmaCpl;

    public final List<DmaEngine> engines = new ArrayList<>();
    public final DmaCrossbar crossbar;

    /**
     * {@code ports} engines (2..8: SRC_ID has 3 processor bits) built by {@code engine} from their processor's
     * {@link SendEngineParams}, crossbar with {@code vcs} Dest-Mod VCs.
     */
    public ChppController(int ports, int vcs, SendEngineParams sp, java.util.function.Function<SendEngineParams, DmaEngine> engine) {
        this(check(ports), vcs, sp, engine, true);
    }

    /** The paper's engines ({@link DmaEngine#DmaEngine(SendEngineParams)}). */
    public ChppController(int ports, int vcs, SendEngineParams sp) {
        this(ports, vcs, sp, DmaEngine::new);
    }

    private ChppController(int ports, int vcs, SendEngineParams sp, java.util.function.Function<SendEngineParams, DmaEngine> engine, boolean checked) {
        this.ports = ports;
        crossbar = instance("crossbar", new DmaCrossbar(ports, vcs));
        for (int i = 0; i < ports; i++) {
            engines.add(instance("engine" + i, engine.apply(sp.withProcessor(i))));
        }
        mmio = input(Vec(ports, () -> Decoupled.of(MmioWrite::new)));
        dmaRq = output(Vec(ports, () -> Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES))));
        dmaCpl = input(Vec(ports, () -> Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES))));
        for (int i = 0; i < ports; i++) {
            DmaEngine e = engines.get(i);
            e.mmio.connect(mmio.get(i));
            dmaRq.get(i).connect(e.dmaRq);
            e.dmaCpl.connect(dmaCpl.get(i));
            crossbar.in.get(i).connect(e.tx);
            crossbar.getIn.get(i).connect(e.txGet);
            e.rx.connect(crossbar.out.get(i));
            e.rxGet.connect(crossbar.getOut.get(i));
        }
    }

    private static int check(int ports) {
        if (ports < 2 || ports > org.flitkit.formats.chpp.Chpp.PROCESSORS) {
            throw new IllegalArgumentException("ports " + ports + " outside 2.." + org.flitkit.formats.chpp.Chpp.PROCESSORS
                    + " (one engine per processor; SRC_ID has " + org.flitkit.formats.chpp.Chpp.PROCESSOR_BITS + " processor bits)");
        }
        return ports;
    }
}
