package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(TestbenchExtension.class)
class WidthSerDesTest {
    /** word -> serializer -> beat FIFO -> deserializer -> word, as in the flit loopback demo. */
    static final class Loopback extends Module {
        final Decoupled<UInt> in;
        final Decoupled<UInt> out;
        final WidthSerializer ser;
        final Queue<UInt> fifo;
        final WidthDeserializer des;

        Loopback(int wordWidth, int beatWidth) {
            in = input(Decoupled.of(UInt(wordWidth)));
            out = output(Decoupled.of(UInt(wordWidth)));
            ser = instance(new WidthSerializer(wordWidth, beatWidth));
            fifo = instance(new Queue<>(() -> UInt(beatWidth), 4));
            des = instance(new WidthDeserializer(wordWidth, beatWidth));
            ser.in.connect(in);
            fifo.enq.connect(ser.out);
            des.in.connect(fifo.deq);
            out.connect(des.out);
        }
    }

    @Test
    void flitSplitsIntoTenBeatsLeastSignificantFirst() {
        Simulator sim = Simulator.of(() -> new WidthSerializer(198, 20));
        WidthSerializer s = (WidthSerializer) sim.circuit().top();
        assertThat(s.beats).isEqualTo(10);
        sim.reset();
        // beat i carries 0xB000i in its 20 bits; the tenth only has 18 bits of word
        BigInteger word = BigInteger.ZERO;
        for (int i = 9; i >= 0; i--) {
            word = word.shiftLeft(20).or(BigInteger.valueOf(i == 9 ? 0x3000 + i : 0xB0000 + i));
        }
        assertThat(word.bitLength()).isLessThanOrEqualTo(198);
        sim.poke(s.in.valid, 1);
        sim.poke(s.in.bits, word);
        sim.poke(s.out.ready, 1);
        assertThat(sim.peekBool(s.out.valid)).as("one cycle of latency").isFalse();
        assertThat(sim.peekBool(s.in.ready)).isTrue();
        sim.step();
        sim.poke(s.in.valid, 0);
        for (int i = 0; i < 10; i++) {
            assertThat(sim.peekBool(s.out.valid)).isTrue();
            assertThat(sim.peek(s.out.bits)).as("beat %d", i).isEqualTo(i == 9 ? 0x3000 + i : 0xB0000 + i);
            assertThat(sim.peekBool(s.last)).isEqualTo(i == 9);
            assertThat(sim.peekBool(s.in.ready)).as("next word only with the last beat").isEqualTo(i == 9);
            if (i == 4) {
                // a stall holds the beat
                sim.poke(s.out.ready, 0);
                sim.step(3);
                assertThat(sim.peek(s.out.bits)).isEqualTo(0xB0004);
                assertThat(sim.peekBool(s.in.ready)).isFalse();
                sim.poke(s.out.ready, 1);
            }
            sim.step();
        }
        assertThat(sim.peekBool(s.out.valid)).isFalse();
    }

    @Test
    void deserializerAssemblesBeatsAndDropsPadding() {
        Simulator sim = Simulator.of(() -> new WidthDeserializer(198, 20));
        WidthDeserializer d = (WidthDeserializer) sim.circuit().top();
        sim.reset();
        sim.poke(d.out.ready, 0);
        BigInteger expect = BigInteger.ZERO;
        for (int i = 0; i < 10; i++) {
            long beat = 0xFFFFF - i;
            expect = expect.or(BigInteger.valueOf(beat).shiftLeft(20 * i));
            assertThat(sim.peekBool(d.out.valid)).isFalse();
            assertThat(sim.peekBool(d.in.ready)).isTrue();
            sim.poke(d.in.valid, 1);
            sim.poke(d.in.bits, beat);
            sim.step();
        }
        expect = expect.and(BigInteger.ONE.shiftLeft(198).subtract(BigInteger.ONE));
        assertThat(sim.peekBool(d.out.valid)).isTrue();
        assertThat(sim.peekBig(d.out.bits)).isEqualTo(expect);
        assertThat(sim.peekBool(d.in.ready)).as("full and not taken").isFalse();
        sim.step(2);
        assertThat(sim.peekBig(d.out.bits)).isEqualTo(expect);
        sim.poke(d.out.ready, 1);
        assertThat(sim.peekBool(d.in.ready)).as("accepts while the word leaves").isTrue();
    }

    @ParameterizedTest(name = "word={0} beat={1}")
    @CsvSource({"198, 20", "16, 4", "7, 8", "64, 64", "65, 32", "130, 1"})
    void roundTripUnderRandomBackpressure(int wordWidth, int beatWidth, RunConfig cfg) {
        try (Testbench<Loopback> tb = Testbench.create(() -> new Loopback(wordWidth, beatWidth), cfg)) {
            // all ones and all zeros first, then random words
            List<BigInteger> words = new ArrayList<>(List.of(BigInteger.ONE.shiftLeft(wordWidth).subtract(BigInteger.ONE), BigInteger.ZERO));
            Rng data = tb.rng("data");
            while (words.size() < 60) {
                words.add(data.bits(wordWidth));
            }
            new StreamCheck(tb, tb.dut().in, tb.dut().out, Throttle.random(0.7), Throttle.random(0.4))
                    .run(tb, words, 60L * tb.dut().ser.beats * 10);
        }
    }

    @Test
    void streamsAtFullBeatRateWithoutBackpressure(RunConfig cfg) {
        try (Testbench<Loopback> tb = Testbench.create(() -> new Loopback(198, 20), cfg)) {
            Rng data = tb.rng("data");
            List<BigInteger> words = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                words.add(data.bits(198));
            }
            long cycles = new StreamCheck(tb, tb.dut().in, tb.dut().out, Throttle.NONE, Throttle.NONE).run(tb, words, 1_000);
            // 10 beats per word back to back (200 cycles), plus the serializer's cycle of latency, the
            // FIFO's cycle and the deserializer's cycle; the last word is taken in the cycle it is offered
            assertThat(cycles).isEqualTo(203);
        }
    }
}
