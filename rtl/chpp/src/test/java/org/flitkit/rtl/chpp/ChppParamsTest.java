package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.Doorbell;
import org.flitkit.rtl.chpp.send.FunctionDoorbell;
import org.flitkit.hdl.lib.WeightedRRArbiter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.HdlException;
import org.junit.jupiter.api.Test;

/** The paper's parameters and every parameter rule's message. docs/chpp-dma.md, "Parameters". */
class ChppParamsTest {

    @Test
    void paperValues() {
        ChppParams p = ChppParams.paper();
        assertThat(p.functions()).isEqualTo(8);
        assertThat(p.doorbellDepth()).isEqualTo(32);
        assertThat(p.tags()).isEqualTo(32);
        assertThat(p.tagBits()).isEqualTo(5);
        assertThat(p.withTags(ChppParams.EXTENDED_TAGS).tagBits()).isEqualTo(8);
        assertThat(p.completionTimeout()).isEqualTo(12_500);
        assertThat(p.arbitration()).isEqualTo(ChppParams.Arbitration.ROUND_ROBIN);
        assertThat(p.weights()).containsOnly(1).hasSize(8);
        // 64-bit address + 13-bit length + 2-bit QP
        assertThat(new Doorbell().width()).isEqualTo(79);
        assertThat(new FunctionDoorbell().width()).isEqualTo(87);
    }

    @Test
    void everyRuleNamesItself() {
        ChppParams p = ChppParams.paper();
        assertThatThrownBy(() -> p.withFunctions(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("functions 0 outside 1..256").hasMessageContaining("function number");
        assertThatThrownBy(() -> p.withFunctions(257)).hasMessageContaining("functions 257 outside 1..256");
        assertThatThrownBy(() -> p.withDoorbellDepth(0)).hasMessageContaining("doorbellDepth 0 outside 1..1024");
        assertThatThrownBy(() -> p.withDoorbellDepth(1025)).hasMessageContaining("doorbellDepth 1025");
        assertThatThrownBy(() -> p.withTags(0)).hasMessageContaining("tags 0 outside 1..256").hasMessageContaining("Extended Tag");
        assertThatThrownBy(() -> p.withTags(257)).hasMessageContaining("tags 257 outside 1..256");
        assertThatThrownBy(() -> p.withCompletionTimeout(1)).hasMessageContaining("completionTimeout 1 outside 2..");
        assertThatThrownBy(() -> p.withCompletionTimeout((1 << 24) + 1)).hasMessageContaining("completionTimeout 16777217");
        assertThatThrownBy(() -> new ChppParams(8, 32, 32, 100, null, ChppParams.ones(8)))
                .hasMessageContaining("arbitration is null");
        assertThatThrownBy(() -> p.weighted(List.of(1, 2, 3))).hasMessageContaining("one entry per function (8)");
        assertThatThrownBy(() -> p.weighted(List.of(1, 1, 1, 0, 1, 1, 1, 1))).hasMessageContaining("weight 0 of function 3 outside 1..255");
        assertThatThrownBy(() -> p.weighted(List.of(1, 1, 1, 1, 1, 1, 1, 256))).hasMessageContaining("weight 256 of function 7");
        List<Integer> withNull = new ArrayList<>(ChppParams.ones(8));
        withNull.set(2, null);
        assertThatThrownBy(() -> p.weighted(withNull)).hasMessageContaining("weight null of function 2");
    }

    @Test
    void weightsAreCopied() {
        List<Integer> w = new ArrayList<>(List.of(4, 1, 1, 2, 1, 1, 3, 1));
        ChppParams p = new ChppParams(8, 32, 32, 100, ChppParams.Arbitration.WEIGHTED, w);
        w.set(0, 9);
        assertThat(p.weights().get(0)).isEqualTo(4);
        assertThat(p.weighted(w).weights().get(0)).isEqualTo(9);
    }

    @Test
    void theWeightedArbiterChecksItsWeightsToo() {
        assertThatThrownBy(() -> new WeightedRRArbiter<>(Doorbell::new, List.of())).isInstanceOf(HdlException.class)
                .hasMessageContaining("at least one weight");
    }
}
