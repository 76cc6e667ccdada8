package org.flitkit.env.chpp;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.chpp.upload.BufferParams;
import org.flitkit.rtl.chpp.ChppController;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.DmaEngine;
import org.flitkit.rtl.chpp.receive.CompletionRingParams;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * A cHPP controller with every processor's host: one {@link PcieHost} with its own {@link HostMemory} per engine
 * ({@code PcieParams.chpp()} unless given) and a {@link ChppDriver} on each. docs/chpp-nic.md, "Environment".
 */
public final class ChppEnv implements AutoCloseable {
    public final Testbench<ChppController> tb;
    public final List<PcieHost> hosts = new ArrayList<>();
    public final List<ChppDriver> drivers = new ArrayList<>();

    /** {@code ports} engines with the paper's sizes, a crossbar of {@code vcs} VCs. */
    public ChppEnv(RunConfig cfg, int ports, int vcs, SendEngineParams sp, PcieParams pp) {
        this(cfg, ports, vcs, ChppParams.paper(), sp, pp);
    }

    /**
     * {@code ports} engines of sizes {@code p} (other sizes the paper's; the upload writes' Max_Payload_Size the host's, as
     * PCIe negotiates one for both ends), a crossbar of {@code vcs} VCs.
     */
    public ChppEnv(RunConfig cfg, int ports, int vcs, ChppParams p, SendEngineParams sp, PcieParams pp) {
        tb = Testbench.create("the cHPP controller (" + ports + " engines)", () -> new ChppController(ports, vcs, sp, e -> new DmaEngine(p, e, BufferParams.defaults().withMaxReadRequest(sp.maxReadRequest()),
                DmaEngine.DEFAULT_RING_ENTRIES, Math.max(DmaEngine.DEFAULT_MAX_PAYLOAD, pp.dma().maxPayloadBytes()))), cfg);
        ChppController c = tb.dut();
        CompletionRingParams rings = new CompletionRingParams(c.engines.get(0).sendRing.params.entries(), 0);
        for (int i = 0; i < ports; i++) {
            PcieHost h = tb.add(new PcieHost("host" + i, new HostMemory(), pp).dma(c.dmaRq.get(i), c.dmaCpl.get(i))
                    .mmio(c.mmio.get(i)));
            hosts.add(h);
            drivers.add(new ChppDriver(h, i, rings));
        }
        tb.reset(1);
    }

    public ChppEnv(RunConfig cfg, int ports) {
        this(cfg, ports, 2, SendEngineParams.defaults(), PcieParams.chpp());
    }

    public ChppDriver driver(int processor) {
        return drivers.get(processor);
    }

    /** Every host has delivered its BAR writes and has no DMA in flight. */
    public boolean hostsIdle() {
        return hosts.stream().allMatch(PcieHost::idle);
    }

    @Override
    public void close() {
        tb.close();
    }
}
