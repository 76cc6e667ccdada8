package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * The control information of one NAP, PUT or chain descriptor, from {@link DescriptorExtract} to the data-read
 * stage (paper: descriptor extract puts control, source and destination information into FIFOs). Its segments
 * follow on the source and destination streams ({@code srcCount}, {@code dstCount} of them); a NAP immediate's
 * data follows on the NAP data stream. docs/chpp-send-engine.md, "Ports".
 */
public final class SendControl extends Bundle {
    /** Descriptor Kind code: 1 NAP immediate, 2 NAP indirect, 3 PUT, 5 chain. */
    public final UInt kind = UInt(4);
    public final UInt function = UInt(Doorbell.FUNCTION_BITS);
    public final UInt qp = UInt(Doorbell.QP_BITS);
    public final Bool sce = Bool();
    public final Bool rce = Bool();
    /** The transfer answers a remote GET: every packet carries S_Flag RESP (formats: "packets of a GET's answer"). */
    public final Bool resp = Bool();
    public final UInt dstId = UInt(8);
    public final UInt qpMagic = UInt(16);
    public final UInt cookie = UInt(16);
    /** Payload bytes of the whole transfer (NAP: 0..2048; PUT, chain: 1..2^32-1). */
    public final UInt length = UInt(32);
    /** Source segments that follow (NAP immediate 0, NAP indirect 0 or 1, PUT 1, chain SrcCount). */
    public final UInt srcCount = UInt(8);
    /** Destination segments that follow (NAP 0, PUT 1, chain DstCount). */
    public final UInt dstCount = UInt(8);
}
