package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.fabric.Cable;
import org.flitkit.fabric.CableOptions;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;

/**
 * Two {@link LinkLayer}s, A and B, joined by a {@link LinkCable}: the testbench drives both switch sides and
 * the cable's cut and error inputs, and watches the frames each end sends (before the cable's errors).
 * docs/th2-link.md, "Tests".
 */
public final class LinkPairBoard extends Module {
    /** The switch-side and management ports of one end. */
    public static final class End {
        public final Decoupled<UInt> txFlit;
        public final Valid<UInt> rxFlit;
        public final Valid<UInt> txCredit;
        public final Valid<CreditReturn> rxCredit;
        public final UInt chipType;
        public final UInt chipId;
        public final UInt port;
        public final LinkStatus status;
        public final Bool linkDown;
        public final BistControl bist;
        public final BistResult bistResult;
        /** the frame this end sends, as it enters the cable */
        public final UInt wireOut;

        private End(String n, LinkLayer l) {
            txFlit = input(Decoupled.of(UInt(Th2.FLIT_BITS))).named(n + "_txFlit");
            rxFlit = output(Valid.of(UInt(Th2.FLIT_BITS))).named(n + "_rxFlit");
            txCredit = input(Valid.of(UInt(3))).named(n + "_txCredit");
            rxCredit = output(Valid.of(CreditReturn::new))
                    .named(n + "_rxCredit");
            chipType = input(UInt(2)).named(n + "_chipType");
            chipId = input(UInt(Th2.CHIP_ID_BITS)).named(n + "_chipId");
            port = input(UInt(5)).named(n + "_port");
            status = output(new LinkStatus()).named(n + "_status");
            linkDown = output(Bool()).named(n + "_linkDown");
            bist = input(new BistControl()).named(n + "_bist");
            bistResult = output(new BistResult()).named(n + "_bistResult");
            wireOut = output(UInt(LinkLayer.W)).named(n + "_wireOut");
            l.txFlit.connect(txFlit);
            rxFlit.connect(l.rxFlit);
            l.txCredit.connect(txCredit);
            rxCredit.connect(l.rxCredit);
            l.chipType.assign(chipType);
            l.chipId.assign(chipId);
            l.port.assign(port);
            status.connect(l.status);
            linkDown.assign(l.linkDown);
            l.bist.connect(bist);
            bistResult.connect(l.bistResult);
            wireOut.assign(l.wireOut);
        }
    }

    public final LinkLayer linkA;
    public final LinkLayer linkB;
    public final Cable cable;
    public final End a;
    public final End b;
    public final Bool cutAB = input(Bool());
    public final Bool cutBA = input(Bool());
    public final UInt errorAB = input(UInt(LinkLayer.W));
    public final UInt errorBA = input(UInt(LinkLayer.W));
    /** dead lanes in each direction (the cable's {@code lanesDownAB}, {@code lanesDownBA}) */
    public final UInt lanesDownAB = input(UInt(LinkFrame.LANES));
    public final UInt lanesDownBA = input(UInt(LinkFrame.LANES));

    public LinkPairBoard() {
        this(LinkParams.defaults(), 4, 4);
    }

    public LinkPairBoard(LinkParams params, int latencyAB, int latencyBA) {
        linkA = instance("linkA", new LinkLayer(params));
        linkB = instance("linkB", new LinkLayer(params));
        cable = instance("cable", new Cable(CableOptions.lanes(LinkFrame.BITS, LinkFrame.LANES, latencyAB).withLatency(latencyAB, latencyBA)));
        a = new End("a", linkA);
        b = new End("b", linkB);
        cable.aTx.assign(linkA.wireOut);
        cable.bTx.assign(linkB.wireOut);
        linkA.wireIn.assign(cable.aRx);
        linkB.wireIn.assign(cable.bRx);
        cable.cutAB.assign(cutAB);
        cable.cutBA.assign(cutBA);
        cable.errorAB.assign(errorAB);
        cable.errorBA.assign(errorBA);
        cable.lanesDownAB.assign(lanesDownAB);
        cable.lanesDownBA.assign(lanesDownBA);
    }
}
