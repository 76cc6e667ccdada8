package org.flitkit.env.mnc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.env.host.HostMemory;
import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.rtl.mnc.MncPorts.BusRequest;
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;
import org.flitkit.rtl.mnc.MncPorts.SendRequest;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * The MNC platform around an {@link MncBoard} (multi-rail paper, introduction and section 3): per node a host
 * memory, a {@link PciBus} and a GM-like {@link MncHost}; one {@link Switch} joining every NIC's link.
 */
public final class MncEnv implements AutoCloseable {
    public final Testbench<MncBoard> tb;
    public final Platform platform;
    private final Switch network;
    private final List<PciBus> buses = new ArrayList<>();
    private final List<MncHost> hosts = new ArrayList<>();

    /** The cluster's ports by node and rail. */
    static final class Ports {
        private final int rails;
        private final Decoupled<BusRequest>[] bus;
        private final Valid<Bool>[] busDone;
        private final Decoupled<Packet>[] tx;
        private final Bool[] txDone;
        private final Decoupled<Header>[] rx;
        private final UInt[] rxSlot;
        private final Bool[] rxDone;
        private final Decoupled<SendRequest>[] req;
        private final Decoupled<Event>[] event;
        private final org.flitkit.hdl.Bits[][] rxLeaves;
        private final org.flitkit.hdl.Bits[][] txLeaves;

        // resolved once: Vec.get is too slow for every cycle
        @SuppressWarnings("unchecked")
        Ports(MncBoard c) {
            rails = c.params.rails();
            bus = c.bus.asList().toArray(new Decoupled[0]);
            busDone = c.busDone.asList().toArray(new Valid[0]);
            tx = c.tx.asList().toArray(new Decoupled[0]);
            txDone = c.txDone.asList().toArray(new Bool[0]);
            rx = c.rx.asList().toArray(new Decoupled[0]);
            rxSlot = c.rxSlot.asList().toArray(new UInt[0]);
            rxDone = c.rxDone.asList().toArray(new Bool[0]);
            req = c.req.asList().toArray(new Decoupled[0]);
            event = c.event.asList().toArray(new Decoupled[0]);
            rxLeaves = new org.flitkit.hdl.Bits[rx.length][];
            txLeaves = new org.flitkit.hdl.Bits[tx.length][];
            for (int p = 0; p < rx.length; p++) {
                rxLeaves[p] = rx[p].bits.leaves().toArray(new org.flitkit.hdl.Bits[0]);
                txLeaves[p] = tx[p].bits.hdr.leaves().toArray(new org.flitkit.hdl.Bits[0]);
            }
        }

        /** The header fields of rx port {@code p}, in field order. */
        org.flitkit.hdl.Bits[] rxHeader(int p) {
            return rxLeaves[p];
        }

        /** The header fields of tx port {@code p}, in field order. */
        org.flitkit.hdl.Bits[] txHeader(int p) {
            return txLeaves[p];
        }

        int rails() {
            return rails;
        }

        Decoupled<BusRequest> bus(int node, int rail) {
            return bus[node * rails + rail];
        }

        Valid<Bool> busDone(int node, int rail) {
            return busDone[node * rails + rail];
        }

        Decoupled<Packet> tx(int port) {
            return tx[port];
        }

        Bool txDone(int port) {
            return txDone[port];
        }

        Decoupled<Header> rx(int port) {
            return rx[port];
        }

        UInt rxSlot(int port) {
            return rxSlot[port];
        }

        Bool rxDone(int port) {
            return rxDone[port];
        }

        Decoupled<SendRequest> req(int node) {
            return req[node];
        }

        Decoupled<Event> event(int node) {
            return event[node];
        }
    }

    public MncEnv(RunConfig cfg, int nodes, MncParams params, Platform platform) {
        this.platform = platform;
        tb = Testbench.create(() -> new MncBoard(nodes, params), cfg);
        Ports ports = new Ports(tb.dut());
        List<NicSram> sram = new ArrayList<>();
        for (int i = 0; i < nodes * params.rails(); i++) {
            sram.add(new NicSram(params.sendSlots(), params.recvSlots(), params.packetBytes()));
        }
        for (int i = 0; i < nodes; i++) {
            HostMemory mem = new HostMemory();
            hosts.add(new MncHost("host" + i, ports, i, params, platform, mem, this));
            buses.add(new PciBus("pci" + i, ports, i, params.rails(), mem, sram.subList(i * params.rails(), (i + 1) * params.rails()),
                    platform));
        }
        network = new Switch("switch", ports, sram, platform);
        tb.add(network); // first: it peeks in drive() before anyone pokes
        for (MncHost h : hosts) {
            tb.add(h);
        }
        for (PciBus b : buses) {
            tb.add(b);
        }
        tb.reset(2);
    }

    /** Node {@code i}'s PCI bus. */
    PciBus bus(int i) {
        return buses.get(i);
    }

    public MncHost host(int i) {
        return hosts.get(i);
    }

    public List<MncHost> hosts() {
        return Collections.unmodifiableList(hosts);
    }

    public int nodes() {
        return hosts.size();
    }

    public boolean idle() {
        return network.idle() && buses.stream().allMatch(PciBus::idle) && hosts.stream().allMatch(MncHost::idle);
    }

    /** Bytes of data packets and SReq/SAck packets the switch carried. */
    public long linkDataBytes() {
        return network.dataBytes();
    }

    public long controlPackets() {
        return network.ctrlPackets();
    }

    public MncBoard cluster() {
        return tb.dut();
    }

    @Override
    public void close() {
        tb.close();
    }
}
