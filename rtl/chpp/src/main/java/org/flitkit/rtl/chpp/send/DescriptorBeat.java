package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.upload.GetAnswer;
import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One 16-byte beat of a fetched descriptor, from {@link DescriptorRead} to {@link DescriptorExtract}: descriptor
 * bytes 16k..16k+15 in {@code data} (byte i in bits 8i+7..8i, so descriptor bit 128k+b is data bit b, the formats'
 * little-endian word order), with the doorbell's function, QP and length on every beat. A read that failed is one
 * beat with {@code status} not OK and {@code last}. docs/chpp-send-engine.md, "Ports".
 */
public final class DescriptorBeat extends Bundle {
    public final UInt function = UInt(Doorbell.FUNCTION_BITS);
    public final UInt qp = UInt(Doorbell.QP_BITS);
    /** Descriptor bytes as the doorbell gave them. */
    public final UInt length = UInt(Doorbell.LENGTH_BITS);
    /** formats/chpp Status code: OK, or BAD_DESCRIPTOR (length refused), PCIE_ERROR, COMPLETION_TIMEOUT. */
    public final UInt status = UInt(8);
    public final UInt data = UInt(PacketBeat.DATA_BITS);
    public final Bool last = Bool();
    /** The descriptor answers a remote GET ({@link GetAnswer}): its packets carry S_Flag RESP. 0 for local doorbells. */
    public final Bool resp = Bool();
}
