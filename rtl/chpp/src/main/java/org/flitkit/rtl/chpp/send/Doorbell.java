package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One doorbell, as software writes it and as it waits in a function's doorbell FIFO: where the descriptor is
 * in host memory, how long it is, and which of the function's queue pairs it belongs to (paper, section 3.4.2:
 * "the doorbell carries an address field and a length field"; spec 30-chpp-dma.md, "The system"). The one
 * place these widths are defined; docs/chpp-dma.md, "Doorbell layout".
 */
public final class Doorbell extends Bundle {
    /** Host physical address of the descriptor: a full 64-bit PCIe memory address. */
    public static final int ADDR_BITS = 64;
    /** Descriptor length in bytes, 1..4096: one PCIe memory read (Max_Read_Request_Size is at most 4096 bytes). */
    public static final int LENGTH_BITS = 13;
    /** Queue pair within the function: the paper gives every function 4 QPs. */
    public static final int QP_BITS = 2;
    /** Function id width wherever a function is named: the 8-bit PCIe function number (ARI). */
    public static final int FUNCTION_BITS = 8;
    /** Longest descriptor one read fetches. */
    public static final int MAX_LENGTH = 4096;

    public final UInt addr = UInt(ADDR_BITS);
    public final UInt length = UInt(LENGTH_BITS);
    public final UInt qp = UInt(QP_BITS);
}
