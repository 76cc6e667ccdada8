package org.flitkit.rtl.nrc.switchcore;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;
import static org.flitkit.hdl.lib.OneHot.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.BufferShape;
import org.flitkit.rtl.link.CreditReturn;
import org.flitkit.rtl.link.CreditView;

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
    /** how every input's table is indexed (NRC_TABLE_REGION) and the outputs of an empty region entry (NRC_TABLE_DEFAULT) */
    public final TableRegions tableRegions;

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
    /** source-routed packets dropped because the link of their output port was down */
    public final UInt linkDownDrops;
    /** packets (heads) sent out of each port */
    public final Vec<UInt> forwarded;

    public static final int COUNTER_BITS = 32;

    /** the input ports' units (DAMQ, routing), for tests and waveforms */
    public final List<InputUnit> inputs = new ArrayList<>();
    /** occ[o][v]: this core's view of the downstream buffer behind output o: flits of VC v held or granted */
    public final UInt[][] occ;

    public SwitchCore() {
        this(SwitchParams.TH2);
    }

    public SwitchCore(SwitchParams p) {
        this.params = p;
        int n = p.ports();
        in = input(Vec(n, () -> Valid.of(UInt(Th2.FLIT_BITS))));
        creditOut = output(Vec(n, () -> Valid.of(UInt(3))));
        out = output(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        creditIn = input(Vec(n, () -> Valid.of(CreditReturn::new)));
        toRs = output(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        fromRs = input(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        linkUp = input(Vec(n, () -> Bool()));
        tableWrite = input(Valid.of(() -> new TableWrite(p)));
        tableRead = input(new TableAddr(p));
        tableReadData = output(UInt(n));
        tableRegions = input(new TableRegions(p));
        malformedDrops = output(UInt(COUNTER_BITS));
        unroutableDrops = output(UInt(COUNTER_BITS));
        badVcDrops = output(UInt(COUNTER_BITS));
        overflowDrops = output(UInt(COUNTER_BITS));
        framingErrors = output(UInt(COUNTER_BITS));
        linkDownDrops = output(UInt(COUNTER_BITS));
        forwarded = output(Vec(n, () -> UInt(COUNTER_BITS)));
        occ = new UInt[n][p.vcs()];
        build();
    }

    /** Output queue depth: the two pipeline registers in flight plus one flit leaving plus one of slack (full rate). */
    public static final int OUT_QUEUE = 4;

    /** Per output o, the downstream credit view (occupancy per VC of the neighbour's DAMQ). */
    private CreditView[] views;
    /** freeCred[o][v]: free downstream slots of VC v behind output o. */
    private UInt[][] freeCred;
    /** fits[v][l] bit o: a packet of l flits on VC v fits downstream of output o now. */
    private UInt[][] fits;
    private final List<OutPort> outs = new ArrayList<>();

    private void build() {
        SwitchParams p = params;
        int n = p.ports();
        UInt linkUpBits = fromBools(linkUp.asList()).named("linkUpBits");
        creditViews();
        for (int o = 0; o < n; o++) {
            outs.add(new OutPort(o));
        }
        List<Bool> freeBits = new ArrayList<>();
        for (OutPort q : outs) {
            freeBits.add(q.locked.not().and(q.rsActive.not()).and(q.spaceOk));
        }
        UInt outFree = fromBools(freeBits).named("outFree");
        UInt space = fromBools(outs.stream().map(q -> q.spaceOk).toList()).named("space");
        for (int i = 0; i < n; i++) {
            inputUnit(i, outFree, space, linkUpBits);
        }
        List<Bool> readSel = new ArrayList<>();
        List<UInt> readData = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            readSel.add(tableRead.port.eq(i));
            readData.add(inputs.get(i).tableReadData);
        }
        tableReadData.assign(Mux1H(readSel, readData));
        allocate();
        dataPath();
        counters();
    }

    /** The downstream credit views and, per VC and packet length, the outputs the packet fits behind. */
    private void creditViews() {
        SwitchParams p = params;
        int n = p.ports();
        int vcs = p.vcs();
        int maxLen = p.maxPacketFlits();
        BufferShape shape = new BufferShape(vcs, p.reservedFlits(), p.sharedFlits());
        views = new CreditView[n];
        freeCred = new UInt[n][vcs];
        for (int o = 0; o < n; o++) {
            views[o] = instance("credits_" + o, new CreditView(shape));
            views[o].returned.connect(creditIn.get(o));
            // a link that comes (back) up starts with the far buffer empty
            Bool wasUp = regNext(linkUp.get(o), 0).named("wasUp_" + o);
            views[o].clear.assign(linkUp.get(o).and(wasUp.not()));
            for (int v = 0; v < vcs; v++) {
                occ[o][v] = views[o].occ.get(v);
                // free <= reservation + shared slots <= capacity: the input units' credit width holds it
                freeCred[o][v] = views[o].free.get(v).trunc(log2Up(p.capacity() + 1));
            }
        }
        fits = new UInt[vcs][maxLen + 1];
        for (int v = 0; v < vcs; v++) {
            for (int l = 0; l <= maxLen; l++) {
                List<Bool> bits = new ArrayList<>();
                for (int o = 0; o < n; o++) {
                    bits.add(l == 0 ? FALSE() : freeCred[o][v].ge(l));
                }
                fits[v][l] = fromBools(bits).named("fits_" + v + "_" + l);
            }
        }
    }

    /** One output's state: packet lock, the two pipeline stages in flight, the relay station's packet, the queue. */
    private final class OutPort {
        final Bool locked;
        final Bool inflight1;
        final Bool inflight2;
        final Bool rsActive;
        final Queue<UInt> queue;
        /** room in the output queue for everything in flight plus one more flit */
        final Bool spaceOk;

        OutPort(int o) {
            locked = regInit(Bool(), 0).named("locked_" + o);
            inflight1 = regInit(Bool(), 0).named("inflight1_" + o);
            inflight2 = regInit(Bool(), 0).named("inflight2_" + o);
            rsActive = regInit(Bool(), 0).named("rsActive_" + o);
            queue = instance("outQ_" + o, new Queue<>(() -> UInt(Th2.FLIT_BITS), Queue.depth(OUT_QUEUE)));
            UInt used = queue.count.pad(3).add(inflight1.pad(3)).add(inflight2.pad(3));
            spaceOk = used.lt(OUT_QUEUE).named("space_" + o);
            out.get(o).connect(queue.deq);
        }
    }

    /** Input port i's unit: its link side, the outputs' state, the downstream credits, its routing-table port. */
    private void inputUnit(int i, UInt outFree, UInt space, UInt linkUpBits) {
        SwitchParams p = params;
        int n = p.ports();
        int maxLen = p.maxPacketFlits();
        InputUnit u = instance("in_" + i, new InputUnit(p));
        inputs.add(u);
        u.in.connect(in.get(i));
        creditOut.get(i).connect(u.creditOut);
        toRs.get(i).connect(u.toRs);
        u.outFree.assign(outFree);
        u.space.assign(space);
        u.linkUp.assign(linkUpBits);
        u.portUp.assign(linkUp.get(i));
        for (int v = 0; v < p.vcs(); v++) {
            for (int l = 0; l <= maxLen; l++) {
                u.fits.get(v * (maxLen + 1) + l).assign(fits[v][l]);
            }
            for (int o = 0; o < n; o++) {
                u.credit.get(v * n + o).assign(freeCred[o][v]);
            }
        }
        u.tableWe.assign(tableWrite.valid.and(tableWrite.bits.port.eq(i).or(tableWrite.bits.all)));
        u.tableIndex.assign(tableWrite.bits.index);
        u.tableMask.assign(tableWrite.bits.mask);
        u.tableReadIndex.assign(tableRead.index);
        u.regions.connect(tableRegions);
    }

    /** The outputs granted this cycle and, per tile (row r, column c), the outputs granted to its input. */
    private record Grants(UInt granted, UInt[][] of) {
    }

    /**
     * Allocation: per output, a 6-input round-robin in each row's tile, then a 4-row round-robin at the output;
     * management packets first at both levels; the relay station's packets before all (docs/th2-nrc-switch.md).
     */
    private void allocate() {
        SwitchParams p = params;
        int n = p.ports();
        // the outputs each input's crossbar flit goes to this cycle, and those that get a packet's last flit
        UInt sendVec = lit(0, n);
        UInt lastVec = lit(0, n);
        for (InputUnit u : inputs) {
            sendVec = sendVec.or(u.xbarOH);
            lastVec = lastVec.or(mux(u.xbarLast, u.xbarOH, lit(0, n)));
        }
        UInt xbarSends = sendVec.named("xbarSends");
        UInt xbarLasts = lastVec.named("xbarLasts");
        // the relay stations' requests: a whole management packet, before any input
        Bool[] rsReq = new Bool[n];
        for (int o = 0; o < n; o++) {
            OutPort q = outs.get(o);
            rsReq[o] = p.hasManagementVc()
                    ? fromRs.get(o).valid.and(q.rsActive.not()).and(q.locked.not()).and(q.spaceOk)
                            .and(fits[Th2.MANAGEMENT_VC][Th2.PACKET_FLITS].bit(o)).named("rsReq_" + o)
                    : FALSE();
        }
        UInt inputsMayTake = fromBools(List.of(rsReq)).not().named("inputsMayTake");
        Grants g = arbitrate(inputsMayTake);
        // the granted packet's length and VC per output, bit-sliced over the outputs
        UInt zero = lit(0, n);
        UInt[] lenBits = new UInt[4];
        UInt[] vcBits = new UInt[3];
        java.util.Arrays.fill(lenBits, zero);
        java.util.Arrays.fill(vcBits, zero);
        for (int r = 0; r < p.rows(); r++) {
            for (int c = 0; c < p.cols(); c++) {
                InputUnit u = inputs.get(r * p.cols() + c);
                for (int b = 0; b < 4; b++) {
                    lenBits[b] = lenBits[b].or(mux(u.reqLen.bit(b), g.of()[r][c], zero));
                }
                for (int b = 0; b < 3; b++) {
                    vcBits[b] = vcBits[b].or(mux(u.reqVc.bit(b), g.of()[r][c], zero));
                }
            }
        }
        for (int o = 0; o < n; o++) {
            UInt gLen = cat(lenBits[3].bit(o), lenBits[2].bit(o), lenBits[1].bit(o), lenBits[0].bit(o)).named("grantLen_" + o);
            UInt gVc = cat(vcBits[2].bit(o), vcBits[1].bit(o), vcBits[0].bit(o)).named("grantVc_" + o);
            outputGrant(o, g.granted().bit(o), gLen, gVc, rsReq[o], xbarSends.bit(o), xbarLasts.bit(o));
        }
    }

    /**
     * Both arbiter levels at once, one bit per output: round-robin pointers kept as thermometers (after[k]
     * bit o = the pointer of output o's arbiter is below k), management requests first.
     */
    private Grants arbitrate(UInt inputsMayTake) {
        SwitchParams p = params;
        int n = p.ports();
        UInt zero = lit(0, n);
        UInt[][] tileWin = new UInt[p.rows()][];
        UInt[] rowReq = new UInt[p.rows()];
        UInt[] rowMgmt = new UInt[p.rows()];
        UInt[][] tileAfter = new UInt[p.rows()][p.cols()];
        for (int r = 0; r < p.rows(); r++) {
            UInt[] req = new UInt[p.cols()];
            Bool[] mg = new Bool[p.cols()];
            for (int c = 0; c < p.cols(); c++) {
                InputUnit u = inputs.get(r * p.cols() + c);
                req[c] = mux(u.reqValid, u.reqOH, zero);
                mg[c] = u.reqMgmt;
                tileAfter[r][c] = c == 0 ? zero : regInit(UInt(n), 0).named("tileAfter_" + r + "_" + c);
            }
            tileWin[r] = roundRobinPerOutput(req, mg, tileAfter[r], n);
            rowReq[r] = orAll(req, n).named("rowReq_" + r);
            UInt m = zero;
            for (int c = 0; c < p.cols(); c++) {
                m = m.or(mux(mg[c], req[c], zero));
            }
            rowMgmt[r] = m.named("rowMgmt_" + r);
        }
        UInt[] outAfter = new UInt[p.rows()];
        for (int r = 0; r < p.rows(); r++) {
            outAfter[r] = r == 0 ? zero : regInit(UInt(n), 0).named("outAfter_" + r);
        }
        UInt[] rowMgmtReq = new UInt[p.rows()];
        for (int r = 0; r < p.rows(); r++) {
            rowMgmtReq[r] = rowReq[r].and(rowMgmt[r]);
        }
        UInt[] rowWin = roundRobinPerOutput(rowReq, rowMgmtReq, outAfter, n);
        UInt grantedVec = orAll(rowReq, n).and(inputsMayTake).named("grantedVec");
        // pointers move to the winner where the output was granted
        for (int k = 1; k < p.rows(); k++) {
            UInt below = zero;
            for (int r = 0; r < k; r++) {
                below = below.or(rowWin[r]);
            }
            outAfter[k].assign(outAfter[k].and(grantedVec.not()).or(below.and(grantedVec)));
        }
        UInt[][] grantOf = new UInt[p.rows()][p.cols()];
        for (int r = 0; r < p.rows(); r++) {
            UInt rowWon = rowWin[r].and(grantedVec);
            for (int k = 1; k < p.cols(); k++) {
                UInt below = zero;
                for (int c = 0; c < k; c++) {
                    below = below.or(tileWin[r][c]);
                }
                tileAfter[r][k].assign(tileAfter[r][k].and(rowWon.not()).or(below.and(rowWon)));
            }
            for (int c = 0; c < p.cols(); c++) {
                grantOf[r][c] = tileWin[r][c].and(rowWon);
                inputs.get(r * p.cols() + c).grant.assign(grantOf[r][c].orR());
            }
        }
        return new Grants(grantedVec, grantOf);
    }

    /** Output o after allocation: the relay station's stream, the credit debit, the packet lock, the pipeline. */
    private void outputGrant(int o, Bool granted, UInt gLen, UInt gVc, Bool rsReqO, Bool sends, Bool lasts) {
        OutPort q = outs.get(o);
        Decoupled<UInt> rs = fromRs.get(o);
        // the relay station's packet: granted whole, streamed at the pipeline's pace
        Bool rsFire = rs.valid.and(q.rsActive.or(rsReqO)).and(q.spaceOk);
        rs.ready.assign(q.rsActive.or(rsReqO).and(q.spaceOk));
        when(rsFire, () -> q.rsActive.assign(rs.bits.bit(196).not()));

        // credits: debit a whole packet at its grant (the view credits what the downstream returns)
        for (int v = 0; v < params.vcs(); v++) {
            int dw = views[o].debit.get(v).width();
            UInt debit = mux(granted.and(gVc.eq(v)), gLen.pad(dw), lit(0, dw));
            if (v == Th2.MANAGEMENT_VC) {
                debit = debit.add(mux(rsReqO, lit(Th2.PACKET_FLITS, dw), lit(0, dw)));
            }
            views[o].debit.get(v).assign(debit);
        }

        // the packet lock: set by a multi-flit grant, cleared by that packet's last flit
        when(lasts, () -> q.locked.assign(FALSE()));
        when(granted.and(gLen.gt(1)), () -> q.locked.assign(TRUE()));
        q.inflight1.assign(sends.or(rsFire));
        q.inflight2.assign(q.inflight1);
    }

    /** Data path: input -> row bus register -> tile column channel register -> output queue. */
    private void dataPath() {
        SwitchParams p = params;
        int n = p.ports();
        UInt[] rowFlit = new UInt[n];
        UInt[] rowDest = new UInt[n];   // one-hot output set, zero when the row bus is idle
        for (int i = 0; i < n; i++) {
            InputUnit u = inputs.get(i);
            rowFlit[i] = regEnable(u.xbarFlit, u.xbarValid).named("rowBusFlit_" + i);
            rowDest[i] = regNext(u.xbarOH, 0).named("rowBusDest_" + i);
        }
        for (int o = 0; o < n; o++) {
            List<Bool> chValid = new ArrayList<>();
            List<UInt> chFlit = new ArrayList<>();
            for (int r = 0; r < p.rows(); r++) {
                // tile (r, column of o): the row-r inputs bound for o onto the column channel to o's row
                List<Bool> s = new ArrayList<>();
                List<UInt> d = new ArrayList<>();
                for (int c = 0; c < p.cols(); c++) {
                    int i = r * p.cols() + c;
                    s.add(rowDest[i].bit(o));
                    d.add(rowFlit[i]);
                }
                Bool v = fromBools(s).orR();
                chValid.add(regNext(v, 0).named("colChValid_" + r + "_" + o));
                chFlit.add(regEnable(Mux1H(s, d), v).named("colChFlit_" + r + "_" + o));
            }
            Decoupled<UInt> rs = fromRs.get(o);
            Bool rsFire = rs.fire();
            Bool rs1 = regNext(rsFire, 0).named("rsValid1_" + o);
            UInt rsF1 = regEnable(rs.bits, rsFire).named("rsFlit1_" + o);
            chValid.add(regNext(rs1, 0).named("rsValid2_" + o));
            chFlit.add(regEnable(rsF1, rs1).named("rsFlit2_" + o));
            Queue<UInt> q = outs.get(o).queue;
            q.enq.valid.assign(fromBools(chValid).orR());
            q.enq.bits.assign(Mux1H(chValid, chFlit));
        }
    }

    /** The drop and error counters summed over the inputs, and the packets forwarded per output. */
    private void counters() {
        malformedDrops.assign(counter("malformed", inputs, u -> u.malformed));
        unroutableDrops.assign(counter("unroutable", inputs, u -> u.unroutable));
        badVcDrops.assign(counter("badVc", inputs, u -> u.badVc));
        overflowDrops.assign(counter("overflow", inputs, u -> u.overflow));
        framingErrors.assign(counter("framing", inputs, u -> u.framingError));
        linkDownDrops.assign(counter("linkDown", inputs, u -> u.linkDownDrop));
        for (int o = 0; o < params.ports(); o++) {
            Decoupled<UInt> x = out.get(o);
            UInt c = regInit(UInt(COUNTER_BITS), 0).named("forwarded_" + o);
            when(x.fire().and(x.bits.bit(197)), () -> c.assign(c.add(1)));
            forwarded.get(o).assign(c);
        }
    }

    private UInt counter(String name, List<InputUnit> units, Function<InputUnit, Bool> pulse) {
        List<Bool> bits = new ArrayList<>();
        for (InputUnit u : units) {
            bits.add(pulse.apply(u));
        }
        UInt c = regInit(UInt(COUNTER_BITS), 0).named(name + "Count");
        c.assign(c.add(PopCount(bits).pad(COUNTER_BITS)));
        return c;
    }

    private static UInt orAll(UInt[] v, int n) {
        return v.length == 0 ? lit(0, n) : reduceTree(java.util.Arrays.asList(v), UInt::or);
    }

    /** Per-output round-robin where requester k's requests are all management ones if {@code mgmt[k]}. */
    private static UInt[] roundRobinPerOutput(UInt[] req, Bool[] mgmt, UInt[] after, int n) {
        UInt[] mreq = new UInt[req.length];
        for (int k = 0; k < req.length; k++) {
            mreq[k] = mux(mgmt[k], req[k], lit(0, n));
        }
        return roundRobinPerOutput(req, mreq, after, n);
    }

    /** Per-output round-robin where {@code mgmtReq[k]} (within {@code req[k]}) are requester k's management requests. */
    private static UInt[] roundRobinPerOutput(UInt[] req, UInt[] mgmtReq, UInt[] after, int n) {
        UInt anyMgmt = lit(0, n);
        for (UInt m : mgmtReq) {
            anyMgmt = anyMgmt.or(m);
        }
        return roundRobin(req, mgmtReq, anyMgmt, after, n);
    }

    /**
     * One round-robin arbiter per output bit: requester k asks for the outputs in {@code req[k]}; where any
     * management request exists ({@code anyMgmt}) only those compete; the winner is the first requester after the
     * output's pointer ({@code after[k]} bit o: pointer < k), wrapping to the first requester. One-hot per bit.
     */
    private static UInt[] roundRobin(UInt[] req, UInt[] mreq, UInt anyMgmt, UInt[] after, int n) {
        int k = req.length;
        UInt[] eff = new UInt[k];
        for (int i = 0; i < k; i++) {
            eff[i] = mreq[i].or(req[i].and(anyMgmt.not()));
        }
        UInt takenA = lit(0, n);
        UInt takenE = lit(0, n);
        UInt[] winA = new UInt[k];
        UInt[] winE = new UInt[k];
        for (int i = 0; i < k; i++) {
            UInt a = eff[i].and(after[i]);
            winA[i] = a.and(takenA.not());
            takenA = takenA.or(a);
            winE[i] = eff[i].and(takenE.not());
            takenE = takenE.or(eff[i]);
        }
        UInt[] win = new UInt[k];
        for (int i = 0; i < k; i++) {
            win[i] = winA[i].and(takenA).or(winE[i].and(takenA.not()));
        }
        return win;
    }
}
