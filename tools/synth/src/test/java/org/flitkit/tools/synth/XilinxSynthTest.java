package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Yosys statistics read back and tallied as FPGA resources (no Yosys needed: the statistics are given). */
class XilinxSynthTest {
    /** The shape {@code stat -json} of Yosys 0.23 writes, two modules, the top second, then the design total. */
    static final String STAT = """
            {
               "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
               "invocation": "stat -json ",
               "modules": {
                  "\\\\Other": {
                     "num_wires":         3,
                     "num_cells":         1,
                     "num_cells_by_type": {
                        "FDRE": 1000
                     }
                  },
                  "\\\\Top": {
                     "num_wires":         309,
                     "num_memories":      0,
                     "num_cells":         655,
                     "num_cells_by_type": {
                        "BUFG": 1,
                        "CARRY4": 5,
                        "DSP48E1": 2,
                        "FDCE": 10,
                        "FDRE": 418,
                        "INV": 5,
                        "LUT2": 9,
                        "LUT6": 181,
                        "MUXF7": 1,
                        "RAM32M": 4,
                        "RAM64X1D": 3,
                        "RAMB18E1": 3,
                        "RAMB36E1": 2,
                        "SRLC32E": 7
                     }
                  },
                  "\\\\Empty": {
                     "num_wires":         1,
                     "num_cells":         0
                  }
               },
                  "design": {
                     "num_cells_by_type": {
                        "FDRE": 1
                     }
                  }
            }
            """;

    @Test
    void theTopModulesCellsAreTalliedAsResources() {
        XilinxSynth.Resources r = new XilinxSynth.Resources(XilinxSynth.parseStat(STAT, "Top"));
        assertThat(r.cells()).hasSize(14).containsEntry("FDRE", 418).containsEntry("RAMB36E1", 2);
        assertThat(r.luts()).isEqualTo(5 + 9 + 181);
        assertThat(r.lutRamLuts()).as("RAM32M 4 LUTs, RAM64X1D 2, SRLC32E 1").isEqualTo(4 * 4 + 3 * 2 + 7);
        assertThat(r.flipFlops()).isEqualTo(428);
        assertThat(r.bram36()).isEqualTo(3.5);
        assertThat(r.dsp()).isEqualTo(2);
        // (195 + 29) / 4 = 56 slices by LUTs, 428 / 8 = 53.5 -> 54 by flip-flops
        assertThat(r.slicesAtLeast()).isEqualTo(56);
        assertThat(r.others()).hasToString("{BUFG=1, CARRY4=5, MUXF7=1}");
    }

    @Test
    void flipFlopsDecideTheSlicesWhenThereAreMoreOfThem() {
        XilinxSynth.Resources r = new XilinxSynth.Resources(Map.of("FDRE", 81, "LUT6", 8));
        assertThat(r.slicesAtLeast()).isEqualTo(11);
    }

    @Test
    void aModuleWithoutCellsHasNoneAndAMissingModuleIsNamed() {
        assertThat(XilinxSynth.parseStat(STAT, "Empty")).isEmpty();
        assertThatThrownBy(() -> XilinxSynth.parseStat(STAT, "Nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no module Nope in the Yosys statistics (modules: [Other, Top, Empty])");
    }

    @Test
    void devicesByNameAndAnUnknownOneListsTheKnown() {
        assertThat(XilinxSynth.device("XC6VLX365T")).isSameAs(XilinxSynth.XC6VLX365T);
        assertThat(XilinxSynth.XC6VLX365T.slices() * XilinxSynth.LUTS_PER_SLICE).isEqualTo(XilinxSynth.XC6VLX365T.luts());
        assertThatThrownBy(() -> XilinxSynth.device("xc7a35t")).hasMessage("unknown device 'xc7a35t'; known: [xc6vlx365t]");
    }
}
