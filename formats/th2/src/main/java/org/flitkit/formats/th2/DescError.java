package org.flitkit.formats.th2;

import java.util.Optional;
import org.flitkit.formats.core.Coded;

/**
 * Why the NIC's descriptor dispatch refused a descriptor (Err): the DESC_ERROR event's Code. Checked in
 * this order, the first failing check is reported. Spec: the TH-2 management spec, descriptor field Err.
 */
public enum DescError implements Coded {
    NO_HEAD(1, "Head is 0: not a descriptor"),
    ERR_SET(2, "Err was already set by software"),
    NOT_MANAGEMENT(3, "Type/SM/Inst are not a management MP, or RtType is not source routing"),
    BAD_NMP_TYPE(4, "NMPType is not one of the four requests"),
    BAD_DEST_TYPE(5, "DestType is not NIC or NRC"),
    BAD_VP(6, "SrcVP is not the posting VP, or DestVP above 39"),
    BAD_ROUTE(7, "a routing field has HopNum above 20 or a hop set beyond HopNum"),
    BAD_COUNT(8, "register Count not 1..2, or E2PROM Count not 1..6");

    public static final int BITS = 8;
    private final int code;
    private final String description;

    DescError(int code, String description) {
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

    public static Optional<DescError> of(long code) {
        return Coded.find(values(), code);
    }
}
