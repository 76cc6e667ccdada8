package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.SendEngineParams;
import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Two NICs back to back through a network (paper section 3.4.3, figures 9 and 10): the DMA engines of processors
 * 0 and 1, each on its own PCIe port, and one {@link ChppCable} per direction (link {@code i} carries engine
 * {@code i}'s packets to the other engine). docs/chpp-network.md.
 */
public final class ChppPairBoard extends Module {
    /** Per processor: host BAR writes, DMA requests and completions. */
    public final Vec<Decoupled<MmioWrite>> mmio;
    public final Vec<Decoupled<DmaRequest>> dmaRq;
    public final Vec<Decoupled<DmaCompletion>> dmaCpl;

    public final List<DmaEngine> engines = new ArrayList<>();
    /** {@code links.get(i)}: from engine i to engine 1 - i. */
    public final List<ChppCable> links = new ArrayList<>();

    /** Engines built by {@code engine} from processor 0's and 1's {@link SendEngineParams}; links of the given shape. */
    public ChppPairBoard(SendEngineParams sp, Function<SendEngineParams, DmaEngine> engine, int depth, int latency, boolean getOwnVc) {
        for (int i = 0; i < 2; i++) {
            engines.add(instance("engine" + i, engine.apply(sp.withProcessor(i))));
        }
        for (int i = 0; i < 2; i++) {
            links.add(instance("link" + i, new ChppCable(depth, latency, getOwnVc)));
        }
        mmio = input(Vec(2, () -> Decoupled.of(MmioWrite::new)));
        dmaRq = output(Vec(2, () -> Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES))));
        dmaCpl = input(Vec(2, () -> Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES))));
        for (int i = 0; i < 2; i++) {
            DmaEngine e = engines.get(i);
            ChppCable toOther = links.get(i);
            ChppCable fromOther = links.get(1 - i);
            e.mmio.connect(mmio.get(i));
            dmaRq.get(i).connect(e.dmaRq);
            e.dmaCpl.connect(dmaCpl.get(i));
            toOther.in.connect(e.tx);
            toOther.inGet.connect(e.txGet);
            e.rx.connect(fromOther.out);
            e.rxGet.connect(fromOther.outGet);
        }
    }

    /** The paper's engines ({@link DmaEngine#DmaEngine(SendEngineParams)}). */
    public ChppPairBoard(SendEngineParams sp, int depth, int latency, boolean getOwnVc) {
        this(sp, DmaEngine::new, depth, latency, getOwnVc);
    }
}
