package org.flitkit.env.nic.fabric;

import java.util.List;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.fabric.Chip;
import org.flitkit.fabric.Fabric;
import org.flitkit.fabric.Host;
import org.flitkit.fabric.WireChannel;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.link.BufferShape;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.nic.NicChip;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.NrcChip;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;

/**
 * A TH-2 machine of whole chips in one {@link Fabric}: every NRC of a {@link Th2FatTree} a {@link NrcChip}, every
 * compute node a {@link NicChip}, every cable a pair of {@link org.flitkit.fabric.WireChannel}s. One chip of each type is compiled and
 * booted from its E2PROM (a CHIP_ID record); the others are forks of it, each given its own CHIP_ID by a deposit
 * into the CHIP_ID register (what its own E2PROM would have loaded). Node n's NIC is CHIP_ID n, NRC i is
 * {@link #NRC_ID_BASE} + i. The NICs' host sides are idle, except a server node's, cabled in from outside ({@link ServerNic}).
 * docs/th2-fabric.md.
 */
public final class Th2Machine implements AutoCloseable {
    public static final int NRC_ID_BASE = 0x8000;
    /** every chip's die temperature, degrees C (assumption: the paper monitors temperature and gives no value) */
    public static final int TEMPERATURE = 45;
    /** cycles a frame takes over any cable (assumption: a few metres of fibre and the SerDes at 424 MHz) */
    public static final int CABLE_LATENCY = 8;

    public final Th2FatTree tree;
    public final Fabric fabric;
    public final Chip[] nrcs;
    public final Chip[] nics;
    public final NrcChip nrcTop;
    public final NicChip nicTop;
    /** each cable between NRCs as its two directions, in the order of the tree's cables */
    private final WireChannel[][] cableWires;
    /** each node's cable as its two directions (null for the server node's, cabled from outside) */
    private final WireChannel[][] nodeWires;
    /** the node whose NIC is the management server's, cabled from outside (-1: none) */
    public final int serverNode;
    /** build phases, seconds: compiling the two chips, booting them, forking and wiring every chip */
    public final double compileSeconds;
    public final double bootSeconds;
    public final double forkSeconds;
    public final long nrcStateBytes;
    public final long nrcSharedBytes;
    public final long nicStateBytes;
    public final long nicSharedBytes;

    /**
     * One NRC and one NIC, compiled and booted from E2PROMs holding a CHIP_ID record, at the same cycle: what every
     * chip of a machine is forked from.
     */
    public static final class Protos {
        final Simulator nrc;
        final Simulator nic;
        final double compileSeconds;
        final double bootSeconds;
        private final EepParams eep;
        private final LinkParams lp;

        public Protos(EepParams eep) {
            this(eep, LinkParams.defaults());
        }

        public Protos(EepParams eep, LinkParams lp) {
            this.eep = eep;
            this.lp = lp;
            long t0 = System.nanoTime();
            SwitchParams sp = SwitchParams.TH2;
            BufferShape nrcBuffer = new BufferShape(sp.vcs(), sp.reservedFlits(), sp.sharedFlits());
            nrc = Simulator.of(() -> new NrcChip(eep, chipIdImage(NRC_ID_BASE), sp, lp));
            nic = Simulator.of(() -> new NicChip(eep, chipIdImage(0), nrcBuffer, lp));
            long t1 = System.nanoTime();
            boot(nrc, ((NrcChip) nrc.circuit().top()).booting);
            boot(nic, ((NicChip) nic.circuit().top()).booting);
            // every chip steps on one clock
            while (nrc.cycle() < nic.cycle()) {
                nrc.step();
            }
            while (nic.cycle() < nrc.cycle()) {
                nic.step();
            }
            compileSeconds = (t1 - t0) / 1e9;
            bootSeconds = (System.nanoTime() - t1) / 1e9;
        }

        /** An NRC of the same design booted from its own E2PROM {@code image} (the compiled class is reused). */
        Simulator nrcBootedFrom(byte[] image) {
            Simulator s = Simulator.of(() -> new NrcChip(eep, image, SwitchParams.TH2, lp));
            boot(s, ((NrcChip) s.circuit().top()).booting);
            if (s.peek(((NrcChip) s.circuit().top()).booting) != 0) {
                throw new IllegalStateException("an NRC did not finish loading its E2PROM");
            }
            return s;
        }
    }

    /** The machine of {@code tree} on {@code threads} threads; {@code exhaustive}: every chip evaluated every cycle. */
    public Th2Machine(Th2FatTree tree, Protos protos, int threads, boolean exhaustive) {
        this(tree, protos, threads, exhaustive, -1);
    }

    /**
     * As above, with node {@code serverNode}'s cable left unplugged at its NRC (its NicChip idle, unwired): the
     * management server's NIC is cabled there from outside ({@link ServerNic}). -1: every node's NIC is plugged.
     */
    public Th2Machine(Th2FatTree tree, Protos protos, int threads, boolean exhaustive, int serverNode) {
        this(tree, protos, threads, exhaustive, serverNode, null);
    }

    /**
     * As above; with {@code nrcImages} (one per NRC, in tree order) every NRC powers up from its own E2PROM image
     * (its CHIP_ID and whatever else the image writes: routing tables) instead of being a fork given its CHIP_ID.
     */
    public Th2Machine(Th2FatTree tree, Protos protos, int threads, boolean exhaustive, int serverNode, List<byte[]> nrcImages) {
        if (nrcImages != null && nrcImages.size() != tree.nrcs().size()) {
            throw new IllegalArgumentException(tree.nrcs().size() + " NRCs need as many E2PROM images, got " + nrcImages.size());
        }
        if (tree.nodes().size() > NRC_ID_BASE || NRC_ID_BASE + tree.nrcs().size() > Th2.CHIP_ID_ANY) {
            throw new IllegalArgumentException("the CHIP_IDs of " + tree.nodes().size() + " NICs and " + tree.nrcs().size() + " NRCs do not fit below 0xFFFF");
        }
        this.tree = tree;
        Simulator nrc = protos.nrc;
        Simulator nic = protos.nic;
        nrcTop = (NrcChip) nrc.circuit().top();
        nicTop = (NicChip) nic.circuit().top();
        long t2 = System.nanoTime();
        fabric = new Fabric().exhaustive(exhaustive).threads(threads, 64);
        Bits nrcId = nrc.signal(chipIdRegister(nrc, "nrcChip.nrc."));
        Bits nicId = nic.signal(chipIdRegister(nic, "nicChip.nic."));
        List<Th2FatTree.Nrc> nrcList = tree.nrcs();
        nrcs = new Chip[nrcList.size()];
        Simulator[] booted = new Simulator[nrcs.length];
        // every chip starts on one cycle: the last image-booted NRC's, or the prototypes'
        long start = nrc.cycle();
        for (int i = 0; nrcImages != null && i < nrcs.length; i++) {
            booted[i] = protos.nrcBootedFrom(nrcImages.get(i));
            start = Math.max(start, booted[i].cycle());
        }
        for (int i = 0; i < nrcs.length; i++) {
            Simulator s = booted[i];
            if (s == null) {
                s = nrc.fork();
                s.deposit(nrcId, NRC_ID_BASE + i);
            }
            s.poke(((NrcChip) s.circuit().top()).temperature, TEMPERATURE);
            if (s.cycle() < start) {
                s.step(start - s.cycle());
            }
            nrcs[i] = fabric.chip("nrc" + i, s);
        }
        List<Th2FatTree.Node> nodes = tree.nodes();
        nics = new Chip[nodes.size()];
        for (int n = 0; n < nics.length; n++) {
            Simulator s = nic.fork();
            s.deposit(nicId, n);
            s.poke(((NicChip) s.circuit().top()).temperature, TEMPERATURE);
            if (s.cycle() < start) {
                s.step(start - s.cycle());
            }
            nics[n] = fabric.chip("nic" + n, s);
        }
        List<Th2FatTree.Cable> cables = tree.cables();
        cableWires = new WireChannel[cables.size()][];
        for (int i = 0; i < cableWires.length; i++) {
            Th2FatTree.Cable c = cables.get(i);
            cableWires[i] = new WireChannel[] {
                fabric.wire(nrcs[c.a()], nrc(c.a()).wireOut.get(c.portA()), nrcs[c.b()], nrc(c.b()).wireIn.get(c.portB())).latency(CABLE_LATENCY),
                fabric.wire(nrcs[c.b()], nrc(c.b()).wireOut.get(c.portB()), nrcs[c.a()], nrc(c.a()).wireIn.get(c.portA())).latency(CABLE_LATENCY)};
        }
        this.serverNode = serverNode;
        nodeWires = new WireChannel[nodes.size()][];
        for (Th2FatTree.Node n : nodes) {
            if (n.index() == serverNode) {
                continue;
            }
            nodeWires[n.index()] = new WireChannel[] {
                fabric.wire(nics[n.index()], nicTop.wireOut, nrcs[n.nrc()], nrc(n.nrc()).wireIn.get(n.port())).latency(CABLE_LATENCY),
                fabric.wire(nrcs[n.nrc()], nrc(n.nrc()).wireOut.get(n.port()), nics[n.index()], nicTop.wireIn).latency(CABLE_LATENCY)};
        }
        long t3 = System.nanoTime();
        compileSeconds = protos.compileSeconds;
        bootSeconds = protos.bootSeconds;
        forkSeconds = (t3 - t2) / 1e9;
        nrcStateBytes = nrcs[0].sim().stateBytes();
        nrcSharedBytes = nrcs[0].sim().sharedStateBytes();
        nicStateBytes = nics.length == 0 ? 0 : nics[0].sim().stateBytes();
        nicSharedBytes = nics.length == 0 ? 0 : nics[0].sim().sharedStateBytes();
    }

    /**
     * NRC {@code i}'s design: {@link #nrcTop} for a fork, its own for an NRC booted from its own image; the handles
     * to poke, peek and wire that chip with.
     */
    public NrcChip nrc(int i) {
        return (NrcChip) nrcs[i].sim().circuit().top();
    }

    /** An E2PROM holding only a CHIP_ID record. */
    static byte[] chipIdImage(int chipId) {
        return BootImage.at(0, BootImage.build(List.of(new BootImage.Record(0x000, chipId))));
    }

    private static void boot(Simulator s, Bits booting) {
        s.reset();
        s.runUntil(() -> s.peek(booting) == 0, 50_000_000);
    }

    /** The CHIP_ID register of the chip's NMA: the one named r_CHIP_ID under {@code prefix}. */
    static String chipIdRegister(Simulator s, String prefix) {
        List<String> found = s.signalNames().stream().filter(n -> n.startsWith(prefix) && n.endsWith(".r_CHIP_ID")).toList();
        if (found.size() != 1) {
            throw new IllegalStateException("expected one CHIP_ID register under " + prefix + ", found " + found);
        }
        return found.get(0);
    }

    /** Runs until the fabric is {@link Fabric#settled()} (every link trained and idle); returns the cycles it took. */
    public long runUntilSettled(long maxCycles) {
        return fabric.runUntilSettled(maxCycles);
    }

    /** Cuts (or mends) cable {@code i} of the tree's cables between NRCs, both directions (the link layers see silence). */
    public void cut(int i, boolean on) {
        cut(wires(i), on);
    }

    /** Seeded bit errors at {@code rate} per bit on cable {@code i} between NRCs, both directions (0: none). */
    public void bitErrors(int i, double rate, long seed) {
        bitErrors(wires(i), rate, seed);
    }

    /** Lanes {@code mask} (bit l = lane l, 0..7) of cable {@code i} between NRCs dead in both directions: they carry zeros. */
    public void lanesDown(int i, int mask) {
        lanesDown(wires(i), mask);
    }

    /** Cuts (or mends) node {@code n}'s cable between its NIC and its NRC, both directions. */
    public void cutNode(int n, boolean on) {
        cut(nodeWires(n), on);
    }

    /** Seeded bit errors at {@code rate} per bit on node {@code n}'s cable, both directions (0: none). */
    public void nodeBitErrors(int n, double rate, long seed) {
        bitErrors(nodeWires(n), rate, seed);
    }

    /** Lanes {@code mask} of node {@code n}'s cable dead in both directions. */
    public void nodeLanesDown(int n, int mask) {
        lanesDown(nodeWires(n), mask);
    }

    private static void cut(WireChannel[] wires, boolean on) {
        for (WireChannel w : wires) {
            w.cut(on);
        }
    }

    private static void bitErrors(WireChannel[] w, double rate, long seed) {
        w[0].bitErrors(rate, seed);
        w[1].bitErrors(rate, seed + 1);
    }

    private static void lanesDown(WireChannel[] wires, int mask) {
        long[] stuck = new long[(LinkFrame.BITS + 63) / 64];
        for (int lane = 0; lane < LinkFrame.LANES; lane++) {
            if ((mask >> lane & 1) != 0) {
                for (int b = lane * LinkFrame.LANE_BITS; b < (lane + 1) * LinkFrame.LANE_BITS; b++) {
                    stuck[b >>> 6] |= 1L << (b & 63);
                }
            }
        }
        for (WireChannel w : wires) {
            w.stuckAtZero(stuck);
        }
    }

    /** A dead NRC, as its neighbours see it: every cable to it, node cables included, cut (the server's excepted). */
    public void kill(int nrc) {
        if (nrc < 0 || nrc >= nrcs.length) {
            throw new IllegalArgumentException("NRCs are 0.." + (nrcs.length - 1) + ", got " + nrc);
        }
        List<Th2FatTree.Cable> cables = tree.cables();
        for (int i = 0; i < cables.size(); i++) {
            if (cables.get(i).a() == nrc || cables.get(i).b() == nrc) {
                cut(i, true);
            }
        }
        for (Th2FatTree.Node n : tree.nodes()) {
            if (n.nrc() == nrc && nodeWires[n.index()] != null) {
                cut(nodeWires[n.index()], true);
            }
        }
    }

    /**
     * Every node's NIC but the server's sends AlltoAll data ({@link org.flitkit.rtl.nic.DataTraffic}): a packet of
     * {@link org.flitkit.formats.th2.DataLayouts#MAX_FLITS} flits every {@code interval} cycles at most, to node
     * (self + k) mod nodes, k = 1, 2, ...; 0 stops it (a packet being sent is finished).
     */
    public void alltoall(int interval) {
        if (interval < 0 || interval > 0xFFFF) {
            throw new IllegalArgumentException("the interval is 0 (off) .. 65535 cycles, got " + interval);
        }
        for (Th2FatTree.Node n : tree.nodes()) {
            if (n.index() != serverNode) {
                Chip c = nics[n.index()];
                fabric.poke(c, nicTop.trafficNodes, tree.nodes().size());
                fabric.poke(c, nicTop.trafficInterval, interval);
                fabric.poke(c, nicTop.trafficEnable, interval > 0 ? 1 : 0);
            }
        }
    }

    /** Data packets sent and received by all NICs so far: {sent, received}. */
    public long[] dataPackets() {
        long sent = 0;
        long received = 0;
        for (Chip c : nics) {
            sent += fabric.peek(c, nicTop.dataSent);
            received += fabric.peek(c, nicTop.dataReceived);
        }
        return new long[] {sent, received};
    }

    /** Runs {@code action} (a cut, a kill, ...) at fabric cycle {@code cycle}, before that cycle's chips are evaluated. */
    public void at(long cycle, Runnable action) {
        if (cycle < fabric.now()) {
            throw new IllegalArgumentException("cycle " + cycle + " is past (now " + fabric.now() + ")");
        }
        fabric.host(new Host() {
            private boolean done;

            @Override
            public long nextEvent() {
                return done ? NEVER : cycle;
            }

            @Override
            public void tick(long now) {
                if (!done) {
                    done = true;
                    action.run();
                }
            }
        });
    }

    private WireChannel[] wires(int i) {
        if (i < 0 || i >= cableWires.length) {
            throw new IllegalArgumentException("cables between NRCs are 0.." + (cableWires.length - 1) + ", got " + i);
        }
        return cableWires[i];
    }

    private WireChannel[] nodeWires(int n) {
        if (n < 0 || n >= nodeWires.length || nodeWires[n] == null) {
            throw new IllegalArgumentException("node cables are 0.." + (nodeWires.length - 1) + " but the server's (" + serverNode + "), got " + n);
        }
        return nodeWires[n];
    }

    /** Cable ends whose link layer is up: NRC ports and NIC ports. */
    public long linksUp() {
        fabric.sync();
        long up = 0;
        for (Chip c : nrcs) {
            for (int p = 0; p < Th2FatTree.PORTS; p++) {
                up += c.sim().peek(((NrcChip) c.sim().circuit().top()).links[p].status.up);
            }
        }
        for (Chip c : nics) {
            up += c.sim().peek(nicTop.port.status.up);
        }
        return up;
    }

    /** Cable ends that exist in the fabric: two per cable between NRCs, two per node but the server's (its NRC end counts). */
    public long cableEnds() {
        return 2L * tree.cables().size() + 2L * tree.nodes().size() - (serverNode >= 0 ? 1 : 0);
    }

    /** Sets NRC {@code nrc}'s die temperature (what its sensor reads), degrees C. */
    public void temperature(int nrc, int celsius) {
        fabric.poke(nrcs[nrc], nrc(nrc).temperature, sensor(celsius));
    }

    /** Sets node {@code n}'s NIC's die temperature, degrees C. */
    public void nicTemperature(int n, int celsius) {
        fabric.poke(nics[n], nicTop.temperature, sensor(celsius));
    }

    private static int sensor(int celsius) {
        if (celsius < 0 || celsius > 255) {
            throw new IllegalArgumentException("the sensor reads 0..255 degrees C, got " + celsius);
        }
        return celsius;
    }

    /** CHIP_IDs as the chips' own registers hold them now. */
    public int chipId(Chip c) {
        return (int) fabric.peek(c, c.sim().circuit().top() instanceof NrcChip top ? top.chipId : nicTop.chipId);
    }

    @Override
    public void close() {
        fabric.close();
    }
}
