package org.flitkit.hdl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import org.junit.jupiter.api.Test;

class ElaborationSmokeTest {
    static final class Stream extends Bundle {
        public final Bool valid = Bool();
        public final Bool ready = flipped(Bool());
        public final UInt bits;

        Stream(int w) {
            bits = UInt(w);
        }
    }

    static final class Inc extends Module {
        final Stream in = input(new Stream(8));
        final Stream out = output(new Stream(8));
        final UInt count = regInit(UInt(8), 0);

        Inc() {
            out.valid.assign(in.valid);
            in.ready.assign(out.ready);
            out.bits.assign(in.bits.add(1));
            when(in.valid.and(out.ready), () -> count.assign(count.add(1)));
        }
    }

    static final class Top extends Module {
        final Stream in = input(new Stream(8));
        final Stream out = output(new Stream(8));
        final Inc a = instance(new Inc());
        final Inc b = instance(new Inc());

        Top() {
            a.in.connect(in);
            b.in.connect(a.out);
            out.connect(b.out);
        }
    }

    @Test
    void namesFollowFields() {
        Circuit c = Circuit.elaborate(Top::new);
        assertThat(c.top().path()).isEqualTo("top");
        Top t = (Top) c.top();
        assertThat(t.a.count.path()).isEqualTo("top.a.count");
        assertThat(t.b.in.ready.path()).isEqualTo("top.b.in_ready");
        assertThat(t.in.ready.kind()).isEqualTo(Kind.OUTPUT);
        assertThat(c.netlist().combOrder()).isNotEmpty();
    }

    static final class Undriven extends Module {
        final UInt o = output(UInt(4));
        final Bool c = input(Bool());

        Undriven() {
            when(c, () -> o.assign(3));
        }
    }

    @Test
    void partialDriveIsReported() {
        assertThatThrownBy(() -> Circuit.elaborate(Undriven::new))
                .hasMessageContaining("undriven.o").hasMessageContaining("not driven on every path")
                .hasMessageContaining("ElaborationSmokeTest.java:");
    }
}
