package org.flitkit.hdl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The warning for a {@code .named("x")} whose line assigns the signal to a Java variable of another name. */
class NamingWarningTest {
    static final class Top extends Module {
        final UInt in = input(UInt(8));
        final UInt out = output(UInt(8));
        final UInt total = regInit(UInt(8), 0).named("sum");
        final UInt same = wire(UInt(8)).named("same");

        Top() {
            UInt doubled = in.add(in).named("twice");
            UInt kept = wire(UInt(8)).named("kept");
            same.assign(doubled);
            kept.assign(same);
            total.assign(total.add(kept));
            out.assign(total);
        }
    }

    private static List<String> namingWarnings(Circuit c) {
        return c.warnings().stream().map(Circuit.Warning::message).filter(m -> m.contains("Java variable")).toList();
    }

    @Test
    void aNameThatDiffersFromItsVariableIsReportedWithItsLine() {
        Circuit c = Circuit.elaborate(Top::new);
        assertThat(namingWarnings(c)).containsExactly(
                "NamingWarningTest.java:14: the signal named 'sum' is held in the Java variable 'total'; waves, peeks and "
                        + "Verilog show 'sum'. Name it 'total' or rename the variable, so that both say the same",
                "NamingWarningTest.java:18: the signal named 'twice' is held in the Java variable 'doubled'; waves, peeks and "
                        + "Verilog show 'twice'. Name it 'doubled' or rename the variable, so that both say the same");
        assertThat(c.warnings().get(0).signal()).isEqualTo("top.sum");
        assertThat(c.warnings().get(0).loc()).isEqualTo(new SrcLoc("NamingWarningTest.java", 14));
    }
}
