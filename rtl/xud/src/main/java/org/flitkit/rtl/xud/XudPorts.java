package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The adapter's host-side interface bundles: QP creation, send and receive work requests (doorbells that
 * carry the whole request, the send data inline), and the DMA write request to host memory. Paper
 * sections 2.1 (the send request names the receiver's LID and QP) and 2.2 (receive requests, CQEs).
 */
public final class XudPorts {
    private XudPorts() {
    }

    /** Creating (or re-creating) a QP sets its initial {@code cur_psn} (paper section 2.1) and enables it. */
    public static final class QpCreate extends Bundle {
        public final UInt qp = UInt(8);
        public final UInt initPsn = UInt(XudFormat.PSN_BITS);
    }

    /** A send request with inline data (like IBV_SEND_INLINE): destination, window fields, length, data, wr_id. */
    public static final class SendWqe extends Bundle {
        public final UInt qp = UInt(8);
        public final UInt dlid = UInt(16);
        public final UInt dqpn = UInt(24);
        public final UInt qkey = UInt(32);
        public final UInt winId = UInt(16);
        public final UInt winMsn = UInt(32);
        /** payload bytes; more than the MTU is a local length error */
        public final UInt len = UInt(8);
        /** payload, byte k in bits [8k+7:8k] */
        public final UInt data = UInt(8 * XudFormat.MTU_BYTES);
        public final UInt wrId = UInt(32);
    }

    /** A receive request: the host buffer the next message for {@code qp} goes to. */
    public static final class RecvWqe extends Bundle {
        public final UInt qp = UInt(8);
        public final UInt addr = UInt(64);
        public final UInt wrId = UInt(32);
    }

    /** A posted DMA write of 1..32 bytes to host memory, byte k of {@code data} to {@code addr + k}. */
    public static final class DmaWrite extends Bundle {
        public final UInt addr = UInt(64);
        public final UInt data = UInt(8 * XudFormat.CQE_BYTES);
        public final UInt len = UInt(6);
    }

    /** The QP-creation port: a {@link QpCreate} with a valid flag. */
    public static Valid<QpCreate> qpCreate() {
        return Valid.of(QpCreate::new);
    }

    /**
     * The enable bits of the QPs, one per QP, set by a creation in range (paper section 2.1); both engines keep
     * a copy. Built in the module under construction.
     */
    static UInt qpEnables(Valid<QpCreate> create, XudParams p) {
        UInt qpEnabled = regInit(UInt(p.qps()), 0).named("qpEnabled");
        when(create.valid.and(create.bits.qp.lt(p.qps())),
                () -> qpEnabled.assign(qpEnabled.or(lit(1, p.qps()).shlTrunc(create.bits.qp.bits(p.qpBits() - 1, 0)))));
        return qpEnabled;
    }

    public static Decoupled<UInt> packetStream() {
        return Decoupled.of(UInt(XudFormat.CONTAINER_BITS));
    }

    public static Decoupled<UInt> cqeStream() {
        return Decoupled.of(UInt(XudFormat.CQE_BITS));
    }
}
