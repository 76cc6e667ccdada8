package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Check;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;

/**
 * The statements of one item of the schedule: a combinational value's store (with the wake-up code of its
 * readers when flagged), a state element's next value, a memory write, a check. Expressions come from the
 * narrow and wide emitters.
 */
final class StatementEmitter {
    private final EmitState st;
    private final SlotLayout layout;
    private final Netlist net;
    private final NarrowEmitter narrow;
    private final WideEmitter wide;

    StatementEmitter(EmitState st, NarrowEmitter narrow, WideEmitter wide) {
        this.st = st;
        this.layout = st.layout;
        this.net = st.net;
        this.narrow = narrow;
        this.wide = wide;
    }

    /** Statement computing a slotted combinational node (null when it needs none). */
    String combStmt(Bits n) {
        if (layout.isAlias(n) || !(layout.nslot.containsKey(n) || layout.wslot.containsKey(n))) {
            return null;
        }
        if (n.kind() != Kind.OP) {
            // a wire/port whose driver is an inlined expression or a narrow literal
            return local(n, narrow.ex(net.driverOf(n)));
        }
        if (!wide(n)) {
            if (n.op() == Op.SEL) {
                return watchNarrow(n, wide.selStmt(n));
            }
            if ((n.op() == Op.REM || n.op() == Op.DIV) && SlotLayout.anyWideArg(n)) {
                return watchNarrow(n, wide.wideDivStmt(n));
            }
            return local(n, narrow.opExpr(n));
        }
        String stmt = wide.wideStmt(n);
        int off = layout.wslot.get(n);
        if (st.chunk != null) {
            st.chunk.wProduced.add(off);
        }
        String flags = st.flagging ? st.wake(st.activity.combWake(true, off)) : "";
        if (flags.isEmpty()) {
            return stmt;
        }
        // a wide value read by other chunks wakes them only when it changed: compared with its last value
        return stmt + " if (Wide.changed(w, " + off + ", " + st.activity.shadowOf(off) + ", " + limbs(n.width()) + ")) { " + flags + " }";
    }

    /** A statement that writes narrow slot of n in place, followed by waking n's readers when it changed. */
    String watchNarrow(Bits n, String stmt) {
        int slot = layout.nslot.get(n);
        String flags = st.flagging ? st.wake(st.activity.combWake(false, slot)) : "";
        if (st.chunk != null) {
            st.computedIn.put(slot, st.chunkIndex);
        }
        return flags.isEmpty() ? stmt : "{ final long o = v[" + slot + "]; " + stmt + " if (v[" + slot + "] != o) { " + flags + " } }";
    }

    /** {@code final long xS = expr; v[S] = xS;} and later reads in this chunk use the local. */
    String local(Bits n, String expr) {
        int slot = layout.nslot.get(n);
        if (st.chunk == null) {
            return "v[" + slot + "] = " + expr + ";";
        }
        String name = "x" + slot;
        st.chunk.locals.put(slot, name);
        st.chunk.added.add(slot);
        st.computedIn.put(slot, st.chunkIndex);
        boolean store = !st.fast || st.mustStore.contains(slot);
        String flags = st.flagging ? st.wake(st.activity.combWake(false, slot)) : "";
        if (!store) {
            st.chunk.unstored = true;
        }
        String def = "final long " + name + " = " + expr + ";";
        if (!flags.isEmpty()) {
            // read by later chunks: they run again only if this value changed
            return def + " if (v[" + slot + "] != " + name + ") { v[" + slot + "] = " + name + "; " + flags + " }";
        }
        return def + (store ? " v[" + slot + "] = " + name + ";" : "");
    }

    /**
     * Phase 1 of a clock edge for one state element: its next value into nx/nxw; when it differs from
     * the current value, the chunks that read the element are woken for the next cycle.
     */
    String nextStmt(Bits s, boolean reset) {
        boolean w = wide(s);
        int slot = w ? layout.wslot.get(s) : layout.nslot.get(s);
        int k = slot - (w ? layout.wideStateBase : layout.stateBase);
        String flags = st.flagging ? st.wake(st.activity.nextWake(w, slot)) : "";
        String stmt;
        if (s.kind() == Kind.MEM_SYNC_READ) {
            Mem<?> mem = s.mem();
            Bits addr = s.args().get(0);
            Bits en = s.args().get(1);
            if (w) {
                stmt = "if (" + narrow.ex(en) + " != 0L) MemPorts.readWide(m.l[" + st.memRef(mem) + "], " + narrow.ex(addr) + ", " + mem.depth()
                        + ", nxw, " + k + ", " + s.width() + "); else " + WideEmitter.copy("nxw", k, s.width(), "w", slot);
            } else {
                stmt = "nx[" + k + "] = " + narrow.ex(en) + " != 0L ? " + narrow.memRead(s, narrow.ex(addr)) + " : v[" + slot + "];";
            }
        } else {
            Bits next = net.driverOf(s);
            Bits init = reset && !literalReset(s) ? s.resetValue() : null;
            if (w && !flags.isEmpty()) {
                String watch = "if (!Wide.eq(nxw, " + k + ", w, " + slot + ", " + s.width() + ")) { " + flags + " }";
                String watched = watchedNext(k, s, next, watch);
                return init == null ? watched
                        : "if (rst) { " + wide.limbBlock("nxw", k, s.width(), init) + " " + watch + " } else " + watched;
            }
            if (w) {
                String copyNext = wide.limbBlock("nxw", k, s.width(), next);
                stmt = init == null ? copyNext
                        : "if (rst) " + wide.limbBlock("nxw", k, s.width(), init) + " else " + copyNext;
            } else {
                String value = init == null ? narrow.ex(next) : "rst ? " + narrow.ex(init) + " : " + narrow.ex(next);
                if (!flags.isEmpty()) {
                    // compared in registers: after a store to nx, HotSpot would reload both arrays
                    String now = st.chunk != null && st.chunk.locals.containsKey(slot) ? st.chunk.locals.get(slot) : "v[" + slot + "]";
                    return "{ final long n = " + value + "; nx[" + k + "] = n; if (n != " + now + ") { " + flags + " } }";
                }
                stmt = "nx[" + k + "] = " + value + ";";
            }
        }
        if (flags.isEmpty()) {
            return stmt;
        }
        String changed = w ? "!Wide.eq(nxw, " + k + ", w, " + slot + ", " + s.width() + ")" : "nx[" + k + "] != v[" + slot + "]";
        return stmt + " if (" + changed + ") { " + flags + " }";
    }

    /**
     * The next value of wide register {@code s} from {@code src}, comparing it with the current value only
     * in the arms of a select chain that can change it: an arm that holds the register copies it and
     * cannot differ, and holding is what most registers of packets do in most cycles. The fast variant's
     * arm that holds stores nothing: its evaluation is the only one between two clock edges, and each edge
     * leaves the next state equal to the state (the storing variant may run several times in a cycle, as
     * pokes come in, and an earlier run may have left another next value).
     */
    String watchedNext(int k, Bits s, Bits src, String watch) {
        return wide.selectChain(src, r -> r != s ? "{ " + wide.limbBlock("nxw", k, s.width(), r) + " " + watch + " }"
                : st.fast ? "{ }" : wide.limbBlock("nxw", k, s.width(), r));
    }

    /** A register whose reset value is a constant: reset is applied at commit time, off the hot path. */
    static boolean literalReset(Bits s) {
        return s.kind() == Kind.REG && s.resetValue() != null && s.resetValue().kind() == Kind.LIT && !wide(s);
    }

    /** Statement overriding the next value of a constant-reset register while reset is high. */
    String resetStmt(Bits s) {
        return "nx[" + (layout.nslot.get(s) - layout.stateBase) + "] = " + hex(s.resetValue().litValue().longValue()) + ";";
    }

    /** Phase 2: memory writes in declaration order (a later write to the same word wins). */
    String writeStmt(Mem<?> mem, Mem.Write wr, boolean wake) {
        int k = layout.memIndex.get(mem);
        String write = mem.width() > 64
                ? "MemPorts.writeWide(m, " + k + ", " + narrow.ex(wr.addr()) + ", " + mem.depth() + ", w, " + st.off(wr.data()) + ", "
                        + mem.width() + ");"
                : "MemPorts.write" + Memories.elementBits(mem.width()) + "(m, " + k + ", " + narrow.ex(wr.addr()) + ", " + mem.depth() + ", "
                        + narrow.ex(wr.data()) + ");";
        return "if (" + narrow.ex(wr.enable()) + " != 0L) { " + write + (wake ? " " + st.activity.memWake(k) : "") + " }";
    }

    /**
     * Clock-edge statement of check {@code id}: calls {@code ev.fire(id)} when its enable holds and, for
     * an assertion, its condition does not. The printed arguments stay stored for the Simulator to read.
     */
    String checkStmt(int id, Check c) {
        for (Bits a : c.format().args()) {
            if (!wide(layout.rep(a))) {
                st.mustStore.add(st.off(a));
            }
        }
        List<String> tests = new ArrayList<>();
        if (c.enable() != null) {
            tests.add(narrow.ex(c.enable()) + " != 0L");
        }
        if (c.condition() != null) {
            tests.add(narrow.ex(c.condition()) + " == 0L");
        }
        String fire = "ev.fire(" + id + ");";
        String stmt = tests.isEmpty() ? fire : "if (" + String.join(" && ", tests) + ") " + fire;
        return stmt + " // " + (c.isAssertion() ? "check" : "printf") + " in " + c.owner().path() + " at " + c.loc();
    }
}
