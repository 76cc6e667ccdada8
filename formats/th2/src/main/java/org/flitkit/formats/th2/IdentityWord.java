package org.flitkit.formats.th2;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.Layout;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.UInt;

/**
 * The 64-bit identity word of a chip's port: what a link's IDENT frames carry and what the NMA's PORTn_IDENTITY and
 * PORTn_NEIGHBOUR registers read (docs/th2-link.md, "Registers"; docs/th2-nma.md). Software value and hardware word.
 */
public final class IdentityWord {
    private IdentityWord() {
    }

    public static final Layout LAYOUT = Layout.builder("identity word", 64)
            .field("chip_type", 0, 2, "0 = NIC, 1 = NRC")
            .field("port", 8, 5, "the port of that chip")
            .field("chip_id", 16, 16, "the chip's CHIP_ID")
            .field("valid", 32, 1, "1: learnt (a neighbour word is 0 until the link has exchanged IDENT frames)")
            .build();

    /** The word (software) of a learnt identity: valid [32], chip ID [31:16], port [12:8], chip type [1:0]. */
    public static long of(ChipType type, int chipId, int port) {
        return 1L << LAYOUT.field("valid").lsb() | (long) (chipId & 0xFFFF) << LAYOUT.field("chip_id").lsb()
                | (long) (port & 0x1F) << LAYOUT.field("port").lsb() | type.code();
    }

    /** The word (hardware) of a learnt identity from a 2-bit chip type, 16-bit chip ID and 5-bit port. */
    public static UInt of(Bits type, Bits chipId, Bits port) {
        return cat(lit(0, 31), TRUE(), chipId, lit(0, 3), port, lit(0, 6), type);
    }
}
