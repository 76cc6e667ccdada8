package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * One m x m switch of a distributed full switch ("Multi-rings and distributed full switches", section "Distributed
 * full switches"): a pilot flit on an idle input looks up the output that reaches its destination and claims it if
 * free (lowest input first); the circuit carries the packet's flits, one register per output and no buffering, until
 * the last flit. An input whose pilot cannot get its output waits ({@code ready} low) and counts a blocked cycle.
 */
public class DfsSwitch extends Module {
    public final Vec<DfsFlit> in;
    /** Per input: the flit offered there is taken this cycle. */
    public final Vec<Bool> ready;
    public final Vec<DfsFlit> out;
    /** Cycles in which some pilot waited for an output another circuit holds (or another pilot won). */
    public final UInt blocked;

    /** This switch's number i: it reaches subscriber d through the port {@code route[(d - i) mod N]}. */
    public final UInt id;

    /**
     * {@code route[k]}: the output port that reaches subscriber i + k (mod N), {@code m} when none does. The
     * quasi-complete digraph is circulant, so one table serves every switch.
     */
    public DfsSwitch(int m, int nodeBits, int nodes, long[] route) {
        int portBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(m));
        id = input(UInt(nodeBits));
        in = input(Vec(m, () -> new DfsFlit(nodeBits)));
        ready = output(Vec(m, () -> Bool()));
        out = output(Vec(m, () -> new DfsFlit(nodeBits)));
        blocked = output(UInt(32));

        Mem<UInt> routeTable = mem(route.length, UInt(portBits)).init(route).named("routeTable");
        List<Bool> busy = new ArrayList<>();
        List<UInt> port = new ArrayList<>();
        List<Bool> pilot = new ArrayList<>();
        List<UInt> want = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            busy.add(regInit(Bool(), 0).named("circuit_" + j));
            port.add(regInit(UInt(portBits), 0).named("circuit_port_" + j));
            pilot.add(in.get(j).valid.and(busy.get(j).not()).named("pilot_" + j));
            // k = dst - id mod N without a divider: N + dst - id is in 1..2N-1
            UInt wide = in.get(j).dst.pad(nodeBits + 1).add(lit(nodes, nodeBits + 1)).sub(id.pad(nodeBits + 1));
            UInt offset = mux(wide.ge(nodes), wide.sub(nodes), wide).trunc(nodeBits).named("offset_" + j);
            want.add(routeTable.read(offset.pad(Math.max(nodeBits, routeTable.addrWidth())).trunc(routeTable.addrWidth())).named("want_" + j));
        }
        List<Bool> owned = new ArrayList<>();
        for (int o = 0; o < m; o++) {
            owned.add(regInit(Bool(), 0).named("owned_" + o));
        }
        // grant[j]: input j's pilot gets its output this cycle
        List<Bool> grant = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            grant.add(wireDefault(Bool(), FALSE()).named("grant_" + j));
        }
        Bool anyBlocked = FALSE();
        for (int o = 0; o < m; o++) {
            Bool taken = owned.get(o);
            for (int j = 0; j < m; j++) {
                Bool asks = pilot.get(j).and(want.get(j).eq(o));
                Bool wins = asks.andNot(taken);
                final int jj = j;
                when(wins, () -> grant.get(jj).assign(TRUE()));
                anyBlocked = anyBlocked.or(asks.and(taken));
                taken = taken.or(asks);
            }
        }
        UInt blockedCount = regInit(UInt(32), 0).named("blockedCount");
        when(anyBlocked, () -> blockedCount.assign(blockedCount.add(1)));
        blocked.assign(blockedCount);

        // the flit each input moves this cycle, and where
        List<Bool> moves = new ArrayList<>();
        List<UInt> to = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            Bool move = in.get(j).valid.and(busy.get(j).or(grant.get(j))).named("moves_" + j);
            UInt target = mux(busy.get(j), port.get(j), want.get(j)).named("to_" + j);
            moves.add(move);
            to.add(target);
            ready.get(j).assign(move);
            final int jj = j;
            when(grant.get(j), () -> {
                busy.get(jj).assign(TRUE());
                port.get(jj).assign(want.get(jj));
            });
            when(move.and(in.get(j).last), () -> busy.get(jj).assign(FALSE()));
        }
        for (int o = 0; o < m; o++) {
            Bool v = regInit(Bool(), 0).named("out_valid_" + o);
            Bool last = regInit(Bool(), 0).named("out_last_" + o);
            UInt dst = regInit(UInt(nodeBits), 0).named("out_dst_" + o);
            UInt data = regInit(UInt(DfsFlit.DATA_BITS), 0).named("out_data_" + o);
            v.assign(FALSE());
            Bool claimed = FALSE();
            Bool released = FALSE();
            for (int j = 0; j < m; j++) {
                Bool here = moves.get(j).and(to.get(j).eq(o));
                final int jj = j;
                when(here, () -> {
                    v.assign(TRUE());
                    last.assign(in.get(jj).last);
                    dst.assign(in.get(jj).dst);
                    data.assign(in.get(jj).data);
                });
                claimed = claimed.or(grant.get(j).and(want.get(j).eq(o)));
                released = released.or(here.and(in.get(j).last));
            }
            Bool own = owned.get(o);
            // a one-flit packet claims and releases in the same cycle
            own.assign(own.or(claimed).and(released.not()));
            out.get(o).valid.assign(v);
            out.get(o).last.assign(last);
            out.get(o).dst.assign(dst);
            out.get(o).data.assign(data);
        }
    }

    @Override
    public String definitionName() {
        return "DfsSwitch";
    }
}
