package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * The four views of the 192-bit NMPData field, chosen by NMPType: register access,
 * E2PROM access, error response and fault report. Count sits at bits 162:160 in both accesses.
 * Fields by handle: {@code PayloadLayouts.REGISTER.COUNT}, {@code PayloadLayouts.EEPROM.addr(3)}.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public final class PayloadLayouts {

    public static final RegisterAccess REGISTER = new RegisterAccess();
    public static final EepromAccess EEPROM = new EepromAccess();
    public static final ErrorResponse ERROR = new ErrorResponse();
    public static final FaultReport FAULT = new FaultReport();

    public static final List<Format> ALL = List.of(REGISTER, EEPROM, ERROR, FAULT);

    /** ErrIndex value meaning "the whole request". */
    public static final int WHOLE_REQUEST = 7;

    private PayloadLayouts() {
    }

    /** An access view: Count at bits 162:160, then per access i an address {@code addr(i)} and a data value {@code data(i)}. */
    public abstract static sealed class Addressed extends Format permits RegisterAccess, EepromAccess {
        public final Field COUNT;

        Addressed(String name, String countMeaning) {
            super(name, Th2.NMP_DATA_BITS, Place.ALONE);
            COUNT = field("Count", 160, 3, countMeaning);
        }

        abstract List<Field> addressFields();

        abstract List<Field> dataFields();

        /** How many accesses one packet can carry. */
        public final int capacity() {
            return addressFields().size();
        }

        /** Address of access {@code i}. */
        public final Field addr(int i) {
            return indexed(addressFields(), "address", i);
        }

        /** Data of access {@code i} (write request, read response). */
        public final Field data(int i) {
            return indexed(dataFields(), "data", i);
        }
    }

    /** Register access: Data0/Data1 (64 bits), Addr0/Addr1 (15 bits). */
    public static final class RegisterAccess extends Addressed {
        private final List<Field> data = fields("Data", Th2.MAX_REGISTERS, i -> 64 * i, 64, i -> i == 0
                ? "data of register 0 (write request, read response), else 0"
                : "data of register 1 (when Count = 2), else 0");
        private final List<Field> addresses = fields("Addr", Th2.MAX_REGISTERS, i -> 128 + 16 * i, 15, i -> i == 0
                ? "address of register 0 (NIC: 12 bits, upper 3 bits zero)"
                : "address of register 1 (when Count = 2), else 0");

        private RegisterAccess() {
            super("nmp-register", "number of registers, 1 or 2");
        }

        @Override
        List<Field> addressFields() {
            return addresses;
        }

        @Override
        List<Field> dataFields() {
            return data;
        }
    }

    /** E2PROM access: data Byte0..Byte5 (8 bits), Addr0..Addr5 (16 bits). */
    public static final class EepromAccess extends Addressed {
        private final List<Field> bytes = fields("Byte", Th2.MAX_EEPROM_BYTES, i -> 8 * i, 8,
                i -> "data byte for Addr" + i + " (write request, read response), else 0");
        private final List<Field> addresses = fields("Addr", Th2.MAX_EEPROM_BYTES, i -> 64 + 16 * i,
                Th2.EEPROM_ADDRESS_BITS, i -> "E2PROM byte address " + i + " (when Count > " + i + "), else 0");

        private EepromAccess() {
            super("nmp-eeprom", "number of bytes, 1..6");
        }

        @Override
        List<Field> addressFields() {
            return addresses;
        }

        @Override
        List<Field> dataFields() {
            return bytes;
        }
    }

    /** Error response; bits 162:0 echo the failed request's NMPData unchanged. */
    public static final class ErrorResponse extends Format {
        public final Field ECHO = field("Echo", 0, 163, "bits 162:0 of the failed request's NMPData, unchanged");
        public final Field ERR_CODE = field("ErrCode", 168, ErrorCode.BITS, "error code (see error codes)");
        public final Field ERR_REQ_TYPE = field("ErrReqType", 176, NmpType.BITS, "NMPType code of the failed request, as received");
        public final Field ERR_INDEX = field("ErrIndex", 184, 3, "which access failed (0..5); 7 = the request as a whole");

        private ErrorResponse() {
            super("nmp-error", Th2.NMP_DATA_BITS, Place.ALONE);
        }
    }

    /** Fault report. */
    public static final class FaultReport extends Format {
        public final Field TIMESTAMP = field("Timestamp", 0, 64, "chip cycle counter when the fault was seen");
        public final Field FAULT_STATUS = field("FaultStatus", 64, 64, "fault status register (one bit per fault code, before masking)");
        public final Field FAULT_CODE = field("FaultCode", 128, FaultCode.BITS, "fault number (see fault codes)");
        public final Field FAULT_PORT = field("FaultPort", 136, 5, "port 0..23 the fault belongs to; 31 = chip level");

        private FaultReport() {
            super("nmp-fault", Th2.NMP_DATA_BITS, Place.ALONE);
        }
    }
}
