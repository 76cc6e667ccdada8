package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatorBasicsTest {
    static final class Counter extends Module {
        final Bool en = input(Bool());
        final UInt count = output(UInt(8));
        final UInt value = regInit(UInt(8), 0);

        Counter() {
            when(en, () -> value.assign(value.add(1)));
            count.assign(value);
        }
    }

    @Test
    void counterCountsWhenEnabled() {
        Simulator sim = Simulator.of(Counter::new);
        Counter c = (Counter) sim.circuit().top();
        sim.reset();
        sim.poke(c.en, 1);
        sim.step(5);
        assertThat(sim.peek(c.count)).isEqualTo(5);
        sim.poke(c.en, 0);
        sim.step(3);
        assertThat(sim.peek("counter.value")).isEqualTo(5);
        sim.poke(c.en, 1);
        sim.step(256);
        assertThat(sim.peek(c.count)).isEqualTo(5);
        sim.reset();
        assertThat(sim.peek(c.count)).isZero();
        assertThat(sim.cycle()).isEqualTo(1 + 5 + 3 + 256 + 1);
    }

    static final class WideOps extends Module {
        final UInt a = input(UInt(198));
        final UInt b = input(UInt(198));
        final SInt s = input(SInt(70));
        final UInt sum = output(UInt(199));
        final UInt prod = output(UInt(396));
        final Bool lt = output(Bool());
        final UInt mid = output(UInt(20));
        final SInt sr = output(SInt(70));
        final UInt acc = regInit(UInt(198), 0);

        WideOps() {
            sum.assign(a.addW(b));
            prod.assign(a.mul(b));
            lt.assign(a.lt(b));
            mid.assign(a.bits(119, 100));
            sr.assign(s.shr(lit(3, 7)));
            acc.assign(acc.xor(a));
        }
    }

    @Test
    void wideArithmeticMatchesBigInteger() {
        Simulator sim = Simulator.of(WideOps::new);
        WideOps t = (WideOps) sim.circuit().top();
        BigInteger a = BigInteger.ONE.shiftLeft(197).add(BigInteger.valueOf(12345));
        BigInteger b = BigInteger.ONE.shiftLeft(150).subtract(BigInteger.ONE);
        sim.poke(t.a, a);
        sim.poke(t.b, b);
        sim.poke(t.s, BigInteger.valueOf(-1000));
        assertThat(sim.peekBig(t.sum)).isEqualTo(a.add(b));
        assertThat(sim.peekBig(t.prod)).isEqualTo(a.multiply(b));
        assertThat(sim.peek(t.lt)).isZero();
        assertThat(sim.peek(t.mid)).isEqualTo(a.shiftRight(100).intValue() & 0xFFFFF);
        assertThat(sim.peekBig(t.sr)).isEqualTo(BigInteger.valueOf(-125));
        sim.reset();
        sim.step(3);
        assertThat(sim.peekBig(t.acc)).isEqualTo(a);
    }

    /** Limb pokes and peeks move wide values without BigInteger, and check the width like the other pokes. */
    @Test
    void wideValuesMoveAsLimbs() {
        Simulator sim = Simulator.of(WideOps::new);
        WideOps t = (WideOps) sim.circuit().top();
        long[] a = {0x1111_2222_3333_4444L, 0x5555_6666_7777_8888L, 0x0F0F_0F0F_0F0F_0F0FL, 0x3FL};
        sim.poke(t.a, a);
        sim.poke(t.b, new long[] {1, 0, 0, 0});
        assertThat(sim.peekBig(t.a)).isEqualTo(new BigInteger("3F0F0F0F0F0F0F0F0F55556666777788881111222233334444", 16));
        assertThat(sim.peekInto(t.sum, new long[4])).containsExactly(0x1111_2222_3333_4445L, 0x5555_6666_7777_8888L,
                0x0F0F_0F0F_0F0F_0F0FL, 0x3FL);
        assertThat(sim.peekInto(t.mid, new long[1])[0]).isEqualTo(0x55666L);
        assertThatThrownBy(() -> sim.poke(t.a, new long[] {0, 0, 0, 0x40L}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit 198-bit input");
        assertThatThrownBy(() -> sim.poke(t.a, new long[] {0, 0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 4 limbs, got 2");
    }

    static final class MemTop extends Module {
        final UInt waddr = input(UInt(4));
        final UInt wdata = input(UInt(16));
        final Bool we = input(Bool());
        final UInt raddr = input(UInt(4));
        final UInt comb = output(UInt(16));
        final UInt sync = output(UInt(16));
        final Mem<UInt> ram = mem(16, UInt(16)).init(7, 8, 9);

        MemTop() {
            when(we, () -> ram.write(waddr, wdata));
            comb.assign(ram.read(raddr));
            sync.assign(ram.readSync(raddr));
        }
    }

    @Test
    void memoryReadsBeforeWrites(@TempDir Path dir) throws Exception {
        Simulator sim = Simulator.of(MemTop::new);
        MemTop t = (MemTop) sim.circuit().top();
        Path vcd = dir.resolve("mem.vcd");
        sim.startVcd(vcd);
        sim.poke(t.raddr, 1);
        assertThat(sim.peek(t.comb)).isEqualTo(8);
        sim.poke(t.we, 1);
        sim.poke(t.waddr, 1);
        sim.poke(t.wdata, 0xBEEF);
        sim.step();
        assertThat(sim.peek(t.sync)).isEqualTo(8);
        assertThat(sim.peek(t.comb)).isEqualTo(0xBEEF);
        sim.poke(t.we, 0);
        sim.step();
        assertThat(sim.peek(t.sync)).isEqualTo(0xBEEF);
        sim.stopVcd();
        VcdReader r = VcdReader.read(vcd);
        assertThat(r.signals()).containsKeys("memTop.clk", "memTop.comb", "memTop.wdata");
        assertThat(r.signal("memTop.sync").valueAt(20_000).intValue()).isEqualTo(0xBEEF);
        assertThat(Files.size(vcd)).isPositive();
    }

    @Test
    void runUntilFailsClearlyInsteadOfHanging() {
        Simulator sim = Simulator.of(Counter::new);
        Counter c = (Counter) sim.circuit().top();
        sim.reset();
        assertThatThrownBy(() -> sim.runUntil(() -> sim.peek(c.count) == 3, 100))
                .isInstanceOf(SimTimeoutException.class).hasMessageContaining("within 100 cycles");
        sim.poke(c.en, 1);
        assertThat(sim.runUntil(() -> sim.peek(c.count) == 3, 100)).isEqualTo(3);
    }

    @Test
    void pokeChecksTargetAndRange() {
        Simulator sim = Simulator.of(Counter::new);
        Counter c = (Counter) sim.circuit().top();
        assertThatThrownBy(() -> sim.poke(c.count, 1)).hasMessageContaining("not an input");
        assertThatThrownBy(() -> sim.poke(c.en, 2)).hasMessageContaining("does not fit");
        assertThatThrownBy(() -> sim.peek("counter.nope")).hasMessageContaining("no signal 'counter.nope'");
    }

    @Test
    void anUnknownVariantsPropertyIsRefusedByName() {
        String before = System.getProperty(Simulator.VARIANTS_PROPERTY);
        System.setProperty(Simulator.VARIANTS_PROPERTY, "lazy");
        try {
            assertThatThrownBy(() -> Simulator.of(Counter::new)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("system property flitkit.sim.variants must be 'background' or 'eager', not 'lazy'");
        } finally {
            if (before == null) {
                System.clearProperty(Simulator.VARIANTS_PROPERTY);
            } else {
                System.setProperty(Simulator.VARIANTS_PROPERTY, before);
            }
        }
    }
}
