package org.flitkit.formats.th2;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * The 512-bit management descriptor host software puts into an SDQ: control word in
 * bits 63:0, then both routing fields, NMPType and NMPData (limbs 5..7). Fields by handle:
 * {@code DescriptorLayout.DESCRIPTOR.TRANSACTION_ID}.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public final class DescriptorLayout {

    public static final Descriptor DESCRIPTOR = new Descriptor();

    private DescriptorLayout() {
    }

    /** The descriptor's fields. */
    public static final class Descriptor extends Format {
        public final Field HEAD = field("Head", 0, 1, "descriptor marker: 1 = a valid descriptor");
        public final Field FEN = field("Fen", 1, 1, "1 = execute only after the previous descriptor completed");
        public final Field ERR = field("Err", 2, 1, "set by the NIC when it finds the descriptor malformed");
        public final Field LINT = field("Lint", 3, 1, "raise a completion interrupt at the source");
        public final Field RINT = field("Rint", 4, 1, "raise an MPQ-not-empty interrupt when the response arrives");
        public final Field SM = field("SM", 5, 1, "S/M: 0 = single-packet message (management)");
        public final Field INST = field("Inst", 6, 1, "Inst: 1 = management MP (executed by the NMA)");
        public final Field TYPE = field("Type", 8, 4, "transport packet type: 1 = MP (management is a special MP)");
        public final Field RT_TYPE = field("RtType", 12, 2, "routing type: 1 = source routing (required)");
        public final Field DEST_TYPE = field("DestType", 14, 2, "target chip type: 0 = NIC, 1 = NRC");
        public final Field DEST_ID = field("DestID", 16, Th2.CHIP_ID_BITS, "target chip ID; 0xFFFF = any (ID not configured yet)");
        public final Field TRANSACTION_ID = field("TransactionID", 32, 16, "transaction ID, 0..65535, echoed in the response");
        public final Field DEST_VP = field("DestVP", 48, 6, "VP (0..39) that receives the response");
        public final Field SRC_VP = field("SrcVP", 56, 6, "VP (0..39) that sends the request");
        public final Field F_ROUTING_FIELD = field("FRoutingField", 64, Th2.ROUTE_BITS, "forward route, server -> target");
        public final Field B_ROUTING_FIELD = field("BRoutingField", 176, Th2.ROUTE_BITS, "backward route, target -> server");
        public final Field NMP_TYPE = field("NMPType", 288, NmpType.BITS, "management packet type (a request code)");
        public final Field NMP_DATA = field("NMPData", 320, Th2.NMP_DATA_BITS, "request payload, laid out per NMPType");

        private Descriptor() {
            super("descriptor", Th2.DESCRIPTOR_BITS, Place.ALONE);
        }
    }
}
