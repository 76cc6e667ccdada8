package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.HashMap;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/** The slot layout of a small design: inputs, the contiguous state block, aliases, inlined expressions, counters. */
class SlotLayoutTest {
    /** A register behind an input, in an instance of its own. */
    static final class Leaf extends Module {
        final UInt in = input(UInt(8));
        final UInt out = output(UInt(8));

        Leaf() {
            UInt r = regInit(UInt(8), 0).named("r");
            r.assign(in.add(1));
            out.assign(r);
        }
    }

    /** Two inputs, a cycle counter, a named sum into a child, a 100-bit register, a tied-off output. */
    static final class Top extends Module {
        final UInt a = input(UInt(8));
        final UInt b = input(UInt(8));
        final UInt sum = output(UInt(8));
        final UInt big = output(UInt(100));
        final UInt seven = output(UInt(8));

        Top() {
            UInt cnt = regInit(UInt(16), 0).named("cnt");
            cnt.assign(cnt.add(1));
            UInt s = a.add(b).named("s");
            Leaf l = instance(new Leaf());
            l.in.assign(s);
            sum.assign(l.out.xor(a));
            UInt wide = regInit(UInt(100), 0).named("wide");
            wide.assign(cat(a, b, cnt.trunc(16)).pad(100));
            big.assign(wide);
            seven.assign(lit(7, 8));
        }
    }

    static Map<String, Bits> byPath(Netlist net) {
        Map<String, Bits> m = new HashMap<>();
        for (Bits b : net.namedSignals()) {
            m.put(b.path(), b);
        }
        return m;
    }

    @Test
    void inputsFirstThenTheStateBlockThenCombinationalValues() {
        Netlist net = Circuit.elaborate(Top::new).netlist();
        SlotLayout l = new SlotLayout(net);
        Map<String, Bits> s = byPath(net);
        assertThat(l.slot(s.get("top.a"))).isEqualTo(0);
        assertThat(l.slot(s.get("top.b"))).isEqualTo(1);
        assertThat(l.stateBase).isEqualTo(2);
        assertThat(l.stateCount).isEqualTo(2);
        assertThat(l.slot(s.get("top.cnt"))).isEqualTo(2);
        assertThat(l.slot(s.get("top.leaf_0.r"))).isEqualTo(3);
        assertThat(l.slot(s.get("top.sum"))).isEqualTo(4);
        assertThat(l.slot(s.get("top.seven"))).isEqualTo(5);
        assertThat(l.slot(s.get("top.s"))).isEqualTo(6);
        assertThat(l.nv).isEqualTo(7);
        // the 100-bit register: two limbs at the start of w, then its reset value (a wide literal), then scratch
        assertThat(l.wideStateBase).isEqualTo(0);
        assertThat(l.wideStateCount).isEqualTo(2);
        assertThat(l.slot(s.get("top.wide"))).isEqualTo(0);
        assertThat(l.wideConstOffsets).containsExactly(4);
        assertThat(l.scratchOff).isEqualTo(6);
    }

    @Test
    void wiresShareTheirDriversSlotAndSingleUseExpressionsHaveNone() {
        Netlist net = Circuit.elaborate(Top::new).netlist();
        SlotLayout l = new SlotLayout(net);
        Map<String, Bits> s = byPath(net);
        assertThat(l.rep(s.get("top.leaf_0.in"))).isSameAs(s.get("top.s"));
        assertThat(l.rep(s.get("top.leaf_0.out"))).isSameAs(s.get("top.leaf_0.r"));
        assertThat(l.rep(s.get("top.big"))).isSameAs(s.get("top.wide"));
        // the counter's increment and the XOR into sum are inlined into their one reader
        for (Bits n : net.combOrder()) {
            if (n.kind() == Kind.OP && n.name() == null && (n.op() == Op.ADD || n.op() == Op.XOR)) {
                assertThat(l.nslot).as("%s", n).doesNotContainKey(n);
                assertThatThrownBy(() -> l.slot(n)).hasMessageStartingWith("no slot for");
            }
        }
    }

    @Test
    void aRegisterThatAddsAConstantEveryCycleIsACounter() {
        Netlist net = Circuit.elaborate(Top::new).netlist();
        SlotLayout l = new SlotLayout(net);
        assertThat(l.counters).containsExactly(byPath(net).get("top.cnt"));
    }
}
