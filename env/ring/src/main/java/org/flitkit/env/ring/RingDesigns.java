package org.flitkit.env.ring;

import org.flitkit.rtl.ring.RegisterInsertionNode;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.rtl.ring.RingParams;
import org.flitkit.rtl.ring.SlottedRingNode;

/**
 * The ring stops of the Verilog and difftest catalog (docs/multiring.md, "RTL"); the larger designs, whose Verilator
 * builds would lengthen the CI difftest, are {@link ExampleMultiRing} and {@link ExampleDfsSwitch} for {@code --class}.
 */
public final class RingDesigns {
    private RingDesigns() {
    }

    /** One slotted-ring stop with 16-node addresses and 16-bit tags. */
    public static SlottedRingNode node() {
        return new SlottedRingNode(RingParams.forNodes(16));
    }

    /** One register-insertion stop with its insertion buffer, 16-node addresses. */
    public static RegisterInsertionNode insertionNode() {
        return new RegisterInsertionNode(RingParams.forNodes(16), RingKind.INSERTION_BUFFER);
    }
}
