package org.flitkit.env.nic.fabric;

import java.util.List;
import java.util.Optional;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.env.nic.NicEnv;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nic.host.NicDriver;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.fabric.Chip;
import org.flitkit.fabric.Host;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.rtl.nic.NicChip;
import org.flitkit.rtl.nrc.NrcChip;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * The management server on a {@link Th2Machine}: its NIC ({@link NicChip}) in a testbench of its own with host
 * memory, PCIe (the TH-2 times in cycles of the chips' clock, the link frame rate) and the driver (as {@link FabricEnv}
 * has them), cabled to the NRC port of the machine's server node.
 * As a fabric {@link Host} it steps the server's testbench with the fabric, one cycle per cycle, and carries the
 * cable's frames both ways with the machine's cable latency. Software uses {@link #endpoint} between fabric runs.
 */
public final class ServerNic implements Host, AutoCloseable {
    public final Testbench<NicChip> tb;
    public final PcieHost host;
    public final NicDriver driver;
    public final MgmtEndpoint endpoint;
    private final Th2Machine machine;
    private final Chip nrc;
    /** the server NRC's design (its ports' handles) */
    private final NrcChip top;
    private final int port;
    /**
     * The frames on the cable toward the NRC and toward the NIC, one per cycle of its latency: slot t mod latency
     * holds what entered at cycle t - latency (zeros before anything did), and takes what enters at t.
     */
    private final long[][] toNrc = new long[Th2Machine.CABLE_LATENCY][(LinkFrame.BITS + 63) / 64];
    private final long[][] toNic = new long[Th2Machine.CABLE_LATENCY][(LinkFrame.BITS + 63) / 64];

    public ServerNic(Th2Machine machine, RunConfig cfg) {
        if (machine.serverNode < 0) {
            throw new IllegalArgumentException("the machine has no server node: build it with one");
        }
        this.machine = machine;
        Th2FatTree.Node n = machine.tree.nodes().get(machine.serverNode);
        this.nrc = machine.nrcs[n.nrc()];
        this.top = machine.nrc(n.nrc());
        this.port = n.port();
        tb = Testbench.create(machine.nics[0].sim().newInstance(), cfg);
        NicChip dut = tb.dut();
        host = tb.add(new PcieHost("host", new HostMemory(), PcieParams.th2(LinkFrame.clockHz() / 1e6)).dma(dut.dmaRq, dut.dmaCpl).mmio(dut.mmio).irq(dut.irq));
        tb.reset(2);
        tb.runUntil("the server NIC's power-up load", () -> !tb.sim().peekBool(dut.booting), NicEnv.BOOT_TIMEOUT);
        // its CHIP_ID is its node's, as every NIC of the machine (what its own E2PROM would have loaded)
        tb.sim().deposit(tb.sim().signal(Th2Machine.chipIdRegister(tb.sim(), "nicChip.nic.")), machine.serverNode);
        driver = new NicDriver(tb, host, HostSoftware.NONE);
        endpoint = driver.open(NicEnv.REQUEST_VP, NicEnv.RING_LOG2);
        tb.runUntil("the BAR set-up", host::idle, 1_000);
        machine.fabric.host(this);
    }

    /** What a request came back with, and the cycles from its doorbell until the software saw the answer. */
    public record Answer(MgmtResult result, long cycles) {
    }

    /**
     * Reads register {@code addr} of the NRC at the end of {@code route} (DestID its CHIP_ID), running the fabric and
     * polling for the answer every {@code poll} cycles; a {@link MgmtResult.Timeout} after {@code timeout} cycles.
     */
    public Answer readRegister(Th2FatTree.Route route, int addr, int poll, long timeout) {
        Target to = new Target(ChipType.NRC, Th2Machine.NRC_ID_BASE + route.target(), new RoutingField(route.forward()),
                new RoutingField(route.backward()));
        long start = machine.fabric.now();
        int tid = endpoint.send(MgmtRequest.readRegisters(to, List.of(addr)));
        Optional<MgmtResult> got = Optional.empty();
        while (got.isEmpty()) {
            if (machine.fabric.now() - start >= timeout) {
                endpoint.abandon(tid);
                return new Answer(new MgmtResult.Timeout(tid, timeout), timeout);
            }
            machine.fabric.run(poll);
            got = endpoint.tryReceive(tid);
        }
        return new Answer(got.get(), machine.fabric.now() - start);
    }

    /** The CHIP_ID of the server's NIC: its node's. */
    public int chipId() {
        return machine.serverNode;
    }

    /** The NRC port the server's cable is plugged into (the operator's cabling plan). */
    public int nrcPort() {
        return port;
    }

    /** log2 of the entries of the endpoint's rings (SDQ, MPQ, EQ). */
    public int endpointLog2() {
        return NicEnv.RING_LOG2;
    }

    /** Data packets the server's NIC received (other nodes' AlltoAll traffic reaches it too). */
    public long dataReceived() {
        return tb.sim().peek(tb.dut().dataReceived);
    }

    /** Whether the server's link is up. */
    public boolean linkUp() {
        return tb.sim().peekBool(tb.dut().port.status.up);
    }

    @Override
    public long nextEvent() {
        return machine.fabric.now();
    }

    /** Ticks on every cycle (its {@link #nextEvent} is always now), so the cable's slots turn once per cycle. */
    @Override
    public void tick(long cycle) {
        NicChip nic = tb.dut();
        int k = (int) (cycle % Th2Machine.CABLE_LATENCY);
        // what entered latency cycles ago arrives, then what leaves now takes its slot
        machine.fabric.poke(nrc, top.wireIn.get(port), toNrc[k]);
        tb.sim().poke(nic.wireIn, toNic[k]);
        machine.fabric.peekInto(nrc, top.wireOut.get(port), toNic[k]);
        tb.sim().peekInto(nic.wireOut, toNrc[k]);
        tb.run(1);
    }

    @Override
    public void close() {
        tb.close();
    }
}
