package org.flitkit.rtl.pcie;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One beat of a device-to-host memory request: a read of {@code len} bytes at {@code addr} under {@code tag}
 * (one beat, data unused), or a posted write of {@code len} bytes sent as ceil(len/B) beats of B bytes, byte i
 * of a beat in {@code data[8i+7:8i]}, {@code last} on the final beat. B is 64 ({@link #DmaRequest()}, the TH-2
 * NIC and XUD) or 16/32 ({@link #DmaRequest(int)}, e.g. the cHPP NIC's 128-bit bus). docs/host-pcie.md.
 */
public final class DmaRequest extends Bundle {
    public final Bool write = Bool();
    public final UInt tag = UInt(Pcie.TAG_BITS);
    public final UInt addr = UInt(Pcie.ADDR_BITS);
    /** Bytes of the whole request (1..4096); the same on every beat. */
    public final UInt len = UInt(Pcie.LEN_BITS);
    /** {@code 8 * beatBytes()} bits. */
    public final UInt data;
    public final Bool last = Bool();
    private final int beatBytes;

    /** 64-byte beats ({@link Pcie#BEAT_BYTES}). */
    public DmaRequest() {
        this(Pcie.BEAT_BYTES);
    }

    /** {@code beatBytes}-byte beats: 16, 32 or 64 (checked by {@link Pcie#checkBeatBytes}). */
    public DmaRequest(int beatBytes) {
        this.beatBytes = Pcie.checkBeatBytes(beatBytes);
        this.data = UInt(Pcie.beatBits(beatBytes));
    }

    /** Bytes per data beat. */
    public int beatBytes() {
        return beatBytes;
    }
}
