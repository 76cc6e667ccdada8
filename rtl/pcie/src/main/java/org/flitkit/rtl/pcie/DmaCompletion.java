package org.flitkit.rtl.pcie;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One beat of a read completion: up to 64 bytes of the read under {@code tag}, in request order per tag
 * (tags may interleave), byte i in {@code data[8i+7:8i]}; {@code last} ends the read and frees its tag.
 * A status other than {@link Pcie#SC} ends the read too (one beat, no data). docs/host-pcie.md.
 */
public final class DmaCompletion extends Bundle {
    public final UInt tag = UInt(Pcie.TAG_BITS);
    public final UInt data = UInt(Pcie.BEAT_BITS);
    /** Valid bytes in this beat, 1..64 (0 with an error status). */
    public final UInt bytes = UInt(7);
    public final UInt status = UInt(Pcie.STATUS_BITS);
    public final Bool last = Bool();
}
