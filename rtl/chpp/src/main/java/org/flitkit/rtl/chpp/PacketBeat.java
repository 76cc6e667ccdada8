package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One 128-bit beat of a cHPP network packet on the engines' internal bus (paper section 5: 128-bit bus at
 * 250 MHz): the first beat of a packet is its 16-byte header (formats/chpp {@code HeaderLayout}, bit 127 first on
 * the wire), the following beats its payload in wire order too (payload byte 0 in bits 127:120, a short last beat
 * padded with zeros in its low bits); {@code last} marks the packet's final beat. docs/chpp-dma.md,
 * "Intra-DMA crossbar".
 */
public final class PacketBeat extends Bundle {
    /** Bus width: 16 bytes per beat, one beat per cycle. */
    public static final int DATA_BITS = 128;
    public static final int DATA_BYTES = DATA_BITS / 8;

    public final UInt data = UInt(DATA_BITS);
    /** High on the packet's last beat (a header-only packet is one beat with {@code last} high). */
    public final Bool last = Bool();
}
