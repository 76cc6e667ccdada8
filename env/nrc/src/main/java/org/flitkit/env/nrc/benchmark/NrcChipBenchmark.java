package org.flitkit.env.nrc.benchmark;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.PopCount;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nrc.chip.NrcPeerBoard;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Arbiter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.tools.benchmark.Checksum;

/**
 * The {@code nrc-chip} benchmark: the whole NRC ({@link NrcPeerBoard}: 24 link layers, cables of
 * {@link #CABLE_LATENCY} cycles to 24 far-end link ports, the switch core, the management plane with an
 * erased E2PROM) in a closed design. Each far end sends LFSR data packets back to back (VC0..2, 1 to 8 flits or the
 * core's longest packet if shorter, source-routed to a random output of the NRC), and between them, on about 1 cycle in 1,024 per port, a
 * management request of {@link RequestGenerator} (a register read or write on VC3, to the chip's NMA); it takes flits under LFSR
 * backpressure. {@code checksum} folds every flit the far ends take: data that crossed the switch and the
 * NMA's responses. A reduced-port build ({@link #reduced()}: 4 ports) is the same design for the differential tests.
 * docs/th2-nrc-switch.md, "Benchmarks".
 */
public final class NrcChipBenchmark extends Module {
    /** Cycles a frame takes over each cable, each way (a short cable at 424 MHz). */
    public static final int CABLE_LATENCY = 4;

    public final UInt checksum = output(UInt(Checksum.WIDTH));
    /** packets (heads) the far ends took */
    public final UInt packets = output(UInt(32));
    /** of those, on VC3: the NMA's responses (data uses VC0..2) */
    public final UInt responses = output(UInt(32));

    public final NrcPeerBoard board;

    /** The TH-2 NRC: 24 ports. */
    public NrcChipBenchmark() {
        this(SwitchParams.TH2);
    }

    /** The same load on a chip of {@code sp.ports()} ports (its relay stations in the core's rows and columns). */
    public NrcChipBenchmark(SwitchParams sp) {
        int n = sp.ports();
        board = instance(new NrcPeerBoard(EepParams.FAST, null, sp, LinkParams.defaults(), CABLE_LATENCY));
        // no BIST_CTRL writes: a link BIST takes its port out of data service for as long as the random write says
        RequestGenerator requests = instance(new RequestGenerator(n, false));
        UInt sinkReady = Lfsr.galois(32, TRUE(), 0x5EED_0A11L).named("sinkReady");
        UInt requestDice = Lfsr.galois(32, TRUE(), 0xD1CE_5EEDL).named("requestDice");
        List<Bits> taken = new ArrayList<>();
        List<Bool> heads = new ArrayList<>();
        List<Bool> vc3Heads = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            board.errorIn.get(p).assign(lit(0, LinkFrame.BITS));
            board.errorOut.get(p).assign(lit(0, LinkFrame.BITS));
            board.cutIn.get(p).assign(FALSE());
            board.cutOut.get(p).assign(FALSE());
            board.lanesDown.get(p).assign(lit(0, LinkFrame.LANES));

            // a management request takes the port between two data packets, and keeps it to its last flit; one
            // is let through on about 1 port-cycle in 1,024, so that the NMA (one request at a time) keeps up and
            // the data is not held behind requests waiting for VC3's credits
            Arbiter<UInt> merge = instance("merge" + p, new Arbiter<>(() -> UInt(Th2.FLIT_BITS), 2, Lock.until(f -> f.bit(196))));
            Decoupled<UInt> request = requests.ports.get(p);
            Bool allow = regInit(Bool(), 0).named("requestAllowed_" + p);
            UInt dice = requestDice.bits(p % 22 + 9, p % 22);
            when(request.fire().and(request.bits.bit(196)), () -> allow.assign(FALSE()))
                    .elsewhen(dice.eq(p), () -> allow.assign(TRUE()));
            merge.in.get(0).valid.assign(request.valid.and(allow));
            merge.in.get(0).bits.assign(request.bits);
            request.ready.assign(merge.in.get(0).ready.and(allow));
            merge.in.get(1).connect(dataSource(p, n, sp.maxPacketFlits()));
            board.portIn.get(p).connect(merge.out);

            Decoupled<UInt> out = board.portOut.get(p);
            out.ready.assign(sinkReady.bit(p).or(sinkReady.bit((p + 7) % 32)));
            taken.add(mux(out.fire(), out.bits, lit(0, Th2.FLIT_BITS)));
            heads.add(out.fire().and(out.bits.bit(197)));
            vc3Heads.add(heads.get(p).and(LayoutBits.get(out.bits, DataLayouts.HEAD.VC).eq(3)));
        }
        board.faults.assign(0);
        board.temperature.assign(0);
        UInt packetCount = regInit(UInt(32), 0).named("packetCount");
        packetCount.assign(packetCount.add(PopCount(heads).pad(32)));
        packets.assign(packetCount);
        UInt responseCount = regInit(UInt(32), 0).named("responseCount");
        responseCount.assign(responseCount.add(PopCount(vc3Heads).pad(32)));
        responses.assign(responseCount);
        checksum.assign(Checksum.accumulate(Checksum.fold(taken)));
    }

    /**
     * The whole chip at a size Verilator builds in about a minute: 4 ports (the switch core's CI size, 2 x 2 relay
     * stations), every block of the chip as in the TH-2 one.
     */
    public static NrcChipBenchmark reduced() {
        return new NrcChipBenchmark(SwitchParams.CI);
    }

    /**
     * Far end p's data: packets of 1 to {@code maxFlits} (a power of two) flits from an LFSR that steps once per flit sent,
     * source-routed through one of the n outputs.
     */
    private static Decoupled<UInt> dataSource(int p, int n, int maxFlits) {
        if (Integer.bitCount(maxFlits) != 1) {
            throw new IllegalArgumentException("the data source draws packet lengths 1.." + maxFlits + ": a power of two");
        }
        Decoupled<UInt> d = wire(Decoupled.of(UInt(Th2.FLIT_BITS)));
        UInt rnd = Lfsr.galois(32, d.fire(), 0x2468_ACE1L + 0x9E37L * (p + 1)).named("data_lfsr_" + p);
        UInt vc = mux(rnd.bits(1, 0).eq(3), lit(0, 2), rnd.bits(1, 0)).pad(3);
        UInt len = rnd.bits(1 + Integer.numberOfTrailingZeros(maxFlits), 2).pad(4).add(1);
        UInt output = SwitchTrafficBenchmark.modPorts(rnd.bits(10, 5), n);

        Bool sending = regInit(Bool(), 0).named("dataSending_" + p);
        UInt left = regInit(UInt(4), 0).named("dataLeft_" + p);
        UInt route = LayoutBits.with(LayoutBits.with(lit(0, Th2.ROUTE_BITS), FlitLayouts.ROUTE.HOP_NUM, lit(1, 5)),
                FlitLayouts.ROUTE.hop(0), output);
        UInt head = lit(0, Th2.FLIT_BITS);
        head = LayoutBits.with(head, DataLayouts.HEAD.KIND, mux(len.eq(1), lit(3, 2), lit(2, 2)));
        head = LayoutBits.with(head, DataLayouts.HEAD.RT_TYPE, lit(1, 2));
        head = LayoutBits.with(head, DataLayouts.HEAD.ROUTE, route);
        head = LayoutBits.with(head, DataLayouts.HEAD.VC, vc);
        head = LayoutBits.with(head, DataLayouts.HEAD.LEN, len.pad(5));
        head = LayoutBits.with(head, DataLayouts.HEAD.SRC_ID, lit(p, Th2.CHIP_ID_BITS));
        head = LayoutBits.with(head, DataLayouts.HEAD.PACKET_ID, rnd.pad(36));
        UInt body = cat(mux(left.eq(1), lit(1, 2), lit(0, 2)), rnd.bits(3, 0), rnd, rnd, rnd, rnd, rnd, rnd);

        d.valid.assign(TRUE());
        d.bits.assign(mux(sending, body, head));
        when(d.fire(), () -> {
            when(sending, () -> {
                left.assign(left.sub(1));
                sending.assign(left.ne(1));
            }).otherwise(() -> {
                sending.assign(len.gt(1));
                left.assign(len.sub(1));
            });
        });
        return d;
    }
}
