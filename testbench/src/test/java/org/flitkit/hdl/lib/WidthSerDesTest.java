package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
    void roundTripUnderRandomBackpressure(int wordWidth, int beatWidth) {
        Simulator sim = Simulator.of(() -> new Loopback(wordWidth, beatWidth));
        Loopback t = (Loopback) sim.circuit().top();
        sim.reset();
        Random rnd = new Random(wordWidth * 31L + beatWidth);
        Streams.Source src = new Streams.Source(sim, t.in, rnd, 0.7);
        Streams.Sink sink = new Streams.Sink(sim, t.out, rnd, 0.4);
        List<BigInteger> words = Streams.randomWords(rnd, 60, wordWidth);
        words.set(0, BigInteger.ONE.shiftLeft(wordWidth).subtract(BigInteger.ONE));
        words.set(1, BigInteger.ZERO);
        words.forEach(src::add);
        int beats = t.ser.beats;
        Streams.run(sim, 60L * beats * 10, () -> sink.received.size() == words.size(), src, sink);
        assertThat(sink.received).isEqualTo(words);
    }

    @Test
    void streamsAtFullBeatRateWithoutBackpressure() {
        Simulator sim = Simulator.of(() -> new Loopback(198, 20));
        Loopback t = (Loopback) sim.circuit().top();
        sim.reset();
        Random rnd = new Random(5);
        Streams.Source src = new Streams.Source(sim, t.in, rnd, 1.0);
        Streams.Sink sink = new Streams.Sink(sim, t.out, rnd, 1.0);
        List<BigInteger> words = Streams.randomWords(rnd, 20, 198);
        words.forEach(src::add);
        long cycles = Streams.run(sim, 1000, () -> sink.received.size() == 20, src, sink);
        assertThat(sink.received).isEqualTo(words);
        // 10 beats per word back to back, plus a few cycles of pipeline latency
        assertThat(cycles).isBetween(200L, 205L);
    }
}
