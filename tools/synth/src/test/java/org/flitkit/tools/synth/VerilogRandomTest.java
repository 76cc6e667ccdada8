package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random expression DAGs over every operation and widths from 1 to 200 bits: the emitted Verilog must
 * lint clean and compute, in Icarus (and Verilator for one seed), what an independent BigInteger
 * evaluator of the specified semantics computes on the same netlist.
 */
class VerilogRandomTest {
    static final int MAX_W = 200;

    /** Value pools, out of the naming's sight (the Namer names list fields of a module). */
    static final class Pools {
        final List<UInt> us = new ArrayList<>();
        final List<SInt> ss = new ArrayList<>();
    }

    static final class Rand extends Module {
        private final Pools pools = new Pools();
        /** with named = true the pools become fields: every intermediate value is a named wire */
        final List<UInt> namedU;
        final List<SInt> namedS;
        final Outs outs = new Outs();
        private final Random r;

        static final class Outs {
            final List<Bits> list = new ArrayList<>();
        }

        Rand(long seed) {
            namedU = seed % 2 == 1 ? pools.us : List.of();
            namedS = seed % 2 == 1 ? pools.ss : List.of();
            r = new Random(seed);
            int[] widths = {1, 1, 3, 8, 13, 31, 32, 33, 63, 64, 65, 100, 130};
            for (int i = 0; i < 9; i++) {
                pools.us.add(input(UInt(widths[r.nextInt(widths.length)])).named("u" + i));
                pools.ss.add(input(SInt(widths[r.nextInt(widths.length)])).named("s" + i));
            }
            Mem<UInt> rom = mem(5, UInt(12)).init(0x123, 0xfff, 0, 0x800, 0x7ff);
            pools.us.add(rom.read(u(4)));
            for (int i = 0; i < 90; i++) {
                step();
            }
            int n = 0;
            for (int i = pools.us.size() - 1; i >= pools.us.size() - 25 && i >= 0; i--) {
                UInt o = output(UInt(pools.us.get(i).width())).named("ou" + n++);
                o.assign(pools.us.get(i));
                outs.list.add(o);
            }
            for (int i = pools.ss.size() - 1; i >= pools.ss.size() - 25 && i >= 0; i--) {
                SInt o = output(SInt(pools.ss.get(i).width())).named("os" + n++);
                o.assign(pools.ss.get(i));
                outs.list.add(o);
            }
        }

        private UInt u(int maxW) {
            for (int k = 0; k < 50; k++) {
                UInt x = pools.us.get(pools.us.size() - 1 - r.nextInt(Math.min(pools.us.size(), 12 + r.nextInt(pools.us.size()))));
                if (x.width() <= maxW) {
                    return x;
                }
            }
            return pools.us.get(0).width() <= maxW ? pools.us.get(0) : lit(r.nextInt(2), 1);
        }

        private SInt s(int maxW) {
            for (int k = 0; k < 50; k++) {
                SInt x = pools.ss.get(pools.ss.size() - 1 - r.nextInt(Math.min(pools.ss.size(), 12 + r.nextInt(pools.ss.size()))));
                if (x.width() <= maxW) {
                    return x;
                }
            }
            return slit(-1, 2);
        }

        private Bool b() {
            return switch (r.nextInt(3)) {
                case 0 -> u(MAX_W).orR();
                case 1 -> u(MAX_W).bit(0);
                default -> s(MAX_W).lt(0);
            };
        }

        private void step() {
            int k = r.nextInt(34);
            UInt a = u(MAX_W);
            UInt b = u(MAX_W);
            SInt x = s(MAX_W);
            SInt y = s(MAX_W);
            switch (k) {
                case 0 -> pools.us.add(a.add(b));
                case 1 -> pools.us.add(u(MAX_W - 1).addW(u(MAX_W - 1)));
                case 2 -> pools.us.add(a.sub(b));
                case 3 -> pools.us.add(u(MAX_W / 2).mul(u(MAX_W / 2)));
                case 4 -> pools.us.add(a.div(b));
                case 5 -> pools.us.add(a.rem(b));
                case 6 -> pools.us.add(a.and(b).or(a.xor(b)).not());
                case 7 -> pools.us.add(u(MAX_W - 8).shl(r.nextInt(8)));
                case 8 -> pools.us.add(a.shr(r.nextInt(a.width() + 3)));
                case 9 -> pools.us.add(u(MAX_W - 15).shl(u(4)));
                case 10 -> pools.us.add(a.shlTrunc(b.width() > 9 ? b.bits(8, 0) : b));
                case 11 -> pools.us.add(a.shr(b.width() > 9 ? b.bits(8, 0) : b));
                case 12 -> pools.us.add(cat(a.eq(b), a.ne(b), a.lt(b), a.le(b), a.gt(b), a.ge(b)));
                case 13 -> pools.us.add(cat(a.andR(), a.orR(), a.xorR()));
                case 14 -> {
                    int lo = r.nextInt(a.width());
                    pools.us.add(a.bits(lo + r.nextInt(a.width() - lo), lo));
                }
                case 15 -> {
                    UInt c = u(MAX_W / 3);
                    pools.us.add(cat(c, u(MAX_W / 3), x.width() <= MAX_W / 3 ? x.asUInt() : c));
                }
                case 16 -> pools.us.add(mux(b(), a, b));
                case 17 -> {
                    UInt e0 = u(64);
                    int w = e0.width();
                    pools.us.add(vecOf(e0, u(w).pad(w), u(w).pad(w)).at(u(3)));
                }
                case 18 -> pools.us.add(a.pad(Math.min(MAX_W, a.width() + r.nextInt(20))));
                case 19 -> pools.us.add(x.asUInt().add(a.width() == x.width() ? a : x.asUInt()));
                case 20 -> pools.ss.add(x.add(y));
                case 21 -> pools.ss.add(s(MAX_W - 1).subW(s(MAX_W - 1)));
                case 22 -> pools.ss.add(s(MAX_W / 2).mul(s(MAX_W / 2)));
                case 23 -> pools.ss.add(s(MAX_W - 1).div(y));
                case 24 -> pools.ss.add(x.rem(y));
                case 25 -> pools.ss.add(s(MAX_W - 1).neg());
                case 26 -> pools.ss.add(x.shr(r.nextInt(x.width() + 3)));
                case 27 -> pools.ss.add(x.shr(b.width() > 9 ? b.bits(8, 0) : b));
                case 28 -> pools.ss.add(x.shlTrunc(u(3)));
                case 29 -> pools.us.add(cat(x.eq(y), x.ne(y), x.lt(y), x.le(y), x.gt(y), x.ge(y)));
                case 30 -> pools.ss.add(x.pad(Math.min(MAX_W, x.width() + r.nextInt(20))));
                case 31 -> pools.ss.add(mux(b(), x, y));
                case 32 -> {
                    pools.ss.add(a.asSInt());
                    pools.us.add(x.abs());
                }
                default -> pools.ss.add(x.and(y).xor(x.not()).or(slit(-3, 3)).sub(-5));
            }
        }
    }

    // ------------------------------------------------------------ reference evaluator of the specified semantics

    static final class Eval {
        final Map<Bits, BigInteger> memo = new IdentityHashMap<>();
        final Module top;

        Eval(Module top, Map<String, BigInteger> inputs) {
            this.top = top;
            for (Bits p : top.ports()) {
                if (p.kind() == Kind.INPUT) {
                    memo.put(p, inputs.get(p.name()));
                }
            }
        }

        static BigInteger mask(BigInteger v, int w) {
            return v.and(BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE));
        }

        static BigInteger sv(Bits n, BigInteger v) {
            return n.isSigned() && v.testBit(n.width() - 1) ? v.subtract(BigInteger.ONE.shiftLeft(n.width())) : v;
        }

        BigInteger val(Bits n) {
            BigInteger v = memo.get(n);
            if (v == null) {
                v = compute(n);
                memo.put(n, v);
            }
            return v;
        }

        /** Value as a number: two's complement for signed nodes. */
        BigInteger num(Bits n) {
            return sv(n, val(n));
        }

        private BigInteger compute(Bits n) {
            int w = n.width();
            if (n.kind() == Kind.LIT) {
                return n.litValue();
            }
            if (n.kind() != Kind.OP) {
                return val(top.drivers().get(n));
            }
            List<Bits> a = n.args();
            Bits a0 = a.get(0);
            Bits a1 = a.size() > 1 ? a.get(1) : null;
            BigInteger z = BigInteger.ZERO;
            return switch (n.op()) {
                case ADD -> mask(num(a0).add(num(a1)), w);
                case SUB -> mask(num(a0).subtract(num(a1)), w);
                case MUL -> mask(num(a0).multiply(num(a1)), w);
                case DIV -> num(a1).signum() == 0 ? z : mask(num(a0).divide(num(a1)), w);
                case REM -> num(a1).signum() == 0 ? z : mask(num(a0).remainder(num(a1)), w);
                case NEG -> mask(num(a0).negate(), w);
                case AND -> val(a0).and(val(a1));
                case OR -> val(a0).or(val(a1));
                case XOR -> val(a0).xor(val(a1));
                case NOT -> mask(val(a0).not(), w);
                case SHL -> mask(num(a0).shiftLeft(n.param0()), w);
                case SHR -> mask(num(a0).shiftRight(n.param0()), w);
                case DSHL -> val(a1).compareTo(BigInteger.valueOf(w)) >= 0 ? z : mask(num(a0).shiftLeft(val(a1).intValue()), w);
                case DSHR -> mask(num(a0).shiftRight(val(a1).min(BigInteger.valueOf(100000)).intValue()), w);
                case EQ -> bool(num(a0).compareTo(num(a1)) == 0);
                case NE -> bool(num(a0).compareTo(num(a1)) != 0);
                case LT -> bool(num(a0).compareTo(num(a1)) < 0);
                case LE -> bool(num(a0).compareTo(num(a1)) <= 0);
                case GT -> bool(num(a0).compareTo(num(a1)) > 0);
                case GE -> bool(num(a0).compareTo(num(a1)) >= 0);
                case ANDR -> bool(val(a0).bitCount() == a0.width());
                case ORR -> bool(val(a0).signum() != 0);
                case XORR -> bool(val(a0).bitCount() % 2 == 1);
                case SLICE -> mask(val(a0).shiftRight(n.param1()), n.param0() - n.param1() + 1);
                case CAT -> {
                    BigInteger acc = z;
                    for (Bits p : a) {
                        acc = acc.shiftLeft(p.width()).or(val(p));
                    }
                    yield acc;
                }
                case MUX -> val(a0).signum() != 0 ? val(a1) : val(a.get(2));
                case SEL -> val(a0).compareTo(BigInteger.valueOf(a.size() - 1)) < 0 ? val(a.get(val(a0).intValue() + 1)) : z;
                case EXT -> mask(num(a0), w);
                case AS_UINT, AS_SINT -> val(a0);
                case MEM_READ -> {
                    BigInteger[] init = n.mem().initContents();
                    int addr = val(a0).min(BigInteger.valueOf(n.mem().depth())).intValue();
                    yield addr < n.mem().depth() ? (init == null ? z : init[addr]) : z;
                }
            };
        }

        private static BigInteger bool(boolean b) {
            return b ? BigInteger.ONE : BigInteger.ZERO;
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomDesignsMatchTheSemantics(long seed) {
        check(seed, "icarus");
        if (seed == 1) {
            check(seed, "verilator");
        }
    }

    private void check(long seed, String simulator) {
        Circuit c = Circuit.elaborate(() -> new Rand(seed));
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(c, "random-" + seed + "-" + simulator);
        VerilogTestSupport.lint(e);
        Random r = new Random(seed * 1000);
        TbScript tb = new TbScript(e, c.top());
        List<Map<String, BigInteger>> want = new ArrayList<>();
        for (int k = 0; k < 25; k++) {
            Map<String, BigInteger> in = new HashMap<>();
            for (Bits p : c.top().ports()) {
                if (p.kind() == Kind.INPUT) {
                    BigInteger v = switch (r.nextInt(6)) {
                        case 0 -> BigInteger.ZERO;
                        case 1 -> BigInteger.ONE.shiftLeft(p.width()).subtract(BigInteger.ONE);
                        case 2 -> BigInteger.ONE.shiftLeft(p.width() - 1);
                        case 3 -> BigInteger.valueOf(r.nextInt(4));
                        default -> new BigInteger(p.width(), r);
                    };
                    v = Eval.mask(v, p.width());
                    in.put(p.name(), v);
                    tb.poke(p.name(), v);
                }
            }
            tb.sample();
            Eval ev = new Eval(c.top(), in);
            Map<String, BigInteger> o = new LinkedHashMap<>();
            for (Bits p : ((Rand) c.top()).outs.list) {
                o.put(p.name(), ev.val(p));
            }
            want.add(o);
        }
        List<Map<String, BigInteger>> got = tb.run(simulator);
        for (int k = 0; k < want.size(); k++) {
            Map<String, BigInteger> actual = new LinkedHashMap<>();
            for (String name : want.get(k).keySet()) {
                actual.put(name, got.get(k).get(name));
            }
            assertThat(actual).as("seed %d vector %d (%s)", seed, k, e.dir()).isEqualTo(want.get(k));
        }
    }
}
