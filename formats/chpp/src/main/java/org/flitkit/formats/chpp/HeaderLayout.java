package org.flitkit.formats.chpp;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * The 16-byte hardware header of a cHPP network packet (paper section 3.2, figure 6): a 4-DW PCIe TLP header
 * whose Fmt/Type, TC, Length, Requester ID and Address stay where PCIe has them, and whose other bits carry
 * the redefined fields. Bit 127 is the first bit on the wire: the header read as a big-endian 128-bit number,
 * so DW0 = bits 127:96 exactly as the PCIe specification draws it. Fields by handle: {@code HEADER.QP_MAGIC}.
 */
public final class HeaderLayout {

    public static final Header HEADER = new Header();

    /** S_Flag bit: post a receive completion event after this packet (NAP: always; PUT: on the last packet if asked). */
    public static final int S_FLAG_CE = 1;
    /** S_Flag bit: last packet of its transfer (NAP and GET: always). */
    public static final int S_FLAG_LAST = 2;
    /** S_Flag bit: this PUT answers a GET (the requester's receive completion then ends its GET). */
    public static final int S_FLAG_RESP = 4;
    public static final int S_FLAG_BITS = 3;
    /**
     * S_Flag of the one PUT that may have Length 0: the header-only end of a GET answer that failed at the target
     * (CE always, so the requester's software learns of it; {@link Packets#failedAnswerHeader}).
     */
    public static final int S_FLAG_FAILED_ANSWER = S_FLAG_CE | S_FLAG_LAST | S_FLAG_RESP;

    private HeaderLayout() {
    }

    /** The header's fields. */
    public static final class Header extends Format {
        public final Field FMT = field("Fmt", 125, 3, "PCIe Fmt, kept: 011 = 4-DW header with data");
        public final Field TYPE = field("Type", 120, 5, "PCIe Type, kept: 00000 = memory request (every packet travels as a posted memory write)");
        public final Field TC = field("TC", 116, Chpp.TC_BITS, "PCIe traffic class, kept: selects the virtual channel (GET on its own)");
        public final Field PKT_TYPE = field("PKTType", 114, PktType.BITS, "packet type: 1 = NAP, 2 = PUT, 3 = GET (0 refused)");
        public final Field S_FLAG = field("S_Flag", 109, S_FLAG_BITS, "control: bit 0 CE (post a receive completion), bit 1 LAST (last packet of the transfer), bit 2 RESP (PUT answering a GET)");
        public final Field LENGTH = field("Length", 96, Chpp.LENGTH_BITS, "payload bytes, 0..4096 (PCIe's Length field widened to bytes)");
        public final Field REQUESTER_ID = field("RequesterID", 80, Chpp.REQUESTER_ID_BITS, "PCIe Requester ID, kept: bus 15:8, device 7:3, function 2:0 of the sending function");
        public final Field QP_MAGIC = field("QPMagic", 64, Chpp.QP_MAGIC_BITS, "protection key agreed at connection set-up (in place of PCIe Tag and byte enables)");
        public final Field SRC_ID = field("SRC_ID", 56, Chpp.ID_BITS, "sender: processor 7:5, function 4:2, QP 1:0");
        public final Field DST_ID = field("DST_ID", 48, Chpp.ID_BITS, "receiver: processor 7:5, function 4:2, QP 1:0");
        public final Field ADDRESS = field("Address", 0, Chpp.ADDRESS_BITS, "PUT: receiver's byte address of the payload; NAP, GET: 0 (PCIe Address[47:0], kept in place)");

        private Header() {
            super("header", Chpp.HEADER_BITS, Place.ALONE);
        }
    }
}
