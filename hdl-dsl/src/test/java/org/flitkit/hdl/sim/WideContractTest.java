package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Structural contract of {@link Wide}: static-only, stateless, and allocation free on the hot path. */
class WideContractTest {

    @Test
    void isAFinalStaticOnlyUtilityClass() {
        assertThat(Modifier.isFinal(Wide.class.getModifiers())).isTrue();
        assertThat(Wide.class.getDeclaredFields()).as("no state").isEmpty();
        for (Constructor<?> c : Wide.class.getDeclaredConstructors()) {
            assertThat(Modifier.isPrivate(c.getModifiers())).as("constructor %s", c).isTrue();
        }
        for (Method m : Wide.class.getDeclaredMethods()) {
            assertThat(Modifier.isStatic(m.getModifiers())).as("method %s", m).isTrue();
        }
    }

    @Test
    void hotPathDoesNotAllocate() {
        java.lang.management.ThreadMXBean plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(bean.isThreadAllocatedMemorySupported());
        bean.setThreadAllocatedMemoryEnabled(true);

        int w = 198;
        int n = Wide.limbs(w);
        long[] m = new long[16 * n + Wide.divScratch(2 * w, w)];
        Wide.fromBigInteger(m, 0, w, BigInteger.ONE.shiftLeft(197).subtract(BigInteger.valueOf(12345)));
        Wide.fromBigInteger(m, n, w, new BigInteger("123456789abcdef0123456789abcdef", 16));
        long sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += workload(m, w, n, i);
        }
        long before = bean.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 20_000; i++) {
            sink += workload(m, w, n, i);
        }
        long allocated = bean.getCurrentThreadAllocatedBytes() - before;
        // ~40 calls per iteration, 800k calls: any per-call allocation would be megabytes.
        assertThat(allocated).as("bytes allocated (sink %d)", sink).isLessThan(64 * 1024);
    }

    /** One "cycle" touching every hot-path method; a = [0], b = [n], results at [2n..]. */
    private static long workload(long[] m, int w, int n, int i) {
        int a = 0;
        int b = n;
        int d = 2 * n;
        int e = 3 * n;
        int p = 4 * n;          // 2w-bit product
        int s = 6 * n + 2;      // scratch
        Wide.add(m, d, m, a, m, b, w);
        Wide.sub(m, d, m, d, m, b, w);
        Wide.and(m, e, m, a, m, b, w);
        Wide.or(m, e, m, e, m, b, w);
        Wide.xor(m, e, m, e, m, a, w);
        Wide.not(m, e, m, e, w);
        Wide.neg(m, e, m, e, w);
        Wide.mul(m, p, 2 * w, m, a, w, m, b, w, (i & 1) != 0);
        Wide.div(m, e, w, m, p, 2 * w, m, b, w, (i & 1) != 0, m, s);
        Wide.rem(m, e, w, m, p, 2 * w, m, b, w, (i & 1) != 0, m, s);
        Wide.shl(m, e, w, m, a, w, i % 250);
        Wide.shr(m, e, w, m, e, w, i % 230, (i & 2) != 0);
        Wide.extend(m, p, 2 * w, m, e, w, true);
        Wide.copy(m, e, w, m, d);
        Wide.mask(m, e, w);
        Wide.extractWide(m, e, 100, m, a, i % 98);
        Wide.zero(m, e, w);
        Wide.insert(m, e, i % 130, 0x5A5AL, 16);
        Wide.insertWide(m, e, i % 60, m, b, 130);
        Wide.fromLong(m, d, w, i, 32, true);
        long acc = Wide.extract(m, a, i % 130, 64) + Wide.toLong(m, e) + Wide.popCount(m, a, w);
        acc += (Wide.eq(m, a, m, b, w) ? 1 : 0) + (Wide.ltu(m, a, m, b, w) ? 2 : 0)
            + (Wide.lts(m, a, m, b, w) ? 4 : 0) + (Wide.orReduce(m, a, w) ? 8 : 0)
            + (Wide.andReduce(m, a, w) ? 16 : 0) + (Wide.xorReduce(m, a, w) ? 32 : 0)
            + (Wide.isZero(m, e, w) ? 64 : 0) + (Wide.bit(m, a, w, i) ? 128 : 0);
        acc += Wide.shlN(i, i, 40) + Wide.shrN(acc, i) + Wide.sraN(i, 20, i, 30) + Wide.sext(i, 7)
            + Wide.maskOf(i & 63) + Wide.divU(acc, i) + Wide.remU(acc, i) + Wide.divS(acc, 64, i, 16, 64)
            + Wide.remS(acc, 64, i, 16, 64) + Wide.mulHighU(acc, i);
        return acc;
    }
}
