package org.flitkit.rtl.chpp.receive;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One write of {@link ReceiveDispatch}'s QPMagic key table (paper section 3.2: the key agreed when the connection
 * is set up): QP {@code qp} = function x 4 + QP of the function (the low 5 bits of DST_ID), its 16-bit key, and
 * whether the QP accepts packets at all. docs/chpp-receive-engine.md, "ReceiveDispatch".
 */
public final class QpKeyWrite extends Bundle {
    /** Local QPs: 8 functions (PF + 7 VFs) x 4 QPs. */
    public static final int QP_INDEX_BITS = Chpp.FUNCTION_BITS + Chpp.QP_BITS;
    public static final int LOCAL_QPS = 1 << QP_INDEX_BITS;

    public final UInt qp = UInt(QP_INDEX_BITS);
    public final UInt key = UInt(Chpp.QP_MAGIC_BITS);
    /** Low: the QP is closed and every packet for it is refused as a key mismatch. */
    public final Bool enable = Bool();
}
