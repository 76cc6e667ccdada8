package org.flitkit.rtl.mnc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The link-choice rule against a plain-Java statement of it, for every mask, status and pointer. */
class LinkChooserTest {
    /** FREE allowed links from ptr round, then BUSY allowed links from ptr round (multi-rail paper, section 2.3.2). */
    static List<Integer> reference(int rails, int mask, int busy, int ptr) {
        List<Integer> order = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (int j = 0; j < rails; j++) {
                int r = (ptr + j) % rails;
                boolean isBusy = (busy >> r & 1) == 1;
                if ((mask >> r & 1) == 1 && isBusy == (pass == 1)) {
                    order.add(r);
                }
            }
        }
        return order;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void choosesFreeFirstThenBusyRoundRobinForEveryInput(int rails) {
        try (Testbench<LinkChooser> tb = Testbench.create(() -> new LinkChooser(rails), RunConfig.of(1, 0))) {
            LinkChooser c = tb.dut();
            int cases = 0;
            for (int mask = 0; mask < 1 << rails; mask++) {
                for (int busy = 0; busy < 16; busy++) {
                    for (int ptr = 0; ptr < rails; ptr++) {
                        tb.sim().poke(c.mask, mask);
                        tb.sim().poke(c.busy, busy);
                        tb.sim().poke(c.ptr, ptr);
                        List<Integer> want = reference(rails, mask, busy, ptr);
                        assertThat(tb.sim().peek(c.allowed)).as("allowed links of mask %s", mask).isEqualTo(Integer.bitCount(mask));
                        for (int k = 0; k < want.size(); k++) {
                            assertThat(tb.sim().peek(c.links.get(k)))
                                    .as("rails=%d mask=%s busy=%s ptr=%d choice %d", rails, Integer.toBinaryString(mask),
                                            Integer.toBinaryString(busy), ptr, k)
                                    .isEqualTo((long) want.get(k));
                        }
                        cases++;
                    }
                }
            }
            assertThat(cases).isEqualTo((1 << rails) * 16 * rails);
        }
    }
}
