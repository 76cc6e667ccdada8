package org.flitkit.rtl.pcie;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One beat of a read completion: up to B bytes of the read under {@code tag}, in request order per tag
 * (tags may interleave), byte i in {@code data[8i+7:8i]}; {@code last} ends the read and frees its tag.
 * A status other than {@link Pcie#SC} ends the read too (one beat, no data). B is 64 ({@link #DmaCompletion()})
 * or 16/32 ({@link #DmaCompletion(int)}). docs/host-pcie.md.
 */
public final class DmaCompletion extends Bundle {
    public final UInt tag = UInt(Pcie.TAG_BITS);
    /** {@code 8 * beatBytes()} bits. */
    public final UInt data;
    /** Valid bytes in this beat, 1..B (0 with an error status); {@link Pcie#beatCountBits} wide (7 bits at 64). */
    public final UInt bytes;
    public final UInt status = UInt(Pcie.STATUS_BITS);
    public final Bool last = Bool();
    private final int beatBytes;

    /** 64-byte beats ({@link Pcie#BEAT_BYTES}). */
    public DmaCompletion() {
        this(Pcie.BEAT_BYTES);
    }

    /** {@code beatBytes}-byte beats: 16, 32 or 64 (checked by {@link Pcie#checkBeatBytes}). */
    public DmaCompletion(int beatBytes) {
        this.beatBytes = Pcie.checkBeatBytes(beatBytes);
        this.data = UInt(Pcie.beatBits(beatBytes));
        this.bytes = UInt(Pcie.beatCountBits(beatBytes));
    }

    /** Bytes per data beat. */
    public int beatBytes() {
        return beatBytes;
    }
}
