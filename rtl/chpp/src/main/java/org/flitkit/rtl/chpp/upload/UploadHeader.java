package org.flitkit.rtl.chpp.upload;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * What the write side of {@link PutUpload} and {@link NapUpload} keeps of one accepted packet, queued between
 * the header's arrival and the packet's last write: where its payload goes, how long it is, and its completion
 * entry's fields. docs/chpp-upload.md, "How it works".
 */
public final class UploadHeader extends Bundle {
    /** Host address of payload byte 0: PUT, the header's Address; NAP, the receive buffer (0 when none). */
    public final UInt addr = UInt(64);
    public final UInt length = UInt(Chpp.LENGTH_BITS);
    /** Post a receive completion after the last write (PUT: S_Flag CE; NAP: always). */
    public final Bool ce = Bool();
    /** S_Flag RESP (a PUT answering a GET). */
    public final Bool resp = Bool();
    public final UInt srcId = UInt(Chpp.ID_BITS);
    public final UInt dstId = UInt(Chpp.ID_BITS);
    /** NAP without a receive buffer: nothing written, the completion says NO_RECEIVE_BUFFER. */
    public final Bool noBuffer = Bool();
    /**
     * PUT only: the header-only end of a failed GET answer (Length 0, S_Flag CE+LAST+RESP): nothing written, the
     * completion says GET_FAILED at the header's Address (docs/chpp-upload.md, "How it works").
     */
    public final Bool getFailed = Bool();
}
