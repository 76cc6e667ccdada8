package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.Random;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/**
 * Memories stored at their word width ({@link Memories}): random writes and reads of every storage class
 * against a Java model, the arrays each width gets, copy-on-write sharing between instances and forks,
 * and the state bytes they report.
 */
class MemoriesTest {
    static final int[] WIDTHS = {1, 7, 8, 9, 16, 17, 32, 33, 64, 65, 200};

    /** Two memories of one word type: depth 37 (addresses 37..63 are out of range) and depth 32 (all in range). */
    static final class TwoMems extends Module {
        final Bool we = input(Bool());
        final UInt waddr = input(UInt(6));
        final UInt raddr = input(UInt(6));
        final UInt waddr2 = input(UInt(5));
        final UInt raddr2 = input(UInt(5));
        final Bits wdata;
        final Bits comb;
        final Bits sync;
        final Bits comb2;
        final Bits sync2;
        final Mem<Bits> odd;
        final Mem<Bits> pow;

        TwoMems(Supplier<Bits> type, BigInteger[] image) {
            wdata = input(type.get());
            comb = output(type.get());
            sync = output(type.get());
            comb2 = output(type.get());
            sync2 = output(type.get());
            odd = mem(37, type.get()).init(image);
            pow = mem(32, type.get());
            when(we, () -> {
                odd.write(waddr, wdata);
                pow.write(waddr2, wdata);
            });
            comb.assign(odd.read(raddr));
            sync.assign(odd.readSync(raddr));
            comb2.assign(pow.read(raddr2));
            sync2.assign(pow.readSync(raddr2));
        }
    }

    /** A random value of the word type, as the signed or unsigned number a poke takes and a peek gives. */
    static BigInteger random(Random r, int width, boolean signed) {
        BigInteger u = new BigInteger(width, r);
        return signed && u.testBit(width - 1) ? u.subtract(BigInteger.ONE.shiftLeft(width)) : u;
    }

    @Test
    void everyWidthReadsBackWhatWasWritten() {
        Random r = new Random(20261128);
        for (int width : WIDTHS) {
            for (boolean signed : new boolean[] {false, true}) {
                Supplier<Bits> type = () -> signed ? SInt(width) : UInt(width);
                BigInteger[] odd = new BigInteger[37];
                BigInteger[] pow = new BigInteger[32];
                BigInteger[] image = new BigInteger[5];
                for (int a = 0; a < odd.length; a++) {
                    odd[a] = a < image.length ? random(r, width, signed) : BigInteger.ZERO;
                }
                System.arraycopy(odd, 0, image, 0, image.length);
                java.util.Arrays.fill(pow, BigInteger.ZERO);
                Simulator sim = Simulator.of(Circuit.elaborate(() -> new TwoMems(type, image)));
                TwoMems t = (TwoMems) sim.circuit().top();
                String what = (signed ? "SInt(" : "UInt(") + width + ")";
                for (int cycle = 0; cycle < 400; cycle++) {
                    boolean we = r.nextInt(3) != 0;
                    int wa = r.nextInt(64);
                    int ra = cycle < 5 ? cycle : r.nextInt(64);
                    int wa2 = r.nextInt(32);
                    int ra2 = r.nextInt(32);
                    BigInteger data = random(r, width, signed);
                    sim.poke(t.we, we);
                    sim.poke(t.waddr, wa);
                    sim.poke(t.raddr, ra);
                    sim.poke(t.waddr2, wa2);
                    sim.poke(t.raddr2, ra2);
                    sim.poke(t.wdata, data);
                    BigInteger expect = ra < 37 ? odd[ra] : BigInteger.ZERO;
                    assertThat(sim.peekBig(t.comb)).as("%s cycle %d read of %d", what, cycle, ra).isEqualTo(expect);
                    assertThat(sim.peekBig(t.comb2)).as("%s cycle %d read of %d", what, cycle, ra2).isEqualTo(pow[ra2]);
                    BigInteger expect2 = pow[ra2];
                    if (we) {
                        if (wa < 37) {
                            odd[wa] = data;
                        }
                        pow[wa2] = data;
                    }
                    sim.step();
                    // the registered read took the word before this edge's write
                    assertThat(sim.peekBig(t.sync)).as("%s cycle %d sync read of %d", what, cycle, ra).isEqualTo(expect);
                    assertThat(sim.peekBig(t.sync2)).as("%s cycle %d sync read of %d", what, cycle, ra2).isEqualTo(expect2);
                }
                // several cycles at once run the fast variant: a repeated write then a read of it
                sim.poke(t.we, true);
                sim.poke(t.waddr, 36);
                sim.poke(t.raddr, 36);
                BigInteger last = random(r, width, signed);
                sim.poke(t.wdata, last);
                sim.step(5);
                assertThat(sim.peekBig(t.comb)).as(what).isEqualTo(last);
                assertThat(sim.peekBig(t.sync)).as(what).isEqualTo(last);
            }
        }
    }

    @Test
    void eachWidthGetsTheArrayOfItsWordSize() {
        for (int width : WIDTHS) {
            Simulator sim = Simulator.of(Circuit.elaborate(() -> new TwoMems(() -> UInt(width), new BigInteger[0])));
            Object array = sim.memories().array(0);
            Class<?> expected = width <= 8 ? byte[].class : width <= 16 ? short[].class : width <= 32 ? int[].class : long[].class;
            assertThat(array).as("width %d", width).isInstanceOf(expected);
            int length = java.lang.reflect.Array.getLength(array);
            assertThat(length).as("width %d", width).isEqualTo(width > 64 ? 37 * Wide.limbs(width) : 37);
        }
    }

    /** One 16 x 8 memory with an initial image, written through one port and read combinationally. */
    static final class Ram extends Module {
        final Bool we = input(Bool());
        final UInt addr = input(UInt(4));
        final UInt wdata = input(UInt(8));
        final UInt rdata = output(UInt(8));
        final Mem<UInt> ram = mem(16, UInt(8)).init(0x10, 0x11, 0x12, 0x13);

        Ram() {
            when(we, () -> ram.write(addr, wdata));
            rdata.assign(ram.read(addr));
        }
    }

    private static void write(Simulator sim, int addr, int data) {
        Ram t = (Ram) sim.circuit().top();
        sim.poke(t.we, true);
        sim.poke(t.addr, addr);
        sim.poke(t.wdata, data);
        sim.step();
        sim.poke(t.we, false);
    }

    private static long read(Simulator sim, int addr) {
        Ram t = (Ram) sim.circuit().top();
        sim.poke(t.addr, addr);
        return sim.peek(t.rdata);
    }

    @Test
    void forksShareMemoriesUntilTheirFirstWrite() {
        Simulator parent = Simulator.of(Ram::new);
        Simulator fresh = parent.newInstance();
        Object image = parent.memories().array(0);
        assertThat(fresh.memories().array(0)).as("instances of one design share the initial image").isSameAs(image);
        write(parent, 5, 0x55);
        assertThat(parent.memories().array(0)).isNotSameAs(image);
        assertThat(parent.memories().copies()).isEqualTo(1);
        assertThat(read(fresh, 5)).isEqualTo(0);

        Simulator a = parent.fork();
        Simulator b = parent.fork();
        Simulator c = parent.fork();
        Object shared = parent.memories().array(0);
        assertThat(a.memories().array(0)).isSameAs(shared);
        assertThat(b.memories().array(0)).isSameAs(shared);
        for (int i = 0; i < 10; i++) {
            write(a, 3, 0xA0 + i);
            write(b, 3, 0xB0 + i);
        }
        write(b, 15, 0xBF);
        assertThat(a.memories().copies()).as("a copied the shared array once").isEqualTo(1);
        assertThat(b.memories().copies()).as("b copied the shared array once").isEqualTo(1);
        assertThat(a.memories().array(0)).isNotSameAs(shared).isNotSameAs(b.memories().array(0));
        assertThat(parent.memories().array(0)).isSameAs(shared);
        assertThat(read(a, 3)).isEqualTo(0xA9);
        assertThat(read(b, 3)).isEqualTo(0xB9);
        assertThat(read(parent, 3)).isEqualTo(0x13);
        assertThat(read(a, 15)).isEqualTo(0);
        assertThat(read(b, 15)).isEqualTo(0xBF);
        assertThat(read(a, 5)).isEqualTo(0x55);
        assertThat(read(b, 5)).isEqualTo(0x55);

        // the parent lost sole ownership when it forked: its next write copies too, and no fork sees it
        write(parent, 3, 0x77);
        assertThat(read(parent, 3)).isEqualTo(0x77);
        assertThat(read(a, 3)).isEqualTo(0xA9);
        assertThat(read(b, 3)).isEqualTo(0xB9);
        assertThat(read(c, 3)).as("a fork that never wrote still reads the state it was forked in").isEqualTo(0x13);
        assertThat(read(c, 5)).isEqualTo(0x55);
        assertThat(c.memories().copies()).isEqualTo(0);
        assertThat(parent.memories().copies()).isEqualTo(2);
        assertThat(read(fresh, 3)).isEqualTo(0x13);
        assertThat(fresh.memories().copies()).isEqualTo(0);
    }

    @Test
    void aWriteOutOfRangeCopiesNothing() {
        Simulator sim = Simulator.of(Circuit.elaborate(() -> new TwoMems(() -> UInt(8), new BigInteger[0])));
        TwoMems t = (TwoMems) sim.circuit().top();
        Object image = sim.memories().array(0);
        sim.poke(t.we, true);
        sim.poke(t.waddr, 40);
        sim.step();
        assertThat(sim.memories().array(0)).isSameAs(image);
        assertThat(sim.memories().array(1)).isNotSameAs(image);
        assertThat(sim.memories().copies()).as("only the depth-32 memory took the write").isEqualTo(1);
    }

    /** Memories of 65,536 x 8, 1,000 x 9, 100 x 17, 10 x 33 and 10 x 65 bits, all written through one address. */
    static final class Sizes extends Module {
        final Bool we = input(Bool());
        final UInt addr = input(UInt(16));
        final UInt out = output(UInt(8));
        final Mem<UInt> e2prom = mem(65536, UInt(8)).init(0xFF, 0xFF);
        final Mem<UInt> m9 = mem(1000, UInt(9));
        final Mem<UInt> m17 = mem(100, UInt(17));
        final Mem<UInt> m33 = mem(10, UInt(33));
        final Mem<UInt> m65 = mem(10, UInt(65));

        Sizes() {
            when(we, () -> {
                e2prom.write(addr, addr.bits(7, 0));
                m9.write(addr, addr.bits(8, 0));
                m17.write(addr, addr);
                m33.write(addr, addr);
                m65.write(addr, addr);
            });
            out.assign(e2prom.read(addr).xor(m9.read(addr).bits(7, 0)).xor(m17.read(addr).bits(7, 0)).xor(m33.read(addr).bits(7, 0))
                    .xor(m65.read(addr).bits(7, 0)));
        }
    }

    @Test
    void stateBytesCountMemoriesAtTheirWordWidthOnceOwned() {
        Simulator sim = Simulator.of(Sizes::new);
        Sizes t = (Sizes) sim.circuit().top();
        long arrays = sim.stateBytes();
        // 65,536 bytes + 1,000 shorts + 100 ints + 10 longs + 10 x 2 limbs
        long memories = 65_536 + 2_000 + 400 + 80 + 160;
        assertThat(sim.sharedStateBytes()).isEqualTo(memories);
        Simulator fork = sim.fork();
        assertThat(fork.stateBytes()).isEqualTo(arrays);
        assertThat(fork.sharedStateBytes()).isEqualTo(memories);
        sim.poke(t.addr, 7);
        sim.poke(t.we, true);
        sim.step();
        assertThat(sim.stateBytes()).isEqualTo(arrays + memories);
        assertThat(sim.sharedStateBytes()).isEqualTo(0);
        assertThat(fork.stateBytes()).isEqualTo(arrays);
        assertThat(fork.sharedStateBytes()).isEqualTo(memories);
        sim.poke(t.we, false);
        assertThat(sim.peek(t.out)).isEqualTo(7 ^ 7 ^ 7 ^ 7 ^ 7);
        fork.poke(t.addr, 1);
        assertThat(fork.peek(t.out)).isEqualTo(0xFF);
    }
}
