package org.flitkit.env.xud;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.flitkit.env.host.DmaParams;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamSource;

/**
 * The XUD verification environment: an {@link XudBoard} of adapters, a {@link HostEndpoint} on each
 * adapter's host side and the {@link XudNetwork} between their network ports, in one {@link Testbench}.
 * Scenarios put a {@link WindowLayer} (or nothing: the bare hardware) on the hosts and traffic on top.
 */
public final class XudEnv implements AutoCloseable {
    /** One-way network latency in cycles (a few switch hops at the HCA clock) and the reorder spread. */
    public static final int DEFAULT_LATENCY = 40;
    public static final int DEFAULT_REORDER_SPREAD = 200;

    public final Testbench<XudBoard> tb;
    public final XudNetwork network;
    private final List<HostEndpoint> hosts = new ArrayList<>();

    public XudEnv(RunConfig cfg, int endpoints, XudParams params, DmaParams dma, Faults faults, int[] initialPsns) {
        this(cfg, endpoints, params, dma, faults, initialPsns, DEFAULT_LATENCY);
    }

    /** An environment whose network takes {@code latency} cycles one way. */
    public XudEnv(RunConfig cfg, int endpoints, XudParams params, DmaParams dma, Faults faults, int[] initialPsns, int latency) {
        tb = Testbench.create(() -> new XudBoard(endpoints, params), cfg);
        XudBoard c = tb.dut();
        List<StreamSource> toAdapters = new ArrayList<>();
        for (int i = 0; i < endpoints; i++) {
            toAdapters.add(new StreamSource("net_in" + i, StreamPort.of(c.netIn.get(i))));
        }
        network = new XudNetwork("network", toAdapters, latency, DEFAULT_REORDER_SPREAD, faults);
        tb.add(network);
        for (int i = 0; i < endpoints; i++) {
            tb.add(toAdapters.get(i));
            tb.add(new StreamSink("net_out_sink" + i, StreamPort.of(c.netOut.get(i))));
            tb.add(new StreamMonitor("net_out" + i, StreamPort.of(c.netOut.get(i))).subscribe(network::inject));
            hosts.add(tb.add(new HostEndpoint(c, i, dma, initialPsns)));
        }
        tb.traces(c.netOut.get(0).valid, c.netIn.get(0).valid, c.hcas().get(0).send.timeouts, c.hcas().get(0).recv.delivered);
        tb.reset(2);
        tb.run(params.qps() + 1); // the hosts create their QPs, one per cycle, before anything is sent
    }

    /** Every QP of every adapter starting at PSN {@code psn}. */
    public static int[] psns(XudParams p, int psn) {
        int[] a = new int[p.qps()];
        Arrays.fill(a, psn);
        return a;
    }

    public XudBoard cluster() {
        return tb.dut();
    }

    public List<HostEndpoint> hosts() {
        return Collections.unmodifiableList(hosts);
    }

    public HostEndpoint host(int i) {
        return hosts.get(i);
    }

    @Override
    public void close() {
        tb.close();
    }
}
