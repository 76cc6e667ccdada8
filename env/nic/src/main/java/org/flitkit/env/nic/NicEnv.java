package org.flitkit.env.nic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.NicDriver;
import org.flitkit.env.nrc.BoardLinks;
import org.flitkit.env.nrc.MgmtServer;
import org.flitkit.env.nrc.Requests;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.Throttle;

/**
 * The management server's machine in simulation: host memory and PCIe ({@link PcieHost}), the driver and
 * two endpoints (VP 8, a DMA VP, for requests; VP 1 for fault reports, as the NRC's REPORT_DEST names it),
 * and the board with the NIC cabled to an NRC. The NIC configures its CHIP_ID (the server's ID,
 * {@link Requests#SERVER_NIC_ID}) from its E2PROM at power-up. Packets leaving the NRC's other ports are kept.
 * docs/th2-nic.md, "End to end".
 */
public final class NicEnv implements AutoCloseable {
    public static final int REQUEST_VP = 8;
    public static final int REPORT_VP = Requests.SERVER_VP;
    public static final int RING_LOG2 = 6;
    /** Default cable: 10 cycles at 100 MHz = 100 ns, about 20 m of fibre. */
    public static final int CABLE_LATENCY = 10;
    /** Cycles the power-up loads of both chips may take at board timing. */
    public static final long BOOT_TIMEOUT = 50_000_000;

    public final Testbench<NicNrcBoard> tb;
    public final NicNrcBoard dut;
    public final PcieHost host;
    public final NicDriver driver;
    public final MgmtEndpoint endpoint;
    public final MgmtEndpoint reports;
    /** The NRC's other ports, as the management server sees them (packets for other chips: {@code ports.transit()}). */
    public final MgmtServer ports;
    /** Packets that left the NRC by a port other than the NIC's. */
    public final List<MgmtServer.Received> elsewhere = new ArrayList<>();
    private int patch;

    /** The server NIC's E2PROM: a boot image that sets CHIP_ID to the server's ID. */
    public static byte[] nicEeprom() {
        return BootImage.at(0, BootImage.build(List.of(new BootImage.Record(0x000, Requests.SERVER_NIC_ID))));
    }

    public static NicNrcBoard board(EepParams eep, int cableLatency) {
        return new NicNrcBoard(eep, nicEeprom(), null, cableLatency);
    }

    public NicEnv(RunConfig cfg, EepParams eep, int cableLatency, PcieParams pcie, HostSoftware software, int port) {
        this(instance(eep, cableLatency, cfg), pcie, software, port);
    }

    /** A compiled board and how long building it took (reported by the first testbench that uses it). */
    private static final class Compiled {
        final Simulator template;
        double buildSeconds;

        Compiled(Simulator template, double buildSeconds) {
            this.template = template;
            this.buildSeconds = buildSeconds;
        }
    }

    private static final Map<String, Compiled> COMPILED = new ConcurrentHashMap<>();

    /**
     * A testbench on a fresh instance of the board, compiled once per E2PROM timing and cable latency in this JVM
     * (the board takes seconds to compile; tests and figure runs share it).
     */
    private static Testbench<NicNrcBoard> instance(EepParams eep, int cableLatency, RunConfig cfg) {
        Compiled c = COMPILED.computeIfAbsent(eep + "/" + cableLatency, k -> {
            long t0 = System.nanoTime();
            Simulator s = Testbench.build("the NIC and the NRC", () -> board(eep, cableLatency), cfg);
            return new Compiled(s, (System.nanoTime() - t0) / 1e9);
        });
        double seconds;
        synchronized (c) {
            seconds = c.buildSeconds;
            c.buildSeconds = 0;
        }
        return Testbench.create(c.template.newInstance(), cfg, seconds);
    }

    /** Sets up the host side on {@code tb}'s board, plugs the NIC into NRC {@code port}, resets and waits for both power-up loads. */
    public NicEnv(Testbench<NicNrcBoard> tb, PcieParams pcie, HostSoftware software, int port) {
        this.tb = tb;
        this.dut = tb.dut();
        host = tb.add(new PcieHost("host", new HostMemory(), pcie).dma(dut.dmaRq, dut.dmaCpl).mmio(dut.mmio).irq(dut.irq));
        ports = new MgmtServer(tb, dut.portIn, dut.portOut, dut.toSwitch, Throttle.NONE);
        ports.onReceive(elsewhere::add);
        BoardLinks.apply(tb.sim(), dut.nrcLink);
        plug(port);
        tb.traces(dut.nic.linkOut.valid, dut.nic.linkOut.ready, dut.nic.linkIn.valid, dut.dmaRq.valid, dut.dmaCpl.valid,
                dut.mmio.valid, dut.irq.valid, dut.booting);
        tb.phase("booting: power-up E2PROM loads of the NIC and the NRC");
        tb.reset(2);
        tb.runUntil("the power-up loads of NIC and NRC", () -> !tb.sim().peekBool(dut.booting), BOOT_TIMEOUT);
        tb.phase("opening the driver's rings");
        driver = new NicDriver(tb, host, software);
        endpoint = driver.open(REQUEST_VP, RING_LOG2);
        reports = driver.open(REPORT_VP, RING_LOG2);
        tb.runUntil("the BAR set-up", host::idle, 1_000);
        tb.phase(null);
    }

    /** Plugs the NIC's cable into NRC port {@code port} (do it only while no packet is on the cable). */
    public void plug(int port) {
        if (port < 0 || port >= RsGeometry.TH2.ports()) {
            throw new IllegalArgumentException("NRC port must be 0.." + (RsGeometry.TH2.ports() - 1) + ", got " + port);
        }
        patch = port;
        tb.sim().poke(dut.patch, port);
    }

    public int port() {
        return patch;
    }

    /** The identity word the NIC's port learnt over the cable (PORT0_NEIGHBOUR's value). */
    public long nicNeighbour() {
        return tb.sim().peek(dut.nic.link.neighbour);
    }

    @Override
    public void close() {
        tb.close();
    }
}
