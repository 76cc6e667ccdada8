package org.flitkit.app.demo;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Lfsr;

/**
 * flit-loopback with its stimulus built in, for benchmarks: an LFSR flit source that advances when a
 * flit is accepted, the same {@link SerialLink} as {@link FlitLoopback}, and a sink under LFSR backpressure
 * that folds every received flit into a 64-bit {@code checksum}.
 */
public final class FlitLoopbackBenchmark extends Module {
    public final UInt checksum = output(UInt(64));
    public final UInt received = output(UInt(32));
    public final SerialLink link = instance(new SerialLink(FlitLoopback.FLIT_WIDTH, FlitLoopback.BEAT_WIDTH, FlitLoopback.FIFO_DEPTH));

    public FlitLoopbackBenchmark() {
        Bool sent = link.in.valid.and(link.in.ready);
        // four 64-bit LFSRs with different seeds make a 198-bit flit
        List<Bits> parts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            parts.add(Lfsr.galois(64, sent, 0x1234_5678_9ABCL * (i + 1) + 1));
        }
        link.in.valid.assign(1);
        link.in.bits.assign(cat(parts).trunc(FlitLoopback.FLIT_WIDTH));
        UInt sinkLfsr = Lfsr.galois(16, TRUE(), 0xBEEF).named("sinkLfsr");
        link.out.ready.assign(sinkLfsr.bit(2).or(sinkLfsr.bit(5)));
        UInt sum = regInit(UInt(64), 0).named("sum");
        Bool taken = link.out.valid.and(link.out.ready);
        Counter count = Counter.enabled(taken, 1L << 32).named("count");
        UInt flit = link.out.bits;
        UInt folded = flit.bits(63, 0).xor(flit.bits(127, 64)).xor(flit.bits(191, 128)).xor(flit.bits(197, 192).pad(64));
        when(taken, () -> sum.assign(sum.shl(1).trunc(64).xor(sum.shr(63)).xor(folded)));
        checksum.assign(sum);
        received.assign(count.value);
    }
}
