package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every primitive operation, unsigned and signed, in one combinational module. */
class VerilogOpsTest {
    static final class Ops extends Module {
        final UInt a = input(UInt(8));
        final UInt b = input(UInt(8));
        final UInt c = input(UInt(4));
        final SInt sa = input(SInt(8));
        final SInt sb = input(SInt(8));
        final SInt sc = input(SInt(4));
        final UInt amt = input(UInt(4));
        final Bool s = input(Bool());

        final UInt addW = output(UInt(9));
        final UInt add = output(UInt(8));
        final UInt sub = output(UInt(8));
        final UInt mul = output(UInt(16));
        final UInt div = output(UInt(8));
        final UInt divc = output(UInt(8));
        final UInt rem = output(UInt(4));
        final UInt logic = output(UInt(8));
        final UInt inv = output(UInt(8));
        final UInt shl3 = output(UInt(11));
        final UInt shr3 = output(UInt(5));
        final UInt shr9 = output(UInt(1));
        final UInt dshl = output(UInt(23));
        final UInt dshlT = output(UInt(8));
        final UInt dshr = output(UInt(8));
        final UInt cmp = output(UInt(6));
        final UInt reduce = output(UInt(3));
        final UInt slice = output(UInt(5));
        final Bool dbit = output(Bool());
        final UInt cat = output(UInt(13));
        final UInt mux = output(UInt(8));
        final UInt vsel = output(UInt(8));
        final UInt rom = output(UInt(8));

        final SInt sadd = output(SInt(8));
        final SInt ssub = output(SInt(8));
        final SInt smul = output(SInt(16));
        final SInt sdiv = output(SInt(9));
        final SInt srem = output(SInt(8));
        final SInt sremc = output(SInt(4));
        final SInt sdivc = output(SInt(9));
        final SInt sneg = output(SInt(9));
        final UInt scmp = output(UInt(6));
        final SInt sshr3 = output(SInt(5));
        final SInt sshr9 = output(SInt(1));
        final SInt sdshr = output(SInt(8));
        final SInt sdshl = output(SInt(8));
        final SInt sext = output(SInt(12));
        final UInt sabs = output(UInt(8));
        final UInt mixed = output(UInt(8));
        final SInt smux = output(SInt(8));
        final UInt sbits = output(UInt(4));

        Ops() {
            addW.assign(a.addW(b));
            add.assign(a.add(b));
            sub.assign(a.sub(b));
            mul.assign(a.mul(b));
            div.assign(a.div(b));
            divc.assign(a.div(c));
            rem.assign(a.rem(c));
            logic.assign(a.and(b).or(a.xor(b.not())));
            inv.assign(a.not());
            shl3.assign(a.shl(3));
            shr3.assign(a.shr(3));
            shr9.assign(a.shr(9));
            dshl.assign(a.shl(amt));
            dshlT.assign(a.shlTrunc(amt));
            dshr.assign(a.shr(amt));
            cmp.assign(cat(a.eq(b), a.ne(b), a.lt(b), a.le(b), a.gt(b), a.ge(b)));
            reduce.assign(cat(a.andR(), a.orR(), a.xorR()));
            slice.assign(a.bits(6, 2));
            dbit.assign(a.bit(amt));
            cat.assign(cat(a, c, s));
            mux.assign(mux(s, a, b));
            vsel.assign(vecOf(a, b, c.pad(8)).at(c));
            Mem<UInt> m = mem(6, UInt(8)).init(0x11, 0x22, 0, 0x44, 0x55, 0x66);
            rom.assign(m.read(c));

            sadd.assign(sa.add(sb));
            ssub.assign(sa.sub(sb));
            smul.assign(sa.mul(sb));
            sdiv.assign(sa.div(sb));
            srem.assign(sa.rem(sb));
            sremc.assign(sa.rem(sc));
            sdivc.assign(sa.div(sc));
            sneg.assign(sa.neg());
            scmp.assign(cat(sa.eq(sb), sa.ne(sb), sa.lt(sb), sa.le(sb), sa.gt(sb), sa.ge(sb)));
            sshr3.assign(sa.shr(3));
            sshr9.assign(sa.shr(9));
            sdshr.assign(sa.shr(amt));
            sdshl.assign(sa.shlTrunc(amt));
            sext.assign(sa.pad(12));
            sabs.assign(sa.abs());
            mixed.assign(sa.asUInt().add(a));
            smux.assign(mux(s, sa, b.asSInt()));
            sbits.assign(sa.bits(7, 4));
        }
    }

    @Test
    void everyOpPassesLintSynthAndCompile() {
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(Circuit.elaborate(Ops::new), "ops");
        String v = e.text("Ops");
        assertThat(e.result().topClocked()).isFalse();
        assertThat(v).doesNotContain("clk").doesNotContain("reset").contains("module Ops (");
        // operands of signed operations are signed, division is guarded
        assertThat(v).contains("input signed [7:0] sa,").contains("assign sdshr = sa >>> amt;")
                .contains("assign div = (b == 8'h0) ? 8'h0 : a / b;");
    }

    static final long[] ROM = {0x11, 0x22, 0, 0x44, 0x55, 0x66};

    /** Input vectors {a, b, c, sa, sb, sc, amt, s}: division by zero, most negative / -1, shifts past the width, indices out of range. */
    static final long[][] VECTORS = {
        {200, 13, 0, -100, 7, 0, 3, 1},
        {0x80, 0, 5, -128, -1, -1, 15, 0},
        {7, 200, 9, 5, -3, -8, 8, 1},
        {255, 255, 2, -1, -1, 7, 7, 0},
        {0x5A, 0x5A, 3, 127, -128, -3, 1, 1},
        {1, 2, 15, -7, 2, 3, 0, 0},
        {0, 1, 1, -128, 1, -8, 9, 1},
    };

    private static long bit(boolean b) {
        return b ? 1 : 0;
    }

    private static long m(long v, int w) {
        return v & ((1L << w) - 1);
    }

    /** The expected outputs, written out by hand with Java arithmetic. */
    static Map<String, Long> expected(long[] v) {
        long a = v[0], b = v[1], c = v[2], sa = v[3], sb = v[4], sc = v[5], amt = v[6], s = v[7];
        Map<String, Long> e = new LinkedHashMap<>();
        e.put("addW", a + b);
        e.put("add", m(a + b, 8));
        e.put("sub", m(a - b, 8));
        e.put("mul", a * b);
        e.put("div", b == 0 ? 0 : a / b);
        e.put("divc", c == 0 ? 0 : a / c);
        e.put("rem", c == 0 ? 0 : a % c);
        e.put("logic_", m((a & b) | (a ^ ~b), 8));
        e.put("inv", m(~a, 8));
        e.put("shl3", a << 3);
        e.put("shr3", a >> 3);
        e.put("shr9", 0L);
        e.put("dshl", a << amt);
        e.put("dshlT", m(a << amt, 8));
        e.put("dshr", a >> amt);
        e.put("cmp", bit(a == b) << 5 | bit(a != b) << 4 | bit(a < b) << 3 | bit(a <= b) << 2 | bit(a > b) << 1 | bit(a >= b));
        e.put("reduce", bit(a == 255) << 2 | bit(a != 0) << 1 | Long.bitCount(a) & 1);
        e.put("slice", m(a >> 2, 5));
        e.put("dbit", amt < 8 ? (a >> amt) & 1 : 0);
        e.put("cat", a << 5 | c << 1 | s);
        e.put("mux", s == 1 ? a : b);
        e.put("vsel", c == 0 ? a : c == 1 ? b : c == 2 ? c : 0);
        e.put("rom", c < 6 ? ROM[(int) c] : 0);
        e.put("sadd", m(sa + sb, 8));
        e.put("ssub", m(sa - sb, 8));
        e.put("smul", m(sa * sb, 16));
        e.put("sdiv", sb == 0 ? 0 : m(sa / sb, 9));
        e.put("srem", sb == 0 ? 0 : m(sa % sb, 8));
        e.put("sremc", sc == 0 ? 0 : m(sa % sc, 4));
        e.put("sdivc", sc == 0 ? 0 : m(sa / sc, 9));
        e.put("sneg", m(-sa, 9));
        e.put("scmp", bit(sa == sb) << 5 | bit(sa != sb) << 4 | bit(sa < sb) << 3 | bit(sa <= sb) << 2 | bit(sa > sb) << 1 | bit(sa >= sb));
        e.put("sshr3", m(sa >> 3, 5));
        e.put("sshr9", bit(sa < 0));
        e.put("sdshr", m(sa >> amt, 8));
        e.put("sdshl", m(sa << amt, 8));
        e.put("sext", m(sa, 12));
        e.put("sabs", m(Math.abs(sa), 8));
        e.put("mixed", m(m(sa, 8) + a, 8));
        e.put("smux", s == 1 ? m(sa, 8) : b);
        e.put("sbits", m(sa, 8) >> 4);
        return e;
    }

    @ParameterizedTest
    @ValueSource(strings = {"icarus", "verilator"})
    void simulatorComputesTheSpecifiedSemantics(String simulator) {
        Circuit c = Circuit.elaborate(Ops::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(c, "ops-sim" + "-" + simulator);
        TbScript tb = new TbScript(e, c.top());
        String[] ins = {"a", "b", "c", "sa", "sb", "sc", "amt", "s"};
        for (long[] v : VECTORS) {
            for (int i = 0; i < ins.length; i++) {
                tb.poke(ins[i], v[i]);
            }
            tb.sample();
        }
        List<Map<String, BigInteger>> got = tb.run(simulator);
        for (int k = 0; k < VECTORS.length; k++) {
            Map<String, Long> want = expected(VECTORS[k]);
            Map<String, Long> actual = new LinkedHashMap<>();
            for (String name : want.keySet()) {
                actual.put(name, got.get(k).get(name).longValueExact());
            }
            assertThat(actual).as("vector %d %s", k, java.util.Arrays.toString(VECTORS[k])).isEqualTo(want);
        }
    }
}
