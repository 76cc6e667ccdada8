package org.flitkit.env.nrc;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.PacketLayout;

/**
 * Malformed requests for the error paths, made by editing the bits of a well-formed one and fixing the
 * CRC again (so the NMA sees a good packet with a bad field). Spec: docs/th2-formats.md (error codes).
 */
public final class RawRequests {
    private static final Field NMP_DATA = PacketLayout.BODY2.NMP_DATA;

    private RawRequests() {
    }

    /** {@code packet} with packet field {@code field} set to {@code value}, CRC recomputed. */
    public static BitVector with(BitVector packet, Field field, long value) {
        return PacketLayout.withCrc(packet.with(field, value));
    }

    /** {@code packet} with field {@code payloadField} of an NMPData view set, CRC recomputed. */
    public static BitVector withPayload(BitVector packet, Field payloadField, long value) {
        BitVector data = packet.slice(NMP_DATA).with(payloadField, value);
        return PacketLayout.withCrc(packet.with(NMP_DATA, data));
    }

    /** {@code packet} with NMPData bit {@code bit} set, CRC recomputed. */
    public static BitVector withPayloadBit(BitVector packet, int bit) {
        BitVector data = packet.slice(NMP_DATA);
        if (!data.bit(bit)) {
            data = data.flip(bit);
        }
        return PacketLayout.withCrc(packet.with(NMP_DATA, data));
    }
}
