package org.flitkit.env.nrc.benchmark;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.PopCount;
import static org.flitkit.hdl.lib.OneHot.UIntToOH;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.tools.benchmark.Checksum;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;

/**
 * The {@code nrc-switch} benchmark: the 24-port switch core (6 VCs, 32-entry tables) loaded its tables for
 * 768 cycles (entry i of input p allows outputs i mod 24 and (i + p) mod 24), then every input sends LFSR
 * packets (VC0..VC3, 1 to 8 flits, 32 destinations) back to back whenever its credit view of the core's
 * DAMQ has room for the whole packet, and every output takes flits under LFSR backpressure and returns
 * each flit's credit one cycle later. {@code checksum} folds every flit taken from the outputs.
 * docs/th2-nrc-switch.md.
 */
public final class SwitchTrafficBenchmark extends Module {
    public static final SwitchParams PARAMS = new SwitchParams(24, 4, 6, 6, 8, 32, 8, 32);

    public final UInt checksum = output(UInt(Checksum.WIDTH));
    /** packets (heads) taken from the outputs */
    public final UInt packets = output(UInt(32));

    public final SwitchCore core = instance(new SwitchCore(PARAMS));

    public SwitchTrafficBenchmark() {
        SwitchParams p = PARAMS;
        int n = p.ports();
        int entries = p.tableEntries();
        int cw = 16;

        // the tables, one entry per cycle after reset
        UInt init = regInit(UInt(16), 0).named("init");
        Bool loading = init.lt(n * entries).named("loading");
        when(loading, () -> init.assign(init.add(1)));
        UInt index = init.bits(4, 0);
        UInt port = init.bits(9, 5);
        UInt a = modPorts(index.pad(6), n);
        UInt b = modPorts(index.pad(6).add(port.pad(6)), n);
        core.tableWrite.valid.assign(loading);
        core.tableWrite.bits.port.assign(port);
        core.tableWrite.bits.index.assign(index);
        core.tableWrite.bits.mask.assign(UIntToOH(a, n).or(UIntToOH(b, n)));
        core.tableWrite.bits.all.assign(FALSE());
        core.tableRead.port.assign(0);
        core.tableRead.index.assign(0);
        // one flat table indexed by DestID (the reset indexing)
        core.tableRegions.localBits.assign(0);
        core.tableRegions.region.assign(0);
        core.tableRegions.fallback.assign(0);

        UInt sinkReady = Lfsr.galois(32, TRUE(), 0x5EED_0A11L).named("sinkReady");
        List<Bits> taken = new ArrayList<>();
        List<Bool> heads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            source(i, loading.not(), cw);
            core.linkUp.get(i).assign(TRUE());
            core.fromRs.get(i).valid.assign(FALSE());
            core.fromRs.get(i).bits.assign(0);
            core.toRs.get(i).ready.assign(TRUE());

            // the downstream: about 3 cycles in 4 ready; a flit's credit goes back the next cycle
            Decoupled<UInt> out = core.out.get(i);
            out.ready.assign(sinkReady.bit(i).or(sinkReady.bit((i + 7) % 32)));
            Bool head = out.bits.bit(197);
            UInt vcReg = regInit(UInt(3), 0).named("sinkVc_" + i);
            UInt vc = mux(head, LayoutBits.get(out.bits, DataLayouts.HEAD.VC), vcReg);
            when(out.fire(), () -> vcReg.assign(vc));
            core.creditIn.get(i).valid.assign(regNext(out.fire(), 0));
            core.creditIn.get(i).bits.vc.assign(regNext(vc, 0));
            core.creditIn.get(i).bits.count.assign(1);
            taken.add(mux(out.fire(), out.bits, lit(0, Th2.FLIT_BITS)));
            heads.add(out.fire().and(head));
        }
        UInt packetCount = regInit(UInt(32), 0).named("packetCount");
        packetCount.assign(packetCount.add(PopCount(heads).pad(32)));
        packets.assign(packetCount);
        checksum.assign(Checksum.accumulate(Checksum.fold(taken)));
    }

    /** x mod n for x < 64, as a 5-bit port number: n 2^j subtracted where it fits, largest first. */
    static UInt modPorts(UInt x, int n) {
        int m = n;
        while (2 * m < 64) {
            m *= 2;
        }
        UInt y = x;
        for (; m >= n; m /= 2) {
            y = mux(y.ge(m), y.sub(m), y);
        }
        return y.trunc(5);
    }

    /** Input i's upstream: VCT packets from an LFSR whenever its view of the core's buffer takes the whole packet. */
    private void source(int i, Bool enabled, int cw) {
        SwitchParams p = PARAMS;
        UInt rnd = Lfsr.galois(32, TRUE(), 0x1234_5678L + 0x9E37L * (i + 1)).named("src_lfsr_" + i);
        UInt vc = rnd.bits(1, 0).pad(3);
        UInt len = rnd.bits(4, 2).pad(4).add(1);
        UInt dest = rnd.bits(9, 5).pad(Th2.CHIP_ID_BITS);

        Bool sending = regInit(Bool(), 0).named("srcSending_" + i);
        UInt left = regInit(UInt(4), 0).named("srcLeft_" + i);
        UInt[] occ = new UInt[p.vcs()];
        UInt shared = lit(0, cw);
        for (int v = 0; v < p.vcs(); v++) {
            occ[v] = regInit(UInt(cw), 0).named("srcOcc_" + i + "_" + v);
            shared = shared.add(mux(occ[v].gt(p.reservedFlits()), occ[v].sub(p.reservedFlits()), lit(0, cw)));
        }
        UInt sharedFree = mux(shared.lt(p.sharedFlits()), lit(p.sharedFlits(), cw).sub(shared), lit(0, cw));
        List<UInt> free = new ArrayList<>();
        for (int v = 0; v < p.vcs(); v++) {
            free.add(mux(occ[v].lt(p.reservedFlits()), lit(p.reservedFlits(), cw).sub(occ[v]), lit(0, cw)).add(sharedFree));
        }
        UInt freeVc = vecOf(free).at(vc);
        Bool start = enabled.and(sending.not()).and(len.pad(cw).le(freeVc)).named("srcStart_" + i);

        UInt headFlit = lit(0, Th2.FLIT_BITS);
        headFlit = LayoutBits.with(headFlit, DataLayouts.HEAD.KIND, mux(len.eq(1), lit(3, 2), lit(2, 2)));
        headFlit = LayoutBits.with(headFlit, DataLayouts.HEAD.VC, vc);
        headFlit = LayoutBits.with(headFlit, DataLayouts.HEAD.LEN, len.pad(5));
        headFlit = LayoutBits.with(headFlit, DataLayouts.HEAD.DEST_ID, dest);
        headFlit = LayoutBits.with(headFlit, DataLayouts.HEAD.SRC_ID, lit(i, Th2.CHIP_ID_BITS));
        headFlit = LayoutBits.with(headFlit, DataLayouts.HEAD.PACKET_ID, rnd.pad(36));
        UInt body = cat(mux(left.eq(1), lit(1, 2), lit(0, 2)), rnd.bits(3, 0), rnd, rnd, rnd, rnd, rnd, rnd);

        core.in.get(i).valid.assign(start.or(sending));
        core.in.get(i).bits.assign(mux(sending, body, headFlit));
        when(start, () -> {
            sending.assign(len.gt(1));
            left.assign(len.sub(1));
        });
        when(sending, () -> {
            left.assign(left.sub(1));
            sending.assign(left.ne(1));
        });
        for (int v = 0; v < p.vcs(); v++) {
            UInt debit = mux(start.and(vc.eq(v)), len.pad(cw), lit(0, cw));
            Bool ret = core.creditOut.get(i).valid.and(core.creditOut.get(i).bits.eq(v));
            occ[v].assign(occ[v].add(debit).sub(ret.pad(cw)));
        }
    }
}
