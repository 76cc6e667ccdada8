package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * The stream operators of {@link Decoupled}, simulated cycle by cycle: a source offers 1, 2, 3, ... under a
 * valid pattern (the next value after each accepted one) and a sink is ready under a ready pattern; the
 * traces record, per cycle, the source's ready and the element the sink took ({@code .} for none).
 */
class StreamOpsTest {
    /** One input stream through {@code op} to one output stream. */
    static final class Pipe extends Module {
        final Decoupled<UInt> in = input(Decoupled.of(UInt(8)));
        final Decoupled<UInt> out = output(Decoupled.of(UInt(8)));

        Pipe(Function<Decoupled<UInt>, Decoupled<UInt>> op) {
            out.connect(op.apply(in));
        }
    }

    /** Per cycle: in.ready as 0/1, and what the sink took ("." for nothing), e.g. "1:1 1:2 0:. ". */
    static String trace(Function<Decoupled<UInt>, Decoupled<UInt>> op, String valid, String ready) {
        Simulator sim = Simulator.of(() -> new Pipe(op));
        Pipe p = (Pipe) sim.circuit().top();
        sim.reset();
        StringBuilder sb = new StringBuilder();
        long next = 1;
        for (int c = 0; c < valid.length(); c++) {
            sim.poke(p.in.valid, valid.charAt(c) == '1');
            sim.poke(p.in.bits, next);
            sim.poke(p.out.ready, ready.charAt(c) == '1');
            boolean inFire = sim.peekBool(p.in.valid) && sim.peekBool(p.in.ready);
            boolean outFire = sim.peekBool(p.out.valid) && sim.peekBool(p.out.ready);
            sb.append(sim.peekBool(p.in.ready) ? '1' : '0').append(':')
                    .append(outFire ? Long.toString(sim.peek(p.out.bits)) : ".").append(' ');
            if (inFire) {
                next++;
            }
            sim.step();
        }
        return sb.toString().trim();
    }

    @Test
    void m2sPipeAddsOneCycleAtFullThroughput() {
        assertThat(trace(Decoupled::m2sPipe, "11111111", "11111111")).isEqualTo("1:. 1:1 1:2 1:3 1:4 1:5 1:6 1:7");
        // a stall holds the register; the source sees it as not ready only while the stage is full and stalled
        assertThat(trace(Decoupled::m2sPipe, "11111111", "11001111")).isEqualTo("1:. 1:1 0:. 0:. 1:2 1:3 1:4 1:5");
    }

    @Test
    void s2mPipeRegistersReadyAndParksOneElement() {
        assertThat(trace(Decoupled::s2mPipe, "11111111", "11111111")).isEqualTo("1:1 1:2 1:3 1:4 1:5 1:6 1:7 1:8");
        // element 2 arrives while the sink stalls: parked, the source sees ready low until it leaves
        assertThat(trace(Decoupled::s2mPipe, "11111111", "10011111")).isEqualTo("1:1 1:. 0:. 0:2 1:3 1:4 1:5 1:6");
    }

    @Test
    void halfPipeMovesOneElementEveryTwoCycles() {
        assertThat(trace(Decoupled::halfPipe, "11111111", "11111111")).isEqualTo("1:. 0:1 1:. 0:2 1:. 0:3 1:. 0:4");
    }

    @Test
    void queueOperatorIsAQueueBehindTheStream() {
        // depth 2, sink stalled for 4 cycles: two elements stored, then the source waits
        assertThat(trace(s -> s.queue(2), "11111111", "00001111")).isEqualTo("1:. 1:. 0:. 0:. 0:1 1:2 1:3 1:4");
        assertThat(trace(s -> s.queue(Queue.depth(1).flow()), "1111", "1111")).isEqualTo("1:1 1:2 1:3 1:4");
    }

    @Test
    void mapKeepsTheHandshakeAndChangesTheBits() {
        assertThat(trace(s -> s.map(x -> x.add(100)), "1101", "1110")).isEqualTo("1:101 1:102 1:. 0:.");
    }

    @Test
    void filterAndThrowWhenDropWithReadyHigh() {
        // even values arrive while the sink stalls and are dropped: ready stays high for them
        assertThat(trace(s -> s.filter(x -> x.bit(0)), "111111", "101010")).isEqualTo("1:1 1:. 1:3 1:. 1:5 1:.");
        assertThat(trace(s -> s.filter(x -> x.bit(0)), "1111", "0011")).isEqualTo("0:. 0:. 1:1 1:.");
        assertThat(trace(s -> s.throwWhen(s.bits.eq(2)), "1111", "1111")).isEqualTo("1:1 1:. 1:3 1:4");
    }

    @Test
    void haltWhenHoldsTheElement() {
        assertThat(trace(s -> s.haltWhen(s.bits.eq(2)), "1111", "1111")).isEqualTo("1:1 0:. 0:. 0:.");
        assertThat(trace(s -> s.continueWhen(s.bits.ne(2)), "1111", "1111")).isEqualTo("1:1 0:. 0:. 0:.");
    }

    /** A fork into two outputs with their own ready. */
    static final class Fork extends Module {
        final Decoupled<UInt> in = input(Decoupled.of(UInt(8)));
        final Decoupled<UInt> a = output(Decoupled.of(UInt(8)));
        final Decoupled<UInt> b = output(Decoupled.of(UInt(8)));

        Fork() {
            List<Decoupled<UInt>> outs = in.fork(2);
            a.connect(outs.get(0));
            b.connect(outs.get(1));
        }
    }

    @Test
    void eagerForkDeliversEachElementOnceToEveryOutput() {
        Simulator sim = Simulator.of(Fork::new);
        Fork f = (Fork) sim.circuit().top();
        sim.reset();
        String aReady = "10110011";
        String bReady = "01011101";
        List<String> cycles = new ArrayList<>();
        long next = 1;
        for (int c = 0; c < aReady.length(); c++) {
            sim.poke(f.in.valid, true);
            sim.poke(f.in.bits, next);
            sim.poke(f.a.ready, aReady.charAt(c) == '1');
            sim.poke(f.b.ready, bReady.charAt(c) == '1');
            String a = sim.peekBool(f.a.valid) && sim.peekBool(f.a.ready) ? "" + sim.peek(f.a.bits) : ".";
            String b = sim.peekBool(f.b.valid) && sim.peekBool(f.b.ready) ? "" + sim.peek(f.b.bits) : ".";
            boolean fire = sim.peekBool(f.in.ready);
            cycles.add(a + b + (fire ? "!" : ""));
            next += fire ? 1 : 0;
            sim.step();
        }
        // "xy!": a took x, b took y, the source's element was consumed
        assertThat(String.join(" ", cycles)).isEqualTo("1. .1! 2. .2! .3 .. 3.! 44!");
    }

    /** Two inputs joined and summed. */
    static final class Join extends Module {
        final Decoupled<UInt> x = input(Decoupled.of(UInt(8)));
        final Decoupled<UInt> y = input(Decoupled.of(UInt(4)));
        final Decoupled<UInt> packed = output(Decoupled.of(UInt(12)));

        Join() {
            packed.connect(Decoupled.join(x, y));
        }
    }

    @Test
    void joinFiresAllInputsTogether() {
        Simulator sim = Simulator.of(Join::new);
        Join j = (Join) sim.circuit().top();
        sim.reset();
        sim.poke(j.x.bits, 0xAB);
        sim.poke(j.y.bits, 0xC);
        sim.poke(j.packed.ready, true);
        sim.poke(j.x.valid, true);
        sim.poke(j.y.valid, false);
        assertThat(sim.peekBool(j.packed.valid)).isFalse();
        assertThat(sim.peekBool(j.x.ready)).isFalse();
        sim.poke(j.y.valid, true);
        assertThat(sim.peekBool(j.packed.valid)).isTrue();
        assertThat(sim.peekBool(j.x.ready)).isTrue();
        assertThat(sim.peekBool(j.y.ready)).isTrue();
        assertThat(sim.peek(j.packed.bits)).isEqualTo(0xABC);
        sim.poke(j.packed.ready, false);
        assertThat(sim.peekBool(j.x.ready)).isFalse();
        assertThat(sim.peekBool(j.y.ready)).isFalse();
    }

    @Test
    void forkOfNoOutputsIsAnError() {
        assertThatThrownBy(() -> Simulator.of(() -> new Pipe(s -> s.fork(0).get(0))))
                .isInstanceOf(HdlException.class)
                .hasMessageContaining("fork(0): a stream forks into at least 1 output");
    }
}
