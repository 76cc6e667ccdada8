package org.flitkit.rtl.pcie;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One beat of a device-to-host memory request: a read of {@code len} bytes at {@code addr} under {@code tag}
 * (one beat, data unused), or a posted write of {@code len} bytes sent as ceil(len/64) beats, byte i of a
 * beat in {@code data[8i+7:8i]}, {@code last} on the final beat. docs/host-pcie.md.
 */
public final class DmaRequest extends Bundle {
    public final Bool write = Bool();
    public final UInt tag = UInt(Pcie.TAG_BITS);
    public final UInt addr = UInt(Pcie.ADDR_BITS);
    /** Bytes of the whole request (1..4096); the same on every beat. */
    public final UInt len = UInt(Pcie.LEN_BITS);
    public final UInt data = UInt(Pcie.BEAT_BITS);
    public final Bool last = Bool();
}
