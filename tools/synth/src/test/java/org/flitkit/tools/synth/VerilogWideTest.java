package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Signals of 65 to 301 bits: arithmetic, compares, dynamic shifts, a wide register and memory. */
class VerilogWideTest {
    static final class Wide extends Module {
        final UInt a = input(UInt(300));
        final UInt b = input(UInt(300));
        final SInt sa = input(SInt(65));
        final SInt sb = input(SInt(65));
        final UInt amt = input(UInt(9));
        final UInt idx = input(UInt(2));
        final Bool load = input(Bool());

        final UInt sum = output(UInt(300));
        final UInt sumW = output(UInt(301));
        final UInt diff = output(UInt(300));
        final UInt mix = output(UInt(300));
        final UInt cmp = output(UInt(2));
        final UInt red = output(UInt(3));
        final UInt hiLo = output(UInt(150));
        final UInt dshr = output(UInt(300));
        final UInt dshl = output(UInt(300));
        final SInt sdshr = output(SInt(65));
        final SInt smul;
        final SInt sdiv;
        final SInt srem;
        final Bool slt = output(Bool());
        final SInt sneg = output(SInt(66));
        final UInt vsel = output(UInt(100));
        final UInt umul;
        final UInt udiv;
        final UInt accOut = output(UInt(200));
        final UInt rd = output(UInt(128));

        final UInt acc = regInit(UInt(200), 1);
        final Mem<UInt> store = mem(4, UInt(128));

        /**
         * Yosys needs about 45 s per 65-bit divider and 12 s per 130-bit multiplier: {@code heavy}
         * chooses full-width divisions and products (simulated) or narrower products only (synthesised).
         */
        Wide(boolean heavy) {
            smul = output(SInt(heavy ? 130 : 77));
            umul = output(UInt(heavy ? 140 : 78));
            sdiv = heavy ? output(SInt(66)) : null;
            srem = heavy ? output(SInt(65)) : null;
            udiv = heavy ? output(UInt(100)) : null;
            sum.assign(a.add(b));
            sumW.assign(a.addW(b));
            diff.assign(a.sub(b));
            mix.assign(a.xor(b).and(a.not()));
            cmp.assign(cat(a.lt(b), a.eq(b)));
            red.assign(cat(a.andR(), a.orR(), a.xorR()));
            hiLo.assign(cat(a.bits(99, 0), b.bits(299, 250)));
            dshr.assign(a.shr(amt));
            dshl.assign(a.shlTrunc(amt));
            sdshr.assign(sa.shr(amt));
            smul.assign(heavy ? sa.mul(sb) : sa.mul(sb.bits(11, 0).asSInt()));
            if (heavy) {
                sdiv.assign(sa.div(sb));
                srem.assign(sa.rem(sb));
                udiv.assign(a.bits(99, 0).div(b.bits(69, 0)));
            }
            slt.assign(sa.lt(sb));
            sneg.assign(sa.neg());
            vsel.assign(vecOf(a.bits(99, 0), a.bits(199, 100), a.bits(299, 200)).at(idx));
            umul.assign(a.bits(69, 0).mul(heavy ? b.bits(69, 0) : b.bits(7, 0)));
            when(load, () -> {
                acc.assign(acc.add(a.bits(199, 0)));
                store.write(idx, b.bits(127, 0));
            });
            accOut.assign(acc);
            rd.assign(store.readSync(idx));
        }
    }

    @Test
    void lintSynthCompile() {
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(Circuit.elaborate(() -> new Wide(false)), "wide");
        assertThat(e.text("Wide")).contains("input [299:0] a,").contains("reg [199:0] acc = 200'h0;")
                .contains("assign sdshr = sa >>> amt;");
    }

    @Test
    void wideDivisionLintAndCompile() {
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(Circuit.elaborate(() -> new Wide(true)), "wide-div");
        VerilogTestSupport.lint(e);
        VerilogTestSupport.compile(e);
        assertThat(e.text("Wide")).contains("assign sdiv = (sb == 65'sh0) ? 66'sh0 : $signed({sa[64], sa}) / $signed({sb[64], sb});");
    }

    /** Minutes of Yosys time: only with -Dflitkit.slowTests=true (8-bit division is synthesised in VerilogOpsTest). */
    @Test
    void wideDivisionSynth() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("flitkit.slowTests"), "slow: run with -Dflitkit.slowTests=true");
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(Circuit.elaborate(() -> new Wide(true)), "wide-div-synth");
        VerilogTestSupport.requireTool("yosys");
        VerilogTools.Result r = VerilogTools.yosysSynth(e.files(), e.result().topModule(), java.time.Duration.ofMinutes(60));
        assertThat(r.ok()).as("yosys synth of %s:\n%s", e.dir(), r).isTrue();
    }

    static final BigInteger TWO = BigInteger.TWO;

    static BigInteger m(BigInteger v, int w) {
        return v.and(TWO.pow(w).subtract(BigInteger.ONE));
    }

    static BigInteger bits(BigInteger v, int hi, int lo) {
        return m(v.shiftRight(lo), hi - lo + 1);
    }

    static long bit(boolean b) {
        return b ? 1 : 0;
    }

    @ParameterizedTest
    @ValueSource(strings = {"icarus", "verilator"})
    void simulatorComputesWideValues(String simulator) {
        Circuit c = Circuit.elaborate(() -> new Wide(true));
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(c, "wide-sim" + "-" + simulator);
        TbScript tb = new TbScript(e, c.top());
        Random rnd = new Random(7);
        BigInteger acc = BigInteger.ZERO;
        BigInteger[] store = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
        BigInteger rd = BigInteger.ZERO;
        List<Map<String, BigInteger>> want = new ArrayList<>();
        tb.reset(true).sample().step().reset(false);
        want.add(null);
        acc = BigInteger.ONE;
        BigInteger minS = TWO.pow(64).negate();
        for (int k = 0; k < 12; k++) {
            BigInteger a = new BigInteger(300, rnd);
            BigInteger b = k == 3 ? a : new BigInteger(k == 5 ? 60 : 300, rnd);
            if (k == 4) {
                a = TWO.pow(300).subtract(BigInteger.ONE);
            }
            BigInteger sa = k == 6 ? minS : new BigInteger(65, rnd).subtract(TWO.pow(64));
            BigInteger sb = k == 6 ? BigInteger.ONE.negate() : k == 7 ? BigInteger.ZERO : new BigInteger(k == 8 ? 20 : 65, rnd).subtract(k == 8 ? TWO.pow(19) : TWO.pow(64));
            int amt = k == 9 ? 511 : k == 10 ? 64 : rnd.nextInt(320);
            int idx = k % 4;
            int load = k % 3 == 0 ? 0 : 1;
            tb.poke("a", a).poke("b", b).poke("sa", m(sa, 65)).poke("sb", m(sb, 65)).poke("amt", amt).poke("idx", idx).poke("load", load);
            tb.sample().step();
            Map<String, BigInteger> o = new LinkedHashMap<>();
            o.put("sum", m(a.add(b), 300));
            o.put("sumW", a.add(b));
            o.put("diff", m(a.subtract(b), 300));
            o.put("mix", a.xor(b).and(a.not()).and(TWO.pow(300).subtract(BigInteger.ONE)));
            o.put("cmp", BigInteger.valueOf(bit(a.compareTo(b) < 0) << 1 | bit(a.equals(b))));
            o.put("red", BigInteger.valueOf(bit(a.bitCount() == 300) << 2 | bit(a.signum() != 0) << 1 | a.bitCount() & 1));
            o.put("hiLo", bits(a, 99, 0).shiftLeft(50).or(bits(b, 299, 250)));
            o.put("dshr", a.shiftRight(amt));
            o.put("dshl", m(a.shiftLeft(amt), 300));
            o.put("sdshr", m(sa.shiftRight(amt), 65));
            o.put("smul", m(sa.multiply(sb), 130));
            o.put("sdiv", sb.signum() == 0 ? BigInteger.ZERO : m(sa.divide(sb), 66));
            o.put("srem", sb.signum() == 0 ? BigInteger.ZERO : m(sa.remainder(sb), 65));
            o.put("slt", BigInteger.valueOf(bit(sa.compareTo(sb) < 0)));
            o.put("sneg", m(sa.negate(), 66));
            o.put("vsel", idx < 3 ? bits(a, 100 * idx + 99, 100 * idx) : BigInteger.ZERO);
            o.put("umul", bits(a, 69, 0).multiply(bits(b, 69, 0)));
            BigInteger d = bits(b, 69, 0);
            o.put("udiv", d.signum() == 0 ? BigInteger.ZERO : bits(a, 99, 0).divide(d));
            o.put("accOut", acc);
            o.put("rd", rd);
            want.add(o);
            rd = store[idx];
            if (load == 1) {
                acc = m(acc.add(bits(a, 199, 0)), 200);
                store[idx] = bits(b, 127, 0);
            }
        }
        List<Map<String, BigInteger>> got = tb.run(simulator);
        for (int k = 1; k < want.size(); k++) {
            Map<String, BigInteger> actual = new LinkedHashMap<>();
            for (String name : want.get(k).keySet()) {
                actual.put(name, got.get(k).get(name));
            }
            assertThat(actual).as("cycle %d", k).isEqualTo(want.get(k));
        }
    }
}
