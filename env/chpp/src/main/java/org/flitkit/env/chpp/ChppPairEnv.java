package org.flitkit.env.chpp;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.chpp.upload.BufferParams;
import org.flitkit.rtl.chpp.ChppPairBoard;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.DmaEngine;
import org.flitkit.rtl.chpp.receive.CompletionRingParams;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * Two NICs back to back ({@link ChppPairBoard}: the engines of processors 0 and 1 and a {@code ChppCable} each way),
 * each engine with its own {@link PcieHost} and {@link HostMemory} and a {@link ChppDriver}. docs/chpp-network.md.
 */
public final class ChppPairEnv implements AutoCloseable {
    public final Testbench<ChppPairBoard> tb;
    public final List<PcieHost> hosts = new ArrayList<>();
    public final List<ChppDriver> drivers = new ArrayList<>();

    /** Engines of sizes {@code p} (other sizes the paper's), links of {@code depth} beats per VC and {@code latency} cycles. */
    public ChppPairEnv(RunConfig cfg, ChppParams p, SendEngineParams sp, PcieParams pp, int depth, int latency, boolean getOwnVc) {
        tb = Testbench.create(() -> new ChppPairBoard(sp, e -> new DmaEngine(p, e, BufferParams.defaults().withMaxReadRequest(sp.maxReadRequest()),
                DmaEngine.DEFAULT_RING_ENTRIES, DmaEngine.DEFAULT_MAX_PAYLOAD), depth, latency, getOwnVc), cfg);
        ChppPairBoard c = tb.dut();
        CompletionRingParams rings = new CompletionRingParams(c.engines.get(0).sendRing.params.entries(), 0);
        for (int i = 0; i < 2; i++) {
            PcieHost h = tb.add(new PcieHost("host" + i, new HostMemory(), pp).dma(c.dmaRq.get(i), c.dmaCpl.get(i))
                    .mmio(c.mmio.get(i)));
            hosts.add(h);
            drivers.add(new ChppDriver(h, i, rings));
        }
        tb.reset(1);
    }

    /** The paper's engines and host, links of {@code depth} beats per VC and {@code latency} cycles. */
    public ChppPairEnv(RunConfig cfg, int depth, int latency, boolean getOwnVc) {
        this(cfg, ChppParams.paper(), SendEngineParams.defaults(), PcieParams.chpp(), depth, latency, getOwnVc);
    }

    public ChppDriver driver(int processor) {
        return drivers.get(processor);
    }

    @Override
    public void close() {
        tb.close();
    }
}
