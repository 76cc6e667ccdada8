package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** Every way of giving {@link Valid} and {@link Decoupled} their element type compiles without a cast. */
class StreamTypesTest {
    static final class Flit extends Bundle {
        final UInt vc = UInt(3);
        final UInt data = UInt(9);
    }

    static final class Sized extends Bundle {
        final UInt data;

        Sized(int w) {
            data = UInt(w);
        }
    }

    static final class Top extends Module {
        final Decoupled<Flit> byRef = input(Decoupled.of(Flit::new));
        final Decoupled<Flit> byLambda = input(Decoupled.of(() -> new Flit()));
        final Decoupled<UInt> ground = input(Decoupled.of(UInt(20)));
        final Decoupled<Flit> byInstance = input(Decoupled.ofType(new Flit()));
        final Valid<Flit> vRef = output(Valid.of(Flit::new));
        final Valid<Sized> vLambda = output(Valid.of(() -> new Sized(5)));
        final Valid<UInt> vGround = output(Valid.of(UInt(8)));
        final Valid<SInt> vSigned = output(Valid.of(SInt(4)));
        final Valid<Bool> vBool = output(Valid.of(Bool()));
        final Valid<Flit> vInstance = output(Valid.ofType(new Flit()));

        Top() {
            for (Decoupled<?> d : java.util.List.of(byRef, byLambda, ground, byInstance)) {
                d.nodeq();
            }
            vRef.valid.assign(byRef.valid);
            vRef.bits.assign(byRef.bits);
            vLambda.valid.assign(FALSE());
            vLambda.bits.data.assign(byRef.bits.vc);
            vGround.valid.assign(ground.valid);
            vGround.bits.assign(ground.bits.bits(7, 0));
            vSigned.valid.assign(FALSE());
            vSigned.bits.assign(slit(-3, 4));
            vBool.valid.assign(TRUE());
            vBool.bits.assign(byInstance.valid);
            vInstance.valid.assign(FALSE());
            vInstance.bits.assign(byLambda.bits);
        }
    }

    @Test
    void elementTypesFromReferencesLambdasAndInstances() {
        Simulator sim = Simulator.of(Top::new);
        Top t = (Top) sim.circuit().top();
        assertThat(t.byRef.bits.width()).isEqualTo(12);
        assertThat(t.byLambda.cloneType().bits.width()).isEqualTo(12);
        assertThat(t.ground.bits.width()).isEqualTo(20);
        assertThat(t.vLambda.cloneType().bits.data.width()).isEqualTo(5);
        assertThat(t.vInstance.cloneType().bits.width()).isEqualTo(12);
        sim.reset();
        sim.poke(t.byRef.valid, true);
        sim.poke(t.byRef.bits.vc, 5);
        sim.poke(t.byRef.bits.data, 300);
        sim.poke(t.ground.bits, 0x12345);
        assertThat(sim.peek(t.vRef.bits.data)).isEqualTo(300);
        assertThat(sim.peek(t.vLambda.bits.data)).isEqualTo(5);
        assertThat(sim.peek(t.vGround.bits)).isEqualTo(0x45);
        assertThat(sim.peek(t.vSigned.bits)).isEqualTo(-3);
    }
}
