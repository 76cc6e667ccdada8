package org.flitkit.env.nrc.system;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.env.nrc.BoardLinks;
import org.flitkit.env.nrc.MgmtSession;
import org.flitkit.env.nrc.NrcReference;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.fabric.Chip;
import org.flitkit.fabric.Fabric;
import org.flitkit.fabric.CableChannel;
import org.flitkit.fabric.Sink;
import org.flitkit.fabric.Source;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;

/**
 * N NRCs on a ring through the management server: the server's NIC feeds port {@link #RING_PORT} of
 * chip 0; a packet for a farther chip leaves each chip on {@code toSwitch[RING_PORT]} and a cable of
 * {@code latency} cycles takes it to {@code portIn[RING_PORT]} of the next chip (the last chip's cable
 * leads back to the server). The cable stands in for the switch core this management-plane model leaves
 * out: it increments HopPtr of every head flit, as the switch applying Hop[HopPtr] would. Answers
 * leave the target chip on {@code portOut[RING_PORT]} (ReturnRoute = [RING_PORT]) straight to the server.
 *
 * <p>Chip IDs: chip i is configured as the TH-2 server does it, by a CHIP_ID write (DestID 0xFFFF, the
 * "any" ID of an unconfigured chip) through its port {@link #CONFIG_PORT}, cabled to the server; it then
 * answers to {@link #ID_BASE} + i and to 0xFFFF only (docs/th2-nrc.md, DestID rule). The chips have an
 * erased E2PROM and board timing, like {@code nrc-idle}: one chip is simulated through its failing
 * power-up load (~25,000 cycles) and the others are forks of it. Spec: 20-th2-management.md;
 * docs/th2-formats.md, "Hop semantics".
 */
public final class NrcRing implements AutoCloseable {
    /** Port of the ring cables, of requests into chip 0 and of answers to the server. */
    public static final int RING_PORT = 5;
    /** Port each chip's CHIP_ID write comes in by. */
    public static final int CONFIG_PORT = 4;
    public static final int ID_BASE = 0x1000;

    /** Where the build time went, in milliseconds, and what it left. */
    public record Build(int chips, long compileMillis, long bootMillis, long bootCycles, long forkMillis, long wireMillis,
            long configMillis, long configCycles, long stateBytesPerChip, long sharedBytesPerChip) {
        public long totalMillis() {
            return compileMillis + bootMillis + forkMillis + wireMillis + configMillis;
        }
    }

    public final Fabric fabric;
    public final Nrc top;
    public final List<Chip> chips = new ArrayList<>();
    public final Build build;
    private final List<NrcReference> refs = new ArrayList<>();
    private final Source server;
    private final List<ManagementPacket> answers = new ArrayList<>();
    private long passedRound;
    private int configAnswers;
    private final List<BitVector> configExpected = new ArrayList<>();
    private ManagementPacket expected;
    private long sentAt;
    private final List<Long> latencies = new ArrayList<>();

    /**
     * Builds and configures the ring; {@code fabric} is fresh (its mode and threads set), {@code latency}
     * the cable latency in cycles.
     */
    public NrcRing(Fabric fabric, int n, int latency) {
        if (n < 1 || n >= Th2.CHIP_ID_ANY - ID_BASE) {
            throw new IllegalArgumentException("a ring of " + n + " NRCs: need 1 to " + (Th2.CHIP_ID_ANY - ID_BASE - 1));
        }
        this.fabric = fabric;
        long t0 = System.nanoTime();
        Circuit circuit = Circuit.elaborate(Nrc::new);
        Simulator proto = Simulator.of(circuit);
        top = (Nrc) circuit.top();
        long t1 = System.nanoTime();
        BoardLinks.apply(proto, top);
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            proto.poke(top.portOut.get(p).ready, 1);
            proto.poke(top.toSwitch.get(p).ready, 1);
        }
        proto.reset(2);
        long bootCycles = proto.runUntil(() -> !proto.peekBool(top.booting), MgmtSession.BOOT_TIMEOUT);
        long t2 = System.nanoTime();
        List<Simulator> sims = new ArrayList<>();
        sims.add(proto);
        for (int i = 1; i < n; i++) {
            sims.add(proto.fork());
        }
        long t3 = System.nanoTime();
        List<Source> config = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            chips.add(fabric.chip("nrc" + i, sims.get(i)));
        }
        // only the chips a route reaches get requests, so only they need a reference model (3 ms and 0.6 MB each)
        for (int i = 0; i < Math.min(n, Th2.MAX_HOPS + 1); i++) {
            refs.add(new NrcReference(null));
        }
        CableChannel.FlitOp switchHop = NrcRing::nextHop;
        for (int i = 0; i < n; i++) {
            Chip c = chips.get(i);
            if (i + 1 < n) {
                fabric.link(c, top.toSwitch.get(RING_PORT), chips.get(i + 1), top.portIn.get(RING_PORT)).latency(latency).map(switchHop);
            } else {
                fabric.sink(c, top.toSwitch.get(RING_PORT), (cy, f) -> passedRound++);
            }
            fabric.sink(c, top.portOut.get(RING_PORT), new Packets(this::answer));
            config.add(fabric.source(c, top.portIn.get(CONFIG_PORT)));
            int chip = i;
            fabric.sink(c, top.portOut.get(CONFIG_PORT), new Packets((cy, bits) -> configured(chip, cy, bits)));
        }
        server = fabric.source(chips.get(0), top.portIn.get(RING_PORT));
        long t4 = System.nanoTime();
        // a write response carries no data and comes from the still unconfigured chip (SrcID 0xFFFF): the
        // same packet from every chip, so the chips without a reference are checked against chip 0's
        BitVector configAnswer = null;
        for (int i = 0; i < n; i++) {
            ManagementPacket write = Requests.write(CONFIG_PORT, Th2.CHIP_ID_ANY, 1, List.of(0x000), List.of((long) (ID_BASE + i)));
            if (i < refs.size()) {
                ManagementPacket answer = refs.get(i).answer(write);
                if (answer == null || refs.get(i).chipId() != ID_BASE + i) {
                    throw new IllegalStateException("the reference does not take the CHIP_ID write");
                }
                BitVector bits = answer.advance().toBits();
                if (configAnswer != null && !configAnswer.equals(bits)) {
                    throw new IllegalStateException("CHIP_ID write answers differ between chips: " + answer);
                }
                configAnswer = bits;
            }
            configExpected.add(configAnswer);
            for (BitVector f : write.toFlits()) {
                config.get(i).send(f.limbs());
            }
        }
        long configCycles = fabric.runUntil(() -> configAnswers == n, 100_000);
        long t5 = System.nanoTime();
        build = new Build(n, ms(t1 - t0), ms(t2 - t1), bootCycles, ms(t3 - t2), ms(t4 - t3), ms(t5 - t4), configCycles,
                proto.stateBytes(), proto.sharedStateBytes());
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    /** The switch hop the cable stands in for: a head flit's HopPtr + 1. */
    static void nextHop(long[] flit) {
        BitVector f = BitVector.fromLimbs(Th2.FLIT_BITS, flit);
        if (f.get(FlitLayouts.HEAD.KIND) == Th2.KIND_HEAD) {
            long[] out = f.with(FlitLayouts.HEAD.HOP_PTR, f.get(FlitLayouts.HEAD.HOP_PTR) + 1).limbs();
            System.arraycopy(out, 0, flit, 0, flit.length);
        }
    }

    /** Reassembles a port's flits into packets (4 flits each) for a listener. */
    private static final class Packets implements Sink.Listener {
        interface Listener {
            void packet(long cycle, BitVector bits);
        }

        private final Listener listener;
        private final List<BitVector> flits = new ArrayList<>(Th2.PACKET_FLITS);

        Packets(Listener listener) {
            this.listener = listener;
        }

        @Override
        public void accept(long cycle, long[] flit) {
            flits.add(BitVector.fromLimbs(Th2.FLIT_BITS, flit));
            if (flits.size() == Th2.PACKET_FLITS) {
                BitVector bits = PacketLayout.fromFlits(flits);
                flits.clear();
                listener.packet(cycle, bits);
            }
        }
    }

    private void configured(int chip, long cycle, BitVector bits) {
        if (!bits.equals(configExpected.get(chip))) {
            throw new IllegalStateException("cycle " + cycle + ": chip " + chip + " answered its CHIP_ID write with " + ManagementPacket.parse(bits)
                    + "; expected " + ManagementPacket.parse(configExpected.get(chip)));
        }
        configAnswers++;
    }

    private void answer(long cycle, BitVector bits) {
        if (expected == null || !bits.equals(expected.toBits())) {
            throw new IllegalStateException("cycle " + cycle + ": unexpected answer " + ManagementPacket.parse(bits) + "; expected " + expected);
        }
        answers.add(expected);
        latencies.add(cycle - sentAt);
        expected = null;
    }

    /**
     * Sends {@code req} (built for a chip cabled to the server, e.g. by {@link Requests}) to chip
     * {@code k}: routed over k ring hops with DestID = the chip's ID, answered out of the ring port.
     * One request at a time.
     */
    public void send(int k, ManagementPacket req) {
        if (expected != null) {
            throw new IllegalStateException("one request at a time: the answer to " + expected + " has not come back");
        }
        if (k < 0 || k >= chips.size() || k > Th2.MAX_HOPS) {
            throw new IllegalArgumentException("chip " + k + " is not reachable: the ring has " + chips.size() + " chips and a route at most " + Th2.MAX_HOPS + " hops");
        }
        ManagementPacket routed = req.toBuilder().route(new RoutingField(Collections.nCopies(k, RING_PORT)))
                .returnRoute(RoutingField.of(RING_PORT)).destId(ID_BASE + k).build();
        ManagementPacket answer = refs.get(k).answer(routed);
        if (answer == null) {
            throw new IllegalArgumentException("chip " + k + " would drop " + routed);
        }
        // the answer leaves by Hop0 of its route, which nmp_packer has used: HopPtr 1
        expected = answer.advance();
        sentAt = fabric.now();
        for (BitVector f : routed.toFlits()) {
            server.send(f.limbs());
        }
    }

    /** Whether the last request's answer came back. */
    public boolean answered() {
        return expected == null;
    }

    /** Every answer received, in order (each equal to the reference's). */
    public List<ManagementPacket> answers() {
        return answers;
    }

    /** Cycles from sending each request to the last flit of its answer. */
    public List<Long> latencies() {
        return latencies;
    }

    /** Packets that went past the last chip (a wrong route): 0 when every request found its target. */
    public long passedRound() {
        return passedRound;
    }

    /** The CHIP_ID the reference model of chip {@code k} (one of the first 21) holds. */
    public int chipId(int k) {
        return refs.get(k).chipId();
    }

    @Override
    public void close() {
        fabric.close();
    }
}
