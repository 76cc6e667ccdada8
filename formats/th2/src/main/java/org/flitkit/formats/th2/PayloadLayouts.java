package org.flitkit.formats.th2;

import java.util.List;

/**
 * The four views of the 192-bit NMPData field, chosen by NMPType: register access,
 * E2PROM access, error response and fault report. Count sits at bits 162:160 in both accesses.
 * Spec: shared/spec/20-th2-management.md, "Management packets and descriptors".
 */
public final class PayloadLayouts {

    public static final Layout REGISTER = Layout.builder("nmp-register", Th2.NMP_DATA_BITS)
            .field("Data0", 0, 64, "data of register 0 (write request, read response), else 0")
            .field("Data1", 64, 64, "data of register 1 (when Count = 2), else 0")
            .field("Addr0", 128, 15, "address of register 0 (NIC: 12 bits, upper 3 bits zero)")
            .field("Addr1", 144, 15, "address of register 1 (when Count = 2), else 0")
            .field("Count", 160, 3, "number of registers, 1 or 2")
            .build();

    public static final Layout EEPROM = eeprom();

    /** Bits 162:0 echo the failed request's NMPData unchanged. */
    public static final Layout ERROR = Layout.builder("nmp-error", Th2.NMP_DATA_BITS)
            .field("Echo", 0, 163, "bits 162:0 of the failed request's NMPData, unchanged")
            .field("ErrCode", 168, ErrorCode.BITS, "error code (see error codes)")
            .field("ErrReqType", 176, NmpType.BITS, "NMPType code of the failed request, as received")
            .field("ErrIndex", 184, 3, "which access failed (0..5); 7 = the request as a whole")
            .build();

    public static final Layout FAULT = Layout.builder("nmp-fault", Th2.NMP_DATA_BITS)
            .field("Timestamp", 0, 64, "chip cycle counter when the fault was seen")
            .field("FaultStatus", 64, 64, "fault status register (one bit per fault code, before masking)")
            .field("FaultCode", 128, FaultCode.BITS, "fault number (see fault codes)")
            .field("FaultPort", 136, 5, "port 0..23 the fault belongs to; 31 = chip level")
            .build();

    public static final List<Layout> ALL = List.of(REGISTER, EEPROM, ERROR, FAULT);

    /** ErrIndex value meaning "the whole request". */
    public static final int WHOLE_REQUEST = 7;

    private PayloadLayouts() {
    }

    private static Layout eeprom() {
        Layout.Builder b = Layout.builder("nmp-eeprom", Th2.NMP_DATA_BITS);
        for (int i = 0; i < Th2.MAX_EEPROM_BYTES; i++) {
            b.field("Byte" + i, 8 * i, 8, "data byte for Addr" + i + " (write request, read response), else 0");
        }
        for (int i = 0; i < Th2.MAX_EEPROM_BYTES; i++) {
            b.field("Addr" + i, 64 + 16 * i, Th2.EEPROM_ADDRESS_BITS, "E2PROM byte address " + i + " (when Count > " + i + "), else 0");
        }
        return b.field("Count", 160, 3, "number of bytes, 1..6").build();
    }
}
