package org.flitkit.rtl.chpp.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packer against formats-level transfers ({@link PackerHarness}): random NAP immediate and indirect, PUT and
 * chain transfers with unaligned segments, random gaps, backpressure and error beats, checked packet by packet and
 * byte by byte; exact packet counts, bytes and events of fixed cases; failed transfers; malformed inputs that must
 * not hang it. docs/chpp-packer.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class PackerTest {
    static final SendEngineParams SP = new SendEngineParams(4, 5, 0x2A08, 2, 512, 128);

    static Descriptor.Common common(int qp, boolean sce, boolean rce, int cookie) {
        return new Descriptor.Common(qp, sce, rce, new EndpointId(3, 6, (qp + 1) & 3), 0xBEEF ^ cookie, cookie);
    }

    static byte[] bytes(Rng r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** Destination addresses from a bump allocator with random gaps, so no two transfers' bytes overlap. */
    static final class Space {
        long next = 0x10_0000L;
        final Rng r;

        Space(Rng r) {
            this.r = r;
        }

        long take(long len) {
            long a = next + r.nextInt(64);
            next = a + len;
            return a;
        }
    }

    /** A random transfer: kind, sizes (unaligned), segment lists, and with {@code errorP} an error beat. */
    static PackerHarness.Xfer random(Rng r, Space space, int cookie, double errorP) {
        int fn = r.nextInt(8);
        int qp = r.nextInt(4);
        boolean sce = r.nextBoolean();
        int kind = r.nextInt(4);
        Descriptor d;
        byte[] src;
        switch (kind) {
            case 0 -> {
                int n = r.nextBoolean() ? r.nextInt(40) : r.nextInt(2049);
                src = bytes(r, n);
                d = new Descriptor.NapImmediate(common(qp, sce, true, cookie), src);
            }
            case 1 -> {
                int n = r.nextBoolean() ? r.nextInt(40) : r.nextInt(2049);
                src = bytes(r, n);
                d = new Descriptor.NapIndirect(common(qp, sce, true, cookie), n, r.nextLong());
            }
            case 2 -> {
                int n = 1 + (r.nextBoolean() ? r.nextInt(300) : r.nextInt(6000));
                src = bytes(r, n);
                d = new Descriptor.Put(common(qp, sce, r.nextBoolean(), cookie), n, r.nextLong(), space.take(n));
            }
            default -> {
                int nd = 1 + r.nextInt(6);
                List<Descriptor.Segment> ds = new ArrayList<>();
                long total = 0;
                for (int i = 0; i < nd; i++) {
                    int len = 1 + (r.nextBoolean() ? r.nextInt(40) : r.nextInt(700));
                    ds.add(new Descriptor.Segment(space.take(len), len));
                    total += len;
                }
                // the source list: other, unaligned cuts of the same total (the packer sees only their concatenation)
                List<Descriptor.Segment> ss = new ArrayList<>();
                long left = total;
                while (left > 0) {
                    long len = Math.min(left, 1 + r.nextInt(500));
                    ss.add(new Descriptor.Segment(r.nextLong(), len));
                    left -= len;
                }
                src = bytes(r, (int) total);
                d = new Descriptor.Chain(common(qp, sce, r.nextBoolean(), cookie), ss, ds);
            }
        }
        int beats = (src.length + 15) / 16;
        // a third of the PUTs are GET answers: RESP on their packets, a header-only packet when they fail
        boolean resp = kind == 2 && r.nextInt(3) == 0;
        if (kind != 0 && beats > 0 && r.chance(errorP)) {
            CompletionStatus st = r.nextBoolean() ? CompletionStatus.PCIE_ERROR : CompletionStatus.COMPLETION_TIMEOUT;
            return new PackerHarness.Xfer(fn, d, src, r.nextInt(beats), st, resp);
        }
        return new PackerHarness.Xfer(fn, d, src, -1, null, resp);
    }

    static void randomRun(RunConfig cfg, SendEngineParams sp, int n, long maxCycles) {
        try (PackerHarness b = new PackerHarness(cfg, sp, 0.3, 0.7, 0.6)) {
            Rng r = b.tb.rng("transfers");
            Space space = new Space(r);
            for (int i = 0; i < n; i++) {
                b.send(random(r, space, i + 1, 0.15));
            }
            b.runAndCheck(maxCycles);
            System.out.printf("packer random mtu=%d: %d transfers (%d failed, %d of them GET answers), %d packets, %d events, "
                    + "%d bytes in memory, %d cycles%n", sp.mtu(), n, b.failures, b.failedAnswers, b.out.packets, b.events.seen,
                    b.observedMem.size(), b.tb.cycle());
            assertThat(b.out.packets).isEqualTo(b.expectedPackets).isGreaterThan(n);
            assertThat(b.failures).isGreaterThan(0);
            assertThat(b.tb.sim().peek(b.dut.malformed)).isZero();
        }
    }

    @Test
    void randomTransfersLandExactlyWhereTheirDescriptorsSay(RunConfig cfg) {
        randomRun(cfg, SP, 150, 400_000);
    }

    @Test
    void randomTransfersAtTheSmallestAndALargeMtu(RunConfig cfg) {
        randomRun(cfg, SP.withMtu(16), 60, 200_000);
        randomRun(cfg, SP.withMtu(1024), 60, 200_000);
    }
}
