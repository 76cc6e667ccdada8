package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.ChppRegisters;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Sizes of {@link BufferManagement} (paper section 4.2: a prefetched set of NAP buffer addresses, refilled from
 * host memory when low). Every rule is checked with a message that names it. docs/chpp-upload.md, "Parameters".
 *
 * @param prefetch       buffer addresses held on chip, a power of two 2..64
 * @param lowWater       a refill starts when at most this many are held, 0..prefetch-1
 * @param retryDelay     cycles to wait after a refill read failed (error completion, timeout, short data), 1..2^20
 * @param maxReadRequest PCIe Max_Read_Request_Size in bytes, a power of two 64..4096: no list read crosses it
 * @param mmioOffset     BAR offset of the three list registers, 8-byte aligned
 */
public record BufferParams(int prefetch, int lowWater, int retryDelay, int maxReadRequest, int mmioOffset) {
    public BufferParams {
        if (prefetch < 2 || prefetch > 64 || Integer.bitCount(prefetch) != 1) {
            throw new IllegalArgumentException("BufferManagement: prefetch must be a power of two 2..64, got " + prefetch);
        }
        if (lowWater < 0 || lowWater >= prefetch) {
            throw new IllegalArgumentException("BufferManagement: lowWater must be 0..prefetch-1 (" + (prefetch - 1) + "), got " + lowWater);
        }
        if (retryDelay < 1 || retryDelay > 1 << 20) {
            throw new IllegalArgumentException("BufferManagement: retryDelay must be 1..2^20 cycles, got " + retryDelay);
        }
        if (maxReadRequest < 64 || maxReadRequest > 4096 || Integer.bitCount(maxReadRequest) != 1) {
            throw new IllegalArgumentException("BufferManagement: maxReadRequest must be a power of two 64..4096 bytes, got " + maxReadRequest);
        }
        if (mmioOffset < 0 || mmioOffset % 8 != 0 || mmioOffset + BufferListRegs.REGS_BYTES > 1 << Pcie.MMIO_ADDR_BITS) {
            throw new IllegalArgumentException("BufferManagement: mmioOffset must be 8-byte aligned and leave its registers inside the "
                    + Pcie.MMIO_ADDR_BITS + "-bit BAR, got " + mmioOffset);
        }
    }

    /**
     * 64 addresses held, refill at 32 or fewer (one list read then fetches 32 entries, 256 bytes), 1024-cycle retry
     * delay, 512-byte reads ({@code PcieParams.chpp()}), registers at {@link ChppRegisters#BUFFERS}.
     * docs/chpp-upload.md, "Decisions".
     */
    public static BufferParams defaults() {
        return new BufferParams(64, 32, 1024, 512, ChppRegisters.BUFFERS);
    }

    public BufferParams withPrefetch(int n, int low) {
        return new BufferParams(n, low, retryDelay, maxReadRequest, mmioOffset);
    }

    public BufferParams withRetryDelay(int cycles) {
        return new BufferParams(prefetch, lowWater, cycles, maxReadRequest, mmioOffset);
    }

    public BufferParams withMaxReadRequest(int bytes) {
        return new BufferParams(prefetch, lowWater, retryDelay, bytes, mmioOffset);
    }

    public BufferParams withMmioOffset(int offset) {
        return new BufferParams(prefetch, lowWater, retryDelay, maxReadRequest, offset);
    }
}
