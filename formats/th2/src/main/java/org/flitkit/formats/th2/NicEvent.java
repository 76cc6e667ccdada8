package org.flitkit.formats.th2;

import java.util.Optional;
import org.flitkit.formats.core.Coded;

/**
 * Event types the NIC writes into a VP's event queue (EQ). Spec: the TH-2 management spec, descriptor
 * fields Lint, Rint and Err, NIC flow (4); layout in {@link NicHost.Event}.
 */
public enum NicEvent implements Coded {
    SEND_DONE(1, "the descriptor's packet was handed to the link (written when Lint is set)"),
    MP_ARRIVED(2, "a packet (response or fault report) was written into this VP's MPQ"),
    DESC_ERROR(3, "a descriptor was malformed: no packet, Code gives the DescError"),
    MPQ_OVERFLOW(4, "a packet for this VP was dropped: its MPQ was full (never overwritten)"),
    FETCH_ERROR(5, "the descriptor read from host memory completed with an error: the descriptor is skipped"),
    FENCE_TIMEOUT(6, "a Fen descriptor waited FENCE_TIMEOUT cycles for earlier answers: it was released");

    public static final int BITS = 8;
    private final int code;
    private final String description;

    NicEvent(int code, String description) {
        this.code = code;
        this.description = description;
    }

    @Override
    public int code() {
        return code;
    }

    public String description() {
        return description;
    }

    public static Optional<NicEvent> of(long code) {
        return Coded.find(values(), code);
    }
}
