package org.flitkit.rtl.xud;

import java.math.BigInteger;
import java.util.Arrays;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.formats.xud.XudFormat.SendStatus;
import org.flitkit.testbench.Rng;

/** Work requests and completion entries of the XUD engines as the testbench drives and expects them (docs/xud.md). */
final class XudWork {
    private XudWork() {
    }

    /** A send request, packed as {@link XudPorts.SendWqe} (first field in the most significant bits). */
    record Send(int qp, int dlid, int dqpn, long qkey, int winId, long winMsn, int len, BigInteger data, long wrId) {
        BigInteger bits() {
            BigInteger w = BigInteger.valueOf(qp);
            w = w.shiftLeft(16).or(BigInteger.valueOf(dlid));
            w = w.shiftLeft(24).or(BigInteger.valueOf(dqpn));
            w = w.shiftLeft(32).or(BigInteger.valueOf(qkey));
            w = w.shiftLeft(16).or(BigInteger.valueOf(winId));
            w = w.shiftLeft(32).or(BigInteger.valueOf(winMsn));
            w = w.shiftLeft(8).or(BigInteger.valueOf(len));
            w = w.shiftLeft(8 * XudFormat.MTU_BYTES).or(data);
            return w.shiftLeft(32).or(BigInteger.valueOf(wrId));
        }

        /** The data packet this request must become with {@code psn}, from an adapter with LID {@code slid}. */
        BigInteger packet(int slid, int psn) {
            byte[] payload = Arrays.copyOf(XudFormat.hostBytes(data, XudFormat.MTU_BYTES), len);
            return new XudFormat.DataPacket(dlid, slid, dqpn, qp, psn, qkey, winId, winMsn, payload).encode();
        }

        /** A random valid request on {@code qp}: every field random, 0..MTU bytes, data bytes past the length too. */
        static Send random(Rng rnd, int qp, long wrId) {
            return new Send(qp, rnd.nextInt(1 << 16), rnd.nextInt(1 << 24), rnd.nextLong() >>> 32, rnd.nextInt(1 << 16),
                    rnd.nextLong() >>> 32, rnd.nextInt(XudFormat.MTU_BYTES + 1), rnd.bits(8 * XudFormat.MTU_BYTES), wrId);
        }

        Send withLen(int n) {
            return new Send(qp, dlid, dqpn, qkey, winId, winMsn, n, data, wrId);
        }

        Send onQp(int q) {
            return new Send(q, dlid, dqpn, qkey, winId, winMsn, len, data, wrId);
        }
    }

    /** A receive request, packed as {@link XudPorts.RecvWqe}. */
    static BigInteger recv(int qp, long addr, long wrId) {
        return BigInteger.valueOf(qp).shiftLeft(96).or(BigInteger.valueOf(addr).shiftLeft(32)).or(BigInteger.valueOf(wrId));
    }

    /** A send CQE without its owner bit, as the send engine emits it. */
    static BigInteger sendCqe(long wrId, SendStatus status, int syndrome, int qp, int psn) {
        BigInteger w = XudFormat.SCQE_WR_ID.set(BigInteger.ZERO, wrId);
        w = XudFormat.SCQE_STATUS.set(w, status.code());
        w = XudFormat.SCQE_SYNDROME.set(w, syndrome);
        w = XudFormat.SCQE_QP.set(w, qp);
        return XudFormat.SCQE_PSN.set(w, psn);
    }

    /** The send status an AETH syndrome completes with: class 000 success, 001 RNR NAK, anything else NAK. */
    static SendStatus statusOf(int syndrome) {
        return switch (syndrome >> 5) {
            case 0 -> SendStatus.SUCCESS;
            case 1 -> SendStatus.RNR_NAK;
            default -> SendStatus.NAK;
        };
    }

    /** A DMA write packed as {@link XudPorts.DmaWrite}: addr | data | len. */
    static BigInteger dma(long addr, BigInteger data, int len) {
        return BigInteger.valueOf(addr).shiftLeft(XudFormat.CQE_BITS + 6).or(data.shiftLeft(6)).or(BigInteger.valueOf(len));
    }
}
