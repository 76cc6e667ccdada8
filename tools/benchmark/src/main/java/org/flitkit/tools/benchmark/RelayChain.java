package org.flitkit.tools.benchmark;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.hdl.lib.SkidBuffer;

/**
 * The {@code relay-chain} benchmark: an LFSR source that advances when its beat is accepted, a chain
 * of {@link SkidBuffer}s, and a sink that sums what it accepts under LFSR-driven backpressure. A
 * plain pipeline workload of the kind simulator papers publish; {@code checksum} is the sum.
 */
public final class RelayChain extends Module {
    public final UInt checksum = output(UInt(64));
    public final UInt accepted = output(UInt(32));
    final List<SkidBuffer> stages = new ArrayList<>();

    public RelayChain(int stageCount, int width) {
        for (int i = 0; i < stageCount; i++) {
            stages.add(instance(new SkidBuffer(width)));
        }
        SkidBuffer first = stages.get(0);
        SkidBuffer last = stages.get(stageCount - 1);
        Bool sourceFire = first.in.ready.and(first.in.valid);
        UInt data = Lfsr.galois(Math.max(width, 2), sourceFire, 1).trunc(width).named("source_data");
        first.in.valid.assign(1);
        first.in.bits.assign(data);
        for (int i = 1; i < stageCount; i++) {
            stages.get(i).in.connect(stages.get(i - 1).out);
        }
        UInt backpressure = Lfsr.galois(16, TRUE(), 0xACE1).named("sink_lfsr");
        last.out.ready.assign(backpressure.bit(0).or(backpressure.bit(3)));
        UInt sum = regInit(UInt(64), 0).named("sum");
        UInt count = regInit(UInt(32), 0).named("count");
        when(last.out.valid.and(last.out.ready), () -> {
            sum.assign(sum.add(last.out.bits));
            count.assign(count.add(1));
        });
        checksum.assign(sum);
        accepted.assign(count);
    }

    @Override
    public String definitionName() {
        return "RelayChain";
    }
}
