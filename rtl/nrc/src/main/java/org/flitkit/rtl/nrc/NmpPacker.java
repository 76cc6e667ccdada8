package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.WidthSerializer;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;

/**
 * nmp_packer: takes each packet from nmp_output_fifo, reads its output port Route.Hop[HopPtr],
 * increments HopPtr, puts the port in its head ({@link RsBeat} tag) and sends its 40 beats into the
 * relay-station row that leads to that port ({@link RsGeometry}). Spec: 20-th2-management.md, "NMA submodules" (nmp_packer); hop rule in
 * docs/th2-formats.md. A packet with no hop left or a port beyond the chip's is dropped and counted.
 */
public final class NmpPacker extends Module {
    public final Decoupled<UInt> in = input(PacketWords.packetStream());
    public final Vec<Decoupled<RsBeat>> rows;
    /** packets dropped because their route had no usable hop */
    public final UInt routeDrops;

    /** The TH-2 NRC's packer: 4 rows of 6 ports. */
    public NmpPacker() {
        this(RsGeometry.TH2);
    }

    public NmpPacker(RsGeometry geometry) {
        rows = output(Vec(geometry.rows(), () -> Decoupled.of(RsBeat::new)));
        routeDrops = output(UInt(32));
        UInt route = LayoutBits.get(in.bits, PacketLayout.HEAD.ROUTE);
        UInt hopPtr = LayoutBits.get(in.bits, PacketLayout.HOP_PTR);
        UInt hopNum = LayoutBits.get(route, FlitLayouts.ROUTE.HOP_NUM);
        List<UInt> hops = new ArrayList<>();
        for (int i = 0; i < Th2.MAX_HOPS; i++) {
            hops.add(LayoutBits.get(route, FlitLayouts.ROUTE.hop(i)));
        }
        UInt dest = vecOf(hops).at(hopPtr);
        Bool routable = hopPtr.lt(hopNum).and(dest.lt(geometry.ports()));

        WidthSerializer flits = instance("flits", new WidthSerializer(Th2.PACKET_BITS, Th2.FLIT_BITS));
        WidthSerializer beats = instance("beats", new WidthSerializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        beats.in.valid.assign(flits.out.valid);
        beats.in.bits.assign(RsBeat.toLink(flits.out.bits));
        flits.out.ready.assign(beats.in.ready);
        // the port of each packet inside the serializers, oldest first: the row its beats go to
        Queue<UInt> tags = instance("tags", new Queue<>(() -> UInt(RsBeat.PORT_BITS), 2));

        Bool take = in.valid.and(routable);
        flits.in.valid.assign(take.and(tags.enq.ready));
        // the head flit is at packet bits 197:0: the flit-level tag field is also its packet position
        flits.in.bits.assign(LayoutBits.with(LayoutBits.with(in.bits, PacketLayout.HOP_PTR, hopPtr.add(1)), RsBeat.TAG, dest));
        tags.enq.valid.assign(take.and(flits.in.ready));
        tags.enq.bits.assign(dest);
        in.ready.assign(routable.not().or(flits.in.ready.and(tags.enq.ready)));

        UInt drops = regInit(UInt(32), 0);
        when(in.valid.and(routable.not()), () -> drops.assign(drops.add(1)));
        routeDrops.assign(drops);

        Counter beat = new Counter(RsGeometry.BEATS_PER_PACKET).named("beat");
        when(beats.out.fire(), beat::inc);
        tags.deq.ready.assign(beats.out.fire().and(beat.isLast()));
        UInt port = tags.deq.bits;
        List<Bool> inRow = new ArrayList<>();
        List<UInt> rowReady = new ArrayList<>();
        for (int r = 0; r < geometry.rows(); r++) {
            Decoupled<RsBeat> o = rows.get(r);
            Bool sel = port.ge(r * geometry.cols()).and(port.lt((r + 1) * geometry.cols()));
            inRow.add(sel);
            rowReady.add(o.ready);
            o.valid.assign(beats.out.valid.and(sel));
            o.bits.data.assign(beats.out.bits);
        }
        beats.out.ready.assign(Mux1H(inRow, rowReady));
    }
}
