package org.flitkit.rtl.nrc.sw;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The NRC's data switch: per port a DAMQ input buffer (VCs with reserved and shared slots), virtual
 * cut-through with credit flow control, source routing (management, VC3) and adaptive table routing,
 * a tiled 4 x 6 crossbar (row buses, column channels, output arbiters; management first). Spec:
 * 20-th2-management.md, "The system"; the paper's section 2.2; decisions in docs/th2-nrc-switch.md.
 */
public final class SwitchCore extends Module {
    public final SwitchParams params;

    /** flits from the link; never backpressured (the upstream's credits guarantee room) */
    public final Vec<Valid<UInt>> in;
    /** one input-buffer slot of VC {@code bits} freed (the link layer returns it upstream) */
    public final Vec<Valid<UInt>> creditOut;
    /** flits to the link; ready may drop at any time, also inside a packet */
    public final Vec<Decoupled<UInt>> out;
    /** slots freed in the downstream input buffer (cumulative: count may exceed 1) */
    public final Vec<Valid<CreditReturn>> creditIn;
    /** management packets for this chip (VC3, source routed, HopPtr == HopNum), to the port's relay station */
    public final Vec<Decoupled<UInt>> toRs;
    /** management packets from the relay-station plane, out of this port (with credits, ahead of data) */
    public final Vec<Decoupled<UInt>> fromRs;
    /** the port's link is up: adaptive routing only picks outputs whose link is up */
    public final Vec<Bool> linkUp;

    /** routing-table write port (NMA table-config registers, E2PROM power-up load) */
    public final Valid<TableWrite> tableWrite;
    /** routing-table read port: {@code tableReadData} = entry {@code tableRead} (combinational) */
    public final TableAddr tableRead;
    public final UInt tableReadData;

    /** packets dropped as malformed: Len 0 or over max, RtType not 0/1, a bad source route */
    public final UInt malformedDrops;
    /** table-routed packets whose table entry is empty */
    public final UInt unroutableDrops;
    /** packets on a VC the core does not have (VC >= vcs), discarded on arrival */
    public final UInt badVcDrops;
    /** flits that arrived with no free input-buffer slot (an upstream ignoring credits) */
    public final UInt overflowDrops;
    /** flits whose Kind contradicted the head's Len (counted; the packet is framed by Len) */
    public final UInt framingErrors;
    /** packets (heads) sent out of each port */
    public final Vec<UInt> forwarded;

    public static final int COUNTER_BITS = 32;

    public SwitchCore() {
        this(SwitchParams.TH2);
    }

    public SwitchCore(SwitchParams p) {
        this.params = p;
        int n = p.ports();
        in = input(Vec(n, () -> Valid.of(UInt(Th2.FLIT_BITS))));
        creditOut = output(Vec(n, () -> Valid.of(UInt(3))));
        out = output(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        creditIn = input(Vec(n, () -> Valid.of((java.util.function.Supplier<CreditReturn>) CreditReturn::new)));
        toRs = output(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        fromRs = input(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        linkUp = input(Vec(n, () -> Bool()));
        tableWrite = input(Valid.of((java.util.function.Supplier<TableWrite>) () -> new TableWrite(p)));
        tableRead = input(new TableAddr(p));
        tableReadData = output(UInt(n));
        malformedDrops = output(UInt(COUNTER_BITS));
        unroutableDrops = output(UInt(COUNTER_BITS));
        badVcDrops = output(UInt(COUNTER_BITS));
        overflowDrops = output(UInt(COUNTER_BITS));
        framingErrors = output(UInt(COUNTER_BITS));
        forwarded = output(Vec(n, () -> UInt(COUNTER_BITS)));
        build();
    }

    private void build() {
        throw new UnsupportedOperationException("switch core body: in progress");
    }
}
