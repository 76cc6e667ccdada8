package org.flitkit.rtl.nic;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;

/**
 * The whole {@link Nic} on a bench: {@link PcieHost} on its host pins, a "network" on its link (whole packets
 * as 4 flits into {@code linkIn}, or any flit sequence; {@code linkOut} taken under random backpressure and cut
 * into packets), link status pins tied to fixed values, and a small host software that lays out VP rings and
 * posts descriptors. The NIC boots its CHIP_ID ({@link #ME}) from its E2PROM. Compiled once per JVM.
 * docs/th2-nic.md; spec 20-th2-management.md, "Where management packets go inside the chips" (NIC).
 */
final class NicChip implements AutoCloseable {
    /** The NIC's CHIP_ID, loaded from its E2PROM at power-up. */
    static final int ME = 0x0304;
    /** The server's chip ID (the NIC that sends requests to this NIC). */
    static final int SERVER = 0x0101;
    /** What the tied link layer reports: an NRC 0x0042 on its port 5, link up at 8 lanes, some counters. */
    static final long NEIGHBOUR = NmaRegisters.identity(ChipType.NRC, 0x0042, 5);
    static final long LINK_STATUS = 8L << 8 | 1;
    static final long RETRY_COUNT = 17;
    static final long HANDSHAKE_COUNT = 2;
    static final long BIST_RESULT = 0x0000_0003_0000_0001L;
    /** Host memory of VP v's rings: SDQ at {@code ring(v)}, MPQ +0x4_0000, EQ +0x8_0000. */
    static final long RING_BASE = 0x1000_0000L;

    /** One packet in or out of a flit stream: any list of flits (a whole packet is 4). */
    static final PacketCodec<List<BigInteger>> RAW = PacketCodec.of(f -> f, f -> f);
    static final PacketCodec<BitVector> FLITS = PacketCodec.of(
            p -> PacketLayout.toFlits(p).stream().map(BitVector::toBigInteger).toList(),
            flits -> PacketLayout.fromFlits(flits.stream().map(f -> BitVector.of(Th2.FLIT_BITS, f)).toList()));

    record Out(BitVector bits, long cycle) {
    }

    private static Simulator compiled;

    /** A fresh instance of the NIC (40 VPs, 4 descriptor reads in flight, fast E2PROM timing), compiled once. */
    static synchronized Simulator fresh() {
        if (compiled == null) {
            byte[] image = BootImage.at(0, BootImage.build(List.of(new BootImage.Record(0x000, ME))));
            compiled = Simulator.of(() -> new Nic(EepParams.FAST, image, Th2.VP_COUNT, 4));
        }
        return compiled.newInstance();
    }

    final Testbench<Nic> tb;
    final Nic nic;
    final HostMemory mem = new HostMemory();
    final PcieHost host;
    final FrameSource<List<BigInteger>> net;
    final List<Out> out = new ArrayList<>();
    private final int[] sdqTail = new int[Th2.VP_COUNT];
    private final int[] sdqLog2 = new int[Th2.VP_COUNT];
    private int faultLevels;

    NicChip(RunConfig cfg, Throttle linkBackpressure, PcieHost.ReadFaults readFaults) {
        tb = Testbench.create(fresh(), cfg);
        nic = tb.dut();
        host = tb.add(new PcieHost("host", mem, PcieParams.th2()).dma(nic.dmaRq, nic.dmaCpl).mmio(nic.mmio).irq(nic.irq)
                .readFaults(readFaults));
        net = tb.add(new FrameSource<>("network", StreamPort.of(nic.linkIn), RAW).beatGaps(Throttle.busy(0.2)));
        StreamPort link = StreamPort.of(nic.linkOut);
        tb.add(new StreamSink("linkOut", link).backpressure(linkBackpressure));
        tb.add(new FrameMonitor<>("linkOutMon", link, Framing.fixed(Th2.PACKET_FLITS), FLITS).subscribe(p -> out.add(new Out(p, tb.cycle()))));
        tb.sim().poke(nic.link.neighbour, NEIGHBOUR);
        tb.sim().poke(nic.link.linkStatus, LINK_STATUS);
        tb.sim().poke(nic.link.retryCount, RETRY_COUNT);
        tb.sim().poke(nic.link.handshakeCount, HANDSHAKE_COUNT);
        tb.sim().poke(nic.link.bistResult, BIST_RESULT);
        tb.sim().poke(nic.faults, 0);
        tb.traces(nic.linkIn.valid, nic.linkIn.ready, nic.linkOut.valid, nic.linkOut.ready, nic.dmaRq.valid, nic.dmaCpl.valid,
                nic.mmio.valid, nic.irq.valid, nic.booting);
        tb.reset(2);
        tb.runUntil("the NIC's power-up load", () -> !tb.sim().peekBool(nic.booting), 200_000);
    }

    static long ring(int vp) {
        return RING_BASE + vp * 0x10_0000L;
    }

    static long mpq(int vp) {
        return ring(vp) + 0x4_0000;
    }

    static long eq(int vp) {
        return ring(vp) + 0x8_0000;
    }

    /** Sets up VP {@code vp}'s rings (no SDQ for a PIO VP) with 2^log2 entries each, and waits for the BAR writes. */
    void open(int vp, int sdqLog2, int mpqLog2, int eqLog2) {
        if (!NicHost.isPio(vp)) {
            host.mmioWrite(NicHost.bar(vp, NicHost.SDQ_BASE), NicHost.queueBase(ring(vp), sdqLog2));
            this.sdqLog2[vp] = sdqLog2;
        }
        host.mmioWrite(NicHost.bar(vp, NicHost.MPQ_BASE), NicHost.queueBase(mpq(vp), mpqLog2));
        host.mmioWrite(NicHost.bar(vp, NicHost.EQ_BASE), NicHost.queueBase(eq(vp), eqLog2));
        tb.runUntil("the BAR set-up of VP " + vp, host::idle, 1_000);
    }

    /** Posts a descriptor on a DMA VP: into its SDQ slot, then the doorbell. */
    void post(int vp, BitVector desc) {
        if (NicHost.isPio(vp)) {
            throw new IllegalArgumentException("VP " + vp + " is a PIO VP; this bench posts on DMA VPs only");
        }
        mem.write(ring(vp) + 64L * (sdqTail[vp] & ((1 << sdqLog2[vp]) - 1)), desc.toBytesLE());
        sdqTail[vp]++;
        host.mmioWrite(NicHost.bar(vp, NicHost.SDQ_TAIL), sdqTail[vp]);
    }

    /** Sends a whole packet into the link. */
    void send(BitVector packet) {
        net.send(NicPackets.flits(packet));
    }

    /** Sends any sequence of flits into the link. */
    void sendFlits(List<BigInteger> flits) {
        net.send(flits);
    }

    /** Drives the external fault input {@code input} (0..3: link-down, link-degraded, retry threshold, over-temperature). */
    void fault(int input, boolean level) {
        faultLevels = level ? faultLevels | 1 << input : faultLevels & ~(1 << input);
        tb.sim().poke(nic.faults, faultLevels);
    }

    /** Runs until {@code n} packets in all have left on the link. */
    void awaitOut(int n, long timeout) {
        tb.runUntil(n + " packets out of the link", () -> out.size() >= n, timeout);
    }

    /** The EQ event at free-running index {@code i} of VP {@code vp} (2^log2 ring), or null if not written yet. */
    BitVector event(int vp, int i, int log2) {
        BitVector e = BitVector.fromBytesLE(8 * NicHost.EQ_ENTRY_BYTES, mem.read(eq(vp) + 16L * (i & ((1 << log2) - 1)), 16));
        return e.get(NicHost.EVENT.PHASE) == NicHost.phase(i, log2) ? e : null;
    }

    /** A chip register's value by peek: RO and W1C registers' hardware hooks, RW registers' values. */
    long peek(String reg) {
        if (nic.nma.regs.def(reg).access() == org.flitkit.rtl.nma.RegDef.Access.RW) {
            return tb.sim().peek(nic.nma.regs.value(reg));
        }
        return tb.sim().peek(nic.nma.regs.hw(reg));
    }

    long addr(String reg) {
        return nic.nma.regs.def(reg).addr();
    }

    // ---------------------------------------------------------------- requests as a server sends them

    /** Route of a server's request to this NIC through two NRCs, and the way back. */
    static final RoutingField FORWARD = RoutingField.of(3, 5);
    static final RoutingField BACKWARD = RoutingField.of(9, 2);

    /** A register request to DestType NIC with DestID {@code destId}, from the server's VP {@code vp}. */
    static ManagementPacket.Builder header(int destId, int vp, int tid) {
        return ManagementPacket.builder().route(FORWARD).hopPtr(FORWARD.hopNum()).returnRoute(BACKWARD).destType(ChipType.NIC)
                .destId(destId).srcType(ChipType.NIC).srcId(SERVER).destVp(vp).srcVp(vp).transactionId(tid);
    }

    static BitVector read(int destId, int tid, int... addrs) {
        Integer[] a = java.util.Arrays.stream(addrs).boxed().toArray(Integer[]::new);
        return header(destId, 8, tid).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(a)).build().toBits();
    }

    static BitVector write(int destId, int tid, int addr, long value) {
        return header(destId, 8, tid).nmpType(NmpType.REG_WRITE_REQ).payload(RegisterPayload.withData(addr, value)).build().toBits();
    }

    /** A one-register read of {@code addr} with every bit of the 15-bit field allowed (beyond the NIC's 12 bits). */
    static BitVector readRaw(int destId, int tid, int addr) {
        BitVector p = read(destId, tid, 0);
        int lsb = PacketLayout.BODY2.NMP_DATA.lsb() + PayloadLayouts.REGISTER.addr(0).lsb();
        return PacketLayout.withCrc(p.withSlice(lsb, BitVector.ofLong(PayloadLayouts.REGISTER.addr(0).width(), addr)));
    }

    @Override
    public void close() {
        tb.close();
    }
}
