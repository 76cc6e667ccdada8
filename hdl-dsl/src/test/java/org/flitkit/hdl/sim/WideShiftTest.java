package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.WideTestSupport.allWidths;
import static org.flitkit.hdl.sim.WideTestSupport.capFor;
import static org.flitkit.hdl.sim.WideTestSupport.hex;
import static org.flitkit.hdl.sim.WideTestSupport.interp;
import static org.flitkit.hdl.sim.WideTestSupport.trunc;
import static org.flitkit.hdl.sim.WideTestSupport.value;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.flitkit.hdl.sim.WideTestSupport.Mem;
import org.junit.jupiter.api.Test;

/** Wide shl/shr (logical and arithmetic) for every amount 0..width+70 plus huge/unsigned amounts. */
class WideShiftTest {

    /** Amounts that must never be confused with small ones (int truncation, Java's mod-64 masking). */
    private static final long[] HUGE = {Integer.MAX_VALUE, 1L << 31, (1L << 32) + 1, (1L << 32) + 64,
        (1L << 40) + 3, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -64L, 0x8000_0000_0000_0001L};

    private enum Kind { SHL, SHR, SRA }

    @Test
    void shlEveryAmount() {
        everyAmount(Kind.SHL, 401);
    }

    @Test
    void shrLogicalEveryAmount() {
        everyAmount(Kind.SHR, 402);
    }

    @Test
    void shrArithmeticEveryAmount() {
        everyAmount(Kind.SRA, 403);
    }

    @Test
    void shiftsWithHugeOrUnsignedAmounts() {
        SplittableRandom r = new SplittableRandom(404);
        for (int aw : allWidths()) {
            for (long amt : HUGE) {
                for (Kind kind : Kind.values()) {
                    int dw = r.nextBoolean() ? aw : 1 + r.nextInt(aw + 70);
                    run(r, kind, aw, dw, value(r, aw), amt, r.nextBoolean());
                }
            }
        }
    }

    private static void everyAmount(Kind kind, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int aw : allWidths()) {
            int[] dws = {aw, 1 + r.nextInt(aw + 130)};
            for (int dw : dws) {
                int maxAmt = Math.max(aw, dw) + 70;
                for (int amt = 0; amt <= maxAmt; amt++) {
                    run(r, kind, aw, dw, value(r, aw), amt, (amt & 1) != 0);
                }
            }
        }
    }

    private static void run(SplittableRandom r, Kind kind, int aw, int dw, BigInteger a, long amount,
                            boolean alias) {
        Mem mem = new Mem(r, capFor(Math.max(aw, dw), 2));
        int aoff;
        int doff;
        if (alias) {
            aoff = mem.alloc(Math.max(aw, dw));
            mem.store(aoff, a, aw);
            doff = aoff;
        } else {
            aoff = mem.put(a, aw);
            doff = mem.alloc(dw);
        }
        mem.seal();
        BigInteger expected;
        switch (kind) {
            case SHL:
                Wide.shl(mem.m, doff, dw, mem.m, aoff, aw, amount);
                expected = refShl(a, amount, dw);
                break;
            case SHR:
                Wide.shr(mem.m, doff, dw, mem.m, aoff, aw, amount, false);
                expected = refShr(a, aw, amount, dw, false);
                break;
            default:
                Wide.shr(mem.m, doff, dw, mem.m, aoff, aw, amount, true);
                expected = refShr(a, aw, amount, dw, true);
        }
        mem.check(doff, dw, expected, () -> String.format("%s aw=%d dw=%d amount=%s alias=%s a=%s",
            kind, aw, dw, Long.toUnsignedString(amount), alias, hex(a)));
    }

    static BigInteger unsignedAmount(long amount) {
        return new BigInteger(Long.toUnsignedString(amount));
    }

    static BigInteger refShl(BigInteger a, long amount, int dw) {
        if (unsignedAmount(amount).compareTo(BigInteger.valueOf(dw)) >= 0) {
            return BigInteger.ZERO;
        }
        return trunc(a.shiftLeft((int) amount), dw);
    }

    /** a >> amount computed in aw bits, then zero/sign-extended (or truncated) to dw bits. */
    static BigInteger refShr(BigInteger a, int aw, long amount, int dw, boolean arithmetic) {
        BigInteger v = interp(a, aw, arithmetic);
        BigInteger shifted = unsignedAmount(amount).compareTo(BigInteger.valueOf(aw)) >= 0
            ? (v.signum() < 0 ? BigInteger.valueOf(-1) : BigInteger.ZERO)
            : v.shiftRight((int) amount);
        BigInteger inAw = trunc(shifted, aw);
        return trunc(interp(inAw, aw, arithmetic), dw);
    }
}
