package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** The reader must also cope with dumps from other tools (Icarus, Verilator, GTKWave's fst2vcd). */
class VcdReaderTest {
    private static final String FOREIGN = """
            $date
                Mon Jan  1 00:00:00 2024
            $end
            $version Icarus Verilog $end
            $comment multi word
                comment $end
            $timescale
                10 ps
            $end
            $scope module tb $end
            $var reg 1 ! clk $end
            $var wire 8 " data[7:0] $end
            $scope module dut $end
            $var wire 8 " din [7:0] $end
            $var wire 4 # nib [4:1] $end
            $var real 64 $ level $end
            $var wire 1 % bit [3] $end
            $upscope $end
            $upscope $end
            $enddefinitions $end
            #0
            $dumpvars
            0!
            bx "
            b1z1 #
            r0.5 $
            1%
            $end
            #5
            1!
            b1010 "
            R1e3 $
            #10
            0!
            B11111111 "
            """;

    @Test
    void parsesHierarchyDeclarationsAndRanges() {
        VcdReader dump = VcdText.parse(FOREIGN);

        assertThat(dump.timescale()).isEqualTo("10ps");
        assertThat(dump.scopes()).containsExactly("tb", "tb.dut");
        assertThat(dump.signals()).containsOnlyKeys(
                "tb.clk", "tb.data", "tb.dut.din", "tb.dut.nib", "tb.dut.level", "tb.dut.bit");
        VcdReader.Signal nib = dump.signal("tb.dut.nib");
        assertThat(nib.width()).isEqualTo(4);
        assertThat(nib.type()).isEqualTo("wire");
        assertThat(nib.range()).isEqualTo("[4:1]");
        assertThat(dump.signal("tb.data").range()).isEqualTo("[7:0]");
        assertThat(dump.signal("tb.dut.bit").range()).isEqualTo("[3]");
        assertThat(dump.signal("tb.clk").range()).isEmpty();
        assertThat(dump.endTime()).isEqualTo(10);
    }

    @Test
    void tracksScalarAndVectorChangesIncludingAliases() {
        VcdReader dump = VcdText.parse(FOREIGN);

        VcdReader.Signal clk = dump.signal("tb.clk");
        assertThat(clk.changes()).extracting(VcdReader.Change::time).containsExactly(0L, 5L, 10L);
        assertThat(clk.valueAt(7)).isEqualTo(BigInteger.ONE);
        // data and din share identifier code '"'.
        for (String name : new String[] {"tb.data", "tb.dut.din"}) {
            VcdReader.Signal s = dump.signal(name);
            assertThat(s.valueAt(0)).as("x reads as 0").isEqualTo(BigInteger.ZERO);
            assertThat(s.valueAt(9)).isEqualTo(BigInteger.valueOf(10));
            assertThat(s.valueAt(Long.MAX_VALUE)).isEqualTo(BigInteger.valueOf(255));
        }
        assertThat(dump.signal("tb.dut.nib").valueAt(0)).isEqualTo(BigInteger.valueOf(0b101));
        assertThat(dump.signal("tb.dut.level").changes()).isEmpty();
    }

    @Test
    void reportsMissingValuesAndNamesClearly() {
        VcdReader dump = VcdText.parse(FOREIGN.replace("#0\n", "#3\n"));

        assertThatThrownBy(() -> dump.signal("tb.clk").valueAt(2))
                .isInstanceOf(NoSuchElementException.class).hasMessageContaining("tb.clk");
        assertThatThrownBy(() -> dump.signal("tb.clock"))
                .isInstanceOf(NoSuchElementException.class).hasMessageContaining("tb.clk");
    }

    @Test
    void rejectsChangesForUndeclaredIdentifiers() {
        assertThatThrownBy(() -> VcdText.parse(FOREIGN + "1?\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'?'");
    }
}
