package org.flitkit.rtl.link;

import static org.flitkit.formats.th2.FlitLayouts.HEAD;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;

/**
 * A chip's single network port over its link layer, for chips whose core takes and gives whole packets as a
 * valid/ready flit stream (the NIC, a testbench's end of a cable): a packet leaves only when the far buffer has
 * room for all of it (credits, virtual cut-through); arriving flits wait in a receive buffer whose slots are
 * returned as credits when taken. A packet on a VC the far end does not have costs no credit (the far end
 * discards it on arrival). docs/th2-link.md, "Link ports".
 */
public final class LinkPort extends Module {
    /** packets to send, flit by flit */
    public final Decoupled<UInt> in = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** packets received, flit by flit */
    public final Decoupled<UInt> out = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** the cable: frames out and in, one per cycle */
    public final UInt wireOut = output(UInt(LinkLayer.W));
    public final UInt wireIn = input(UInt(LinkLayer.W));
    /** this end's identity, sent to the peer */
    public final UInt chipType = input(UInt(2));
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    public final UInt port = input(UInt(5));
    public final LinkStatus status = output(new LinkStatus());
    public final Bool linkDown = output(Bool());
    public final BistControl bist = input(new BistControl());
    public final BistResult bistResult = output(new BistResult());
    /** flits that arrived with the receive buffer full (a sender ignoring credits): dropped */
    public final UInt overflowDrops = output(UInt(32));
    /** the far buffer as this port's credits see it */
    public final CreditView farBuffer;
    public final LinkLayer link;
    public final Queue<UInt> rxBuffer;

    /**
     * @param far   the input buffer at the other end of the link
     * @param own   this port's receive buffer (its capacity in flits is what the far end's credits assume)
     * @param link  the link layer's parameters
     */
    public LinkPort(BufferShape far, BufferShape own, LinkParams linkParams) {
        link = instance("link", new LinkLayer(linkParams));
        farBuffer = instance("credits", new CreditView(far));
        Bool wasUp = regNext(link.status.up, 0).named("wasUp");
        farBuffer.clear.assign(link.status.up.and(wasUp.not()));
        rxBuffer = instance("rx", new Queue<>(() -> UInt(Th2.FLIT_BITS), own.capacity()));
        wireOut.assign(link.wireOut);
        link.wireIn.assign(wireIn);
        link.chipType.assign(chipType);
        link.chipId.assign(chipId);
        link.port.assign(port);
        status.connect(link.status);
        linkDown.assign(link.linkDown);
        link.bist.connect(bist);
        bistResult.connect(link.bistResult);

        // ---- send: hold a head until the far buffer can take the whole packet
        UInt f = in.bits;
        Bool isHead = LayoutBits.get(f, HEAD.KIND).bit(1);
        Bool isTail = LayoutBits.get(f, HEAD.KIND).bit(0);
        UInt headVc = LayoutBits.get(f, HEAD.VC);
        UInt headLen = LayoutBits.get(f, HEAD.LEN);
        Bool inPacket = regInit(Bool(), 0).named("inPacket");
        UInt packetVc = regInit(UInt(3), 0).named("packetVc");
        UInt vc = mux(inPacket, packetVc, headVc);
        Bool counted = vc.lt(far.vcs());
        UInt headFree = farBuffer.free.get(0);
        for (int v = 1; v < far.vcs(); v++) {
            headFree = mux(headVc.eq(v), farBuffer.free.get(v), headFree);
        }
        Bool room = headFree.ge(headLen.pad(headFree.width())).or(counted.not());
        Bool go = inPacket.or(room);
        link.txFlit.valid.assign(in.valid.and(go));
        link.txFlit.bits.assign(f);
        in.ready.assign(link.txFlit.ready.and(go));
        for (int v = 0; v < far.vcs(); v++) {
            farBuffer.debit.get(v).assign(mux(in.fire().and(vc.eq(v)), lit(1, farBuffer.debit.get(v).width()), lit(0, farBuffer.debit.get(v).width())));
        }
        farBuffer.returned.connect(link.rxCredit);
        when(in.fire(), () -> {
            inPacket.assign(isTail.not());
            when(isHead, () -> packetVc.assign(headVc));
        });

        // ---- receive: a freed slot is a credit for the VC of the packet it held
        UInt overflow = regInit(UInt(32), 0).named("overflow");
        rxBuffer.enq.valid.assign(link.rxFlit.valid);
        rxBuffer.enq.bits.assign(link.rxFlit.bits);
        when(link.rxFlit.valid.and(rxBuffer.enq.ready.not()), () -> overflow.assign(overflow.add(1)));
        overflowDrops.assign(overflow);
        out.connect(rxBuffer.deq);
        UInt g = rxBuffer.deq.bits;
        Bool outHead = LayoutBits.get(g, HEAD.KIND).bit(1);
        UInt outVcReg = regInit(UInt(3), 0).named("outVcReg");
        UInt outVc = mux(outHead, LayoutBits.get(g, HEAD.VC), outVcReg);
        when(out.fire().and(outHead), () -> outVcReg.assign(outVc));
        link.txCredit.valid.assign(out.fire().and(outVc.lt(own.vcs())));
        link.txCredit.bits.assign(outVc);
    }

}
