package org.flitkit.rtl.xud;

import org.flitkit.formats.xud.XudFormat;
import org.flitkit.hdl.lib.Bitwise;

/**
 * Sizes and timing of one XUD adapter, fixed at elaboration: QPs, in-flight slots per QP, the ACK timeout,
 * receive-queue and completion-queue depths and the host addresses of the two completion rings. The
 * defaults and their reasons are in docs/xud.md ("Table sizes").
 *
 * @param qps               XUD QPs on the adapter (a power of two, 2 to 256: the WQE's QP index is 8 bits)
 * @param slotsPerQp        in-flight table entries per QP; PSN p uses slot p mod slotsPerQp (a power of two, at least 2)
 * @param timeoutCycles     cycles from sending a packet to its timeout completion when no ACK came
 * @param timeoutFifoDepth  entries of the timeout FIFO (sends in the last {@code timeoutCycles}); full stalls sending
 * @param rqDepth           posted receive requests per QP (a power of two)
 * @param cqDepth           entries of each completion ring in host memory (a power of two)
 * @param sendCqBase        host address of the send completion ring
 * @param recvCqBase        host address of the receive completion ring
 */
public record XudParams(int qps, int slotsPerQp, int timeoutCycles, int timeoutFifoDepth, int rqDepth, int cqDepth,
        long sendCqBase, long recvCqBase) {
    public static final long DEFAULT_SEND_CQ_BASE = 0x1000_0000L;
    public static final long DEFAULT_RECV_CQ_BASE = 0x2000_0000L;

    public XudParams {
        // the QP and slot indices are at least one bit wide
        pow2("qps", qps, 2, 256);
        pow2("slotsPerQp", slotsPerQp, 2, 1 << 16);
        pow2("rqDepth", rqDepth, 1, 1 << 16);
        pow2("cqDepth", cqDepth, 1, 1 << 20);
        if (timeoutCycles < 2 || timeoutCycles > 1 << 24) {
            throw new IllegalArgumentException("timeoutCycles must be in 2..2^24, got " + timeoutCycles);
        }
        if (timeoutFifoDepth < 1) {
            throw new IllegalArgumentException("timeoutFifoDepth must be at least 1, got " + timeoutFifoDepth);
        }
        if ((sendCqBase | recvCqBase) % XudFormat.CQE_BYTES != 0 || sendCqBase < 0 || recvCqBase < 0) {
            throw new IllegalArgumentException("completion rings must be 32-byte aligned: send 0x" + Long.toHexString(sendCqBase)
                    + ", recv 0x" + Long.toHexString(recvCqBase));
        }
    }

    /** 4 QPs, 64 slots each, 2,000-cycle timeout, 128 timeout-FIFO entries, 64 receive requests per QP, 1,024-entry rings. */
    public static XudParams defaults() {
        return new XudParams(4, 64, 2_000, 128, 64, 1024, DEFAULT_SEND_CQ_BASE, DEFAULT_RECV_CQ_BASE);
    }

    public XudParams withTimeout(int cycles) {
        return new XudParams(qps, slotsPerQp, cycles, timeoutFifoDepth, rqDepth, cqDepth, sendCqBase, recvCqBase);
    }

    public XudParams withSlotsPerQp(int n) {
        return new XudParams(qps, n, timeoutCycles, timeoutFifoDepth, rqDepth, cqDepth, sendCqBase, recvCqBase);
    }

    public XudParams withRqDepth(int n) {
        return new XudParams(qps, slotsPerQp, timeoutCycles, timeoutFifoDepth, n, cqDepth, sendCqBase, recvCqBase);
    }

    public int qpBits() {
        return Bitwise.log2Ceil(qps);
    }

    public int slotBits() {
        return Bitwise.log2Ceil(slotsPerQp);
    }

    private static void pow2(String name, int v, int min, int max) {
        if (v < min || v > max || Integer.bitCount(v) != 1) {
            throw new IllegalArgumentException(name + " must be a power of two in " + min + ".." + max + ", got " + v);
        }
    }
}
