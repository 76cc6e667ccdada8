package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
class DecoupledTest {
    static final class Pair extends Bundle {
        public final SInt a = SInt(5);
        public final Bool flag = Bool();
    }

    /** Adds 1 to each element on the way through, using the enq/noenq/fire helpers. */
    static final class Inc extends Module {
        final Decoupled<UInt> in = input(Decoupled.of(UInt(8)));
        final Decoupled<UInt> out = output(Decoupled.of(UInt(8)));
        final Bool fired = output(Bool());

        Inc() {
            when(in.valid, () -> out.enq(in.bits.add(1))).otherwise(out::noenq);
            in.ready.assign(out.ready);
            fired.assign(in.fire());
        }
    }

    /** Two Inc stages joined with the direction-aware connect. */
    static final class Chain extends Module {
        final Decoupled<UInt> in = input(Decoupled.of(UInt(8)));
        final Decoupled<UInt> out = output(Decoupled.of(UInt(8)));
        final Inc a = instance(new Inc());
        final Inc b = instance(new Inc());

        Chain() {
            a.in.connect(in);
            b.in.connect(a.out);
            out.connect(b.out);
        }
    }

    @Test
    void portDirectionsFollowProducerAndConsumerViews() {
        Circuit c = Circuit.elaborate(Inc::new);
        Inc t = (Inc) c.top();
        assertThat(t.in.valid.kind()).isEqualTo(Kind.INPUT);
        assertThat(t.in.bits.kind()).isEqualTo(Kind.INPUT);
        assertThat(t.in.ready.kind()).isEqualTo(Kind.OUTPUT);
        assertThat(t.out.valid.kind()).isEqualTo(Kind.OUTPUT);
        assertThat(t.out.ready.kind()).isEqualTo(Kind.INPUT);
        assertThat(t.in.ready.path()).isEqualTo("inc.in_ready");
        assertThat(t.out.bits.path()).isEqualTo("inc.out_bits");
    }

    @Test
    void chainPassesElementsAndBackpressure() {
        Simulator sim = Simulator.of(Chain::new);
        Chain t = (Chain) sim.circuit().top();
        sim.reset();
        sim.poke(t.in.valid, 1);
        sim.poke(t.in.bits, 41);
        sim.poke(t.out.ready, 0);
        assertThat(sim.peek(t.out.valid)).isEqualTo(1);
        assertThat(sim.peek(t.out.bits)).isEqualTo(43);
        assertThat(sim.peek(t.in.ready)).isZero();
        assertThat(sim.peek(t.a.fired)).isZero();
        sim.poke(t.out.ready, 1);
        assertThat(sim.peek(t.in.ready)).isEqualTo(1);
        assertThat(sim.peek(t.a.fired)).isEqualTo(1);
        sim.poke(t.in.valid, 0);
        assertThat(sim.peek(t.out.valid)).isZero();
        assertThat(sim.peek(t.out.bits)).as("noenq drives zero").isZero();
        assertThat(sim.peek(t.b.fired)).isZero();
    }

    @Test
    void randomTrafficThroughChainKeepsOrderAndHandshake(RunConfig cfg) {
        try (Testbench<Chain> tb = Testbench.create(Chain::new, cfg)) {
            // two stages, each adding 1 modulo 256
            StreamCheck check = new StreamCheck(tb, tb.dut().in, tb.dut().out, Throttle.random(0.6), Throttle.random(0.5),
                    v -> v.add(BigInteger.TWO).mod(BigInteger.valueOf(256)));
            Rng data = tb.rng("data");
            List<BigInteger> values = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                values.add(data.bits(8));
            }
            check.run(tb, values, 2_000);
        }
    }

    @Test
    void cloneTypeAndSupplierGiveFreshEqualShapes() {
        Decoupled<Pair> d = Decoupled.of(Pair::new);
        Decoupled<Pair> e = d.cloneType();
        assertThat(e).isNotSameAs(d);
        assertThat(e.bits).isNotSameAs(d.bits);
        assertThat(Types.widthOf(e)).isEqualTo(1 + 1 + 6).isEqualTo(Types.widthOf(d));
        Decoupled<UInt> u = Decoupled.of(UInt(20));
        assertThat(u.elementType().get().width()).isEqualTo(20);
        assertThat(Types.cloneType(Vec(3, () -> SInt(4))).size()).isEqualTo(3);
    }

    /** Bundle elements flattened and rebuilt: fields keep their values and signs. */
    static final class PairLoop extends Module {
        final Decoupled<Pair> in = input(Decoupled.of(Pair::new));
        final Decoupled<Pair> out = output(Decoupled.of(Pair::new));
        final UInt packed = output(UInt(6));

        PairLoop() {
            packed.assign(Types.pack(in.bits));
            Types.unpack(out.bits, Types.pack(in.bits));
            out.valid.assign(in.valid);
            in.ready.assign(out.ready);
        }
    }

    @Test
    void packAndUnpackRoundTripBundles() {
        Simulator sim = Simulator.of(PairLoop::new);
        PairLoop t = (PairLoop) sim.circuit().top();
        sim.poke(t.in.bits.a, -3);
        sim.poke(t.in.bits.flag, 1);
        assertThat(sim.peek(t.packed)).isEqualTo(((-3 & 0x1F) << 1) | 1);
        assertThat(sim.peek(t.out.bits.a)).isEqualTo(-3);
        assertThat(sim.peek(t.out.bits.flag)).isEqualTo(1);
    }
}
