package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One beat of a transfer's source data as the send engine's data stages hand it to the packer: the bytes of all
 * source segments concatenated from transfer byte 0, 16 per beat (only the transfer's last beat may be short),
 * byte i in {@code data[8i+7:8i]} (PCIe order). A beat whose {@code status} is not OK ends the transfer as failed
 * (it carries no data). docs/chpp-send-engine.md, "Data path".
 */
public final class DataBeat extends Bundle {
    public static final int DATA_BYTES = 16;

    public final UInt data = UInt(DATA_BYTES * 8);
    /** Valid bytes from byte 0: 16, or 1..16 on the last beat; 0 on an error beat. */
    public final UInt bytes = UInt(5);
    /** The transfer's last beat (an error beat is always last). */
    public final Bool last = Bool();
    /** formats/chpp {@code Status} code: OK (0), or PCIE_ERROR / COMPLETION_TIMEOUT for a failed source read. */
    public final UInt status = UInt(8);
}
