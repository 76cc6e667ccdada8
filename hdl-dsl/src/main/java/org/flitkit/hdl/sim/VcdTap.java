package org.flitkit.hdl.sim;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Module;
import org.flitkit.waves.Scope;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdWriter;

/** A simulator's VCD dump: a handle per named signal (one scope per module instance), the slot each one samples, the clock and reset. */
final class VcdTap {
    private final VcdWriter out;
    private final long period;
    private final int clk;
    private final int[] ids;
    private final Bits[] sigs;
    private final int[] slots;
    private final Timescale ts;

    VcdTap(VcdWriter out, long periodPs, Circuit circuit, SimPlan.SlotMap slotMap) {
        this.out = out;
        this.ts = out.timescale();
        this.period = ts.ticks(periodPs, "ps");
        Map<Module, Scope> scopes = new IdentityHashMap<>();
        Module top = circuit.top();
        Scope root = out.root(top.instanceName());
        scopes.put(top, root);
        clk = root.wire("clk", 1);
        root.wire("reset", 1);
        List<Bits> named = circuit.netlist().namedSignals();
        ids = new int[named.size()];
        sigs = named.toArray(new Bits[0]);
        slots = new int[named.size()];
        for (int i = 0; i < sigs.length; i++) {
            Bits b = sigs[i];
            Scope sc = scope(b.owner(), scopes);
            ids[i] = b.kind() == Kind.REG ? sc.reg(b.name(), b.width()) : sc.wire(b.name(), b.width());
            slots[i] = slotMap.slot(b);
        }
    }

    private Scope scope(Module m, Map<Module, Scope> scopes) {
        Scope s = scopes.get(m);
        if (s == null) {
            s = scope(m.parent(), scopes).child(m.instanceName());
            scopes.put(m, s);
        }
        return s;
    }

    /** Rising edge of cycle c at c*period; the falling edge half a period later. */
    void sample(long c, boolean rising, boolean reset, long[] v, long[] w) {
        out.time(c * period + (rising ? 0 : period / 2));
        out.value(clk, rising ? 1 : 0);
        out.value(clk + 1, reset ? 1 : 0);
        for (int i = 0; i < ids.length; i++) {
            if (sigs[i].width() > 64) {
                out.value(ids[i], w, slots[i]);
            } else {
                out.value(ids[i], v[slots[i]]);
            }
        }
    }

    void close() {
        out.close();
    }
}
