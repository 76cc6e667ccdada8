package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;
import org.flitkit.hdl.lib.SkidBuffer;

/** Skipping idle logic changes speed only: a mostly stalled pipeline ends in the same state either way. */
class ActivitySkippingTest {
    static final class StalledChain extends Module {
        final UInt checksum = output(UInt(64));
        final List<SkidBuffer> stages = new ArrayList<>();

        StalledChain() {
            for (int i = 0; i < 200; i++) {
                stages.add(instance(new SkidBuffer(20)));
            }
            UInt source = regInit(UInt(20), 1);
            stages.get(0).in.valid.assign(1);
            stages.get(0).in.bits.assign(source);
            when(stages.get(0).in.ready, () -> source.assign(source.add(1)));
            for (int i = 1; i < stages.size(); i++) {
                stages.get(i).in.connect(stages.get(i - 1).out);
            }
            UInt tick = regInit(UInt(10), 0);
            tick.assign(tick.add(1));
            SkidBuffer last = stages.get(stages.size() - 1);
            last.out.ready.assign(tick.eq(0));
            UInt sum = regInit(UInt(64), 0);
            when(last.out.valid.and(last.out.ready), () -> sum.assign(sum.add(last.out.bits)));
            checksum.assign(sum);
        }
    }

    @Test
    void idleChunksAreSkippedWithoutChangingResults() {
        Simulator auto = Simulator.of(StalledChain::new);
        Simulator off = Simulator.of(StalledChain::new);
        off.setActivitySkipping(false);
        auto.reset();
        off.reset();
        long skipped = 0;
        for (int k = 0; k < 20; k++) {
            auto.step(3000);
            skipped += auto.skippedChunks();
            off.step(3000);
        }
        assertThat(skipped).isPositive();
        for (String s : auto.signalNames()) {
            assertThat(auto.peekBig(s)).as(s).isEqualTo(off.peekBig(s));
        }
        assertThat(auto.peek("stalledChain.checksum")).isNotZero();
    }
}
