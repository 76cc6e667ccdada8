package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;

/**
 * Typed NMPData (192 bits): one record per {@link PayloadLayouts} view. Which view applies
 * is given by the NMPType, so decoding needs it.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public sealed interface NmpPayload permits RegisterPayload, EepromPayload, ErrorPayload, FaultPayload {

    /** The 192-bit NMPData value. */
    BitVector encode();

    /**
     * Rejects (IllegalArgumentException) a payload that does not suit {@code type}, or that
     * {@code chip} (the chip executing a request or answering it) cannot address.
     */
    void checkFits(NmpType type, ChipType chip);

    static NmpPayload decode(NmpType type, BitVector nmpData) {
        if (nmpData.width() != Th2.NMP_DATA_BITS) {
            throw new IllegalArgumentException("NMPData is " + Th2.NMP_DATA_BITS + " bits, got " + nmpData.width());
        }
        if (type.isError()) {
            return ErrorPayload.decode(nmpData);
        }
        return switch (type.target()) {
            case REGISTER -> RegisterPayload.decode(type, nmpData);
            case EEPROM -> EepromPayload.decode(type, nmpData);
            case FAULT -> FaultPayload.decode(nmpData);
        };
    }
}
