package org.flitkit.formats.th2;

import java.util.Optional;
import org.flitkit.formats.core.BitVector;

/**
 * Error-response NMPData: error code, the failed request's raw NMPType code, the index of
 * the failed access (7 = whole request) and an echo of the request's NMPData bits 162:0.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public record ErrorPayload(ErrorCode error, int requestType, int index, BitVector echo) implements NmpPayload {

    private static final PayloadLayouts.ErrorResponse L = PayloadLayouts.ERROR;
    private static final int ECHO_BITS = L.ECHO.width();

    public ErrorPayload {
        if (error == null) {
            throw new IllegalArgumentException("error code must not be null");
        }
        if (requestType < 0 || requestType >= 1 << NmpType.BITS) {
            throw new IllegalArgumentException("request NMPType code " + requestType + " does not fit 6 bits");
        }
        if (index < 0 || (index >= Th2.MAX_EEPROM_BYTES && index != PayloadLayouts.WHOLE_REQUEST)) {
            throw new IllegalArgumentException("ErrIndex " + index + " must be 0..5 or 7 (whole request)");
        }
        if (echo == null || echo.width() != ECHO_BITS) {
            throw new IllegalArgumentException("echo must be " + ECHO_BITS + " bits");
        }
    }

    /** Builds an error payload from the failed request's raw type code and raw 192-bit NMPData. */
    public static ErrorPayload of(ErrorCode error, long requestType, int index, BitVector requestNmpData) {
        if (requestNmpData.width() != Th2.NMP_DATA_BITS) {
            throw new IllegalArgumentException("request NMPData is " + Th2.NMP_DATA_BITS + " bits, got "
                    + requestNmpData.width());
        }
        return new ErrorPayload(error, (int) requestType, index, requestNmpData.slice(0, ECHO_BITS));
    }

    /** The failed request's type, if its code is a known NMPType. */
    public Optional<NmpType> knownRequestType() {
        try {
            return Optional.of(NmpType.fromCode(requestType));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Console form, e.g. {@code reason=unmapped-address request=0x08 index=1}. */
    public String console() {
        return error.console() + " request=0x" + String.format("%02x", requestType)
                + " index=" + (index == PayloadLayouts.WHOLE_REQUEST ? "all" : Integer.toString(index));
    }

    @Override
    public void checkFits(NmpType type, ChipType chip) {
        if (!type.isError()) {
            throw new IllegalArgumentException("an error payload does not suit NMPType " + type);
        }
    }

    @Override
    public BitVector encode() {
        return L.zero().with(L.ECHO, echo)
                .with(L.ERR_CODE, error.code())
                .with(L.ERR_REQ_TYPE, requestType)
                .with(L.ERR_INDEX, index);
    }

    static ErrorPayload decode(BitVector bits) {
        L.layout().requireReservedZero(bits);
        return new ErrorPayload(ErrorCode.fromCode(bits.get(L.ERR_CODE)),
                (int) bits.get(L.ERR_REQ_TYPE),
                (int) bits.get(L.ERR_INDEX),
                bits.slice(L.ECHO));
    }
}
