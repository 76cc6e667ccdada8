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
        occ = new UInt[n][p.vcs()];
        build();
    }

    /** Output queue depth: the two pipeline registers in flight plus one flit leaving plus one of slack (full rate). */
    public static final int OUT_QUEUE = 4;

    private void build() {
        SwitchParams p = params;
        int n = p.ports();
        int vcs = p.vcs();
        int maxLen = p.maxPacketFlits();
        UInt link = fromBools(linkUp.asList()).named("linkUpBits");

        // ---- downstream credit view per output: occupancy per VC of the neighbour's DAMQ
        BufferShape shape = new BufferShape(vcs, p.reservedFlits(), p.sharedFlits());
        CreditView[] views = new CreditView[n];
        UInt[][] freeCred = new UInt[n][vcs];
        for (int o = 0; o < n; o++) {
            views[o] = instance("credits_" + o, new CreditView(shape));
            views[o].returned.connect(creditIn.get(o));
            for (int v = 0; v < vcs; v++) {
                occ[o][v] = views[o].occ.get(v);
                // free <= reservation + shared slots <= capacity: the input units' credit width holds it
                freeCred[o][v] = views[o].free.get(v).trunc(log2Up(p.capacity() + 1));
            }
        }
        UInt[][] fits = new UInt[vcs][maxLen + 1];
        for (int v = 0; v < vcs; v++) {
            for (int l = 0; l <= maxLen; l++) {
                List<Bool> bits = new ArrayList<>();
                for (int o = 0; o < n; o++) {
                    bits.add(l == 0 ? FALSE() : freeCred[o][v].ge(l));
                }
                fits[v][l] = fromBools(bits).named("fits_" + v + "_" + l);
            }
        }

        // ---- output state: packet lock, pipeline occupancy, output queue
        Bool[] locked = new Bool[n];
        Bool[] d1 = new Bool[n];
        Bool[] d2 = new Bool[n];
        Bool[] rsActive = new Bool[n];
        Bool[] spaceOk = new Bool[n];
        List<Queue<UInt>> queues = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            locked[o] = regInit(Bool(), 0).named("locked_" + o);
            d1[o] = regInit(Bool(), 0).named("inflight1_" + o);
            d2[o] = regInit(Bool(), 0).named("inflight2_" + o);
            rsActive[o] = regInit(Bool(), 0).named("rsActive_" + o);
            Queue<UInt> q = instance("outQ_" + o, new Queue<>(() -> UInt(Th2.FLIT_BITS), OUT_QUEUE));
            queues.add(q);
            UInt used = q.count.pad(3).add(d1[o].pad(3)).add(d2[o].pad(3));
            spaceOk[o] = used.lt(OUT_QUEUE).named("space_" + o);
            out.get(o).connect(q.deq);
        }
        List<Bool> freeBits = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            freeBits.add(locked[o].not().and(rsActive[o].not()).and(spaceOk[o]));
        }
        UInt outFree = fromBools(freeBits).named("outFree");
        UInt space = fromBools(List.of(spaceOk)).named("space");

        // ---- input units
        List<InputUnit> units = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            InputUnit u = instance("in_" + i, new InputUnit(p));
            units.add(u);
            inputs.add(u);
            u.in.connect(in.get(i));
            creditOut.get(i).connect(u.creditOut);
            toRs.get(i).connect(u.toRs);
            u.outFree.assign(outFree);
            u.space.assign(space);
            u.linkUp.assign(link);
            for (int v = 0; v < vcs; v++) {
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
        }
        List<Bool> readSel = new ArrayList<>();
        List<UInt> readData = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            readSel.add(tableRead.port.eq(i));
            readData.add(units.get(i).tableReadData);
        }
        tableReadData.assign(oneHotMux(readSel, readData));

        // ---- allocation: per output, a 6-input round-robin in each row's tile, then a 4-row round-robin at
        // the output; management packets first at both levels; the relay station's packets before all
        // the outputs each input's crossbar flit goes to this cycle, and those that get a packet's last flit
        UInt sendVec = lit(0, n);
        UInt lastVec = lit(0, n);
        for (InputUnit u : units) {
            sendVec = sendVec.or(u.xbarOH);
            lastVec = lastVec.or(mux(u.xbarLast, u.xbarOH, lit(0, n)));
        }
        sendVec = sendVec.named("xbarSends");
        lastVec = lastVec.named("xbarLasts");
        // the relay stations' requests: a whole management packet, before any input
        Bool[] rsReq = new Bool[n];
        for (int o = 0; o < n; o++) {
            Decoupled<UInt> rs = fromRs.get(o);
            rsReq[o] = p.hasManagementVc()
                    ? rs.valid.and(rsActive[o].not()).and(locked[o].not()).and(spaceOk[o])
                            .and(fits[Th2.MANAGEMENT_VC][Th2.PACKET_FLITS].bit(o)).named("rsReq_" + o)
                    : FALSE();
        }
        UInt take = fromBools(List.of(rsReq)).not().named("inputsMayTake");

        // All arbiters of a level at once, one bit per output: round-robin pointers kept as thermometers
        // (after[k] bit o = the pointer of output o's arbiter is below k), management requests first.
        UInt zero = lit(0, n);
        UInt[][] tileWin = new UInt[p.rows()][];
        UInt[] rowReq = new UInt[p.rows()];
        UInt[] rowMgmt = new UInt[p.rows()];
        UInt[][] tileAfter = new UInt[p.rows()][p.cols()];
        for (int r = 0; r < p.rows(); r++) {
            UInt[] req = new UInt[p.cols()];
            Bool[] mg = new Bool[p.cols()];
            for (int c = 0; c < p.cols(); c++) {
                InputUnit u = units.get(r * p.cols() + c);
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
        UInt grantedVec = orAll(rowReq, n).and(take).named("granted");
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
                units.get(r * p.cols() + c).grant.assign(grantOf[r][c].orR());
            }
        }
        // the granted packet's length and VC per output, bit-sliced over the outputs
        UInt[] lenBits = new UInt[4];
        UInt[] vcBits = new UInt[3];
        java.util.Arrays.fill(lenBits, zero);
        java.util.Arrays.fill(vcBits, zero);
        for (int r = 0; r < p.rows(); r++) {
            for (int c = 0; c < p.cols(); c++) {
                InputUnit u = units.get(r * p.cols() + c);
                for (int b = 0; b < 4; b++) {
                    lenBits[b] = lenBits[b].or(mux(u.reqLen.bit(b), grantOf[r][c], zero));
                }
                for (int b = 0; b < 3; b++) {
                    vcBits[b] = vcBits[b].or(mux(u.reqVc.bit(b), grantOf[r][c], zero));
                }
            }
        }
        for (int o = 0; o < n; o++) {
            final int out0 = o;
            Decoupled<UInt> rs = fromRs.get(o);
            Bool granted = grantedVec.bit(o);
            UInt gLen = cat(lenBits[3].bit(o), lenBits[2].bit(o), lenBits[1].bit(o), lenBits[0].bit(o)).named("grantLen_" + o);
            UInt gVc = cat(vcBits[2].bit(o), vcBits[1].bit(o), vcBits[0].bit(o)).named("grantVc_" + o);
            Bool rsReqO = rsReq[o];

            // the relay station's packet: granted whole, streamed at the pipeline's pace
            Bool rsFire = rs.valid.and(rsActive[o].or(rsReqO)).and(spaceOk[o]);
            rs.ready.assign(rsActive[o].or(rsReqO).and(spaceOk[o]));
            when(rsFire, () -> rsActive[out0].assign(rs.bits.bit(196).not()));

            // credits: debit a whole packet at its grant (the view credits what the downstream returns)
            for (int v = 0; v < vcs; v++) {
                int dw = views[o].debit.get(v).width();
                UInt debit = mux(granted.and(gVc.eq(v)), gLen.pad(dw), lit(0, dw));
                if (v == Th2.MANAGEMENT_VC) {
                    debit = debit.add(mux(rsReqO, lit(Th2.PACKET_FLITS, dw), lit(0, dw)));
                }
                views[o].debit.get(v).assign(debit);
            }

            // the packet lock: set by a multi-flit grant, cleared by that packet's last flit
            when(lastVec.bit(o), () -> locked[out0].assign(FALSE()));
            when(granted.and(gLen.gt(1)), () -> locked[out0].assign(TRUE()));
            d1[o].assign(sendVec.bit(o).or(rsFire));
            d2[o].assign(d1[o]);
        }

        // ---- data path: input -> row bus register -> tile column channel register -> output queue
        UInt[] rowFlit = new UInt[n];
        UInt[] rowDest = new UInt[n];   // one-hot output set, zero when the row bus is idle
        for (int i = 0; i < n; i++) {
            InputUnit u = units.get(i);
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
                chFlit.add(regEnable(oneHotMux(s, d), v).named("colChFlit_" + r + "_" + o));
            }
            Decoupled<UInt> rs = fromRs.get(o);
            Bool rsFire = rs.fire();
            Bool rs1 = regNext(rsFire, 0).named("rsValid1_" + o);
            UInt rsF1 = regEnable(rs.bits, rsFire).named("rsFlit1_" + o);
            chValid.add(regNext(rs1, 0).named("rsValid2_" + o));
            chFlit.add(regEnable(rsF1, rs1).named("rsFlit2_" + o));
            Queue<UInt> q = queues.get(o);
            q.enq.valid.assign(fromBools(chValid).orR());
            q.enq.bits.assign(oneHotMux(chValid, chFlit));
        }

        // ---- counters
        malformedDrops.assign(counter("malformed", units, u -> u.malformed));
        unroutableDrops.assign(counter("unroutable", units, u -> u.unroutable));
        badVcDrops.assign(counter("badVc", units, u -> u.badVc));
        overflowDrops.assign(counter("overflow", units, u -> u.overflow));
        framingErrors.assign(counter("framing", units, u -> u.framingError));
        for (int o = 0; o < n; o++) {
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
