package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * Data packets through the NRC switch core: a head flit with the management head's routing fields at the
 * same bit positions (so one decoder serves both) and a packet ID, then body flits and a tail carrying
 * 196 payload bits each. RtType 0 = table routing by DestID, VC0..VC5, Len 1..{@link #MAX_FLITS} flits;
 * Len 0 or over the maximum, or a VC the switch lacks, is malformed and dropped (docs/th2-nrc-switch.md).
 * Spec: 20-th2-management.md, "The system"; the paper's section 2.2.
 */
public final class DataLayouts {
    /** Longest data packet: a head and 7 payload flits (7 x 196 bits = 171 bytes, a 128-byte payload and its header). */
    public static final int MAX_FLITS = 8;

    public static final Head HEAD = new Head(Format.Place.ALONE);
    public static final Body BODY = new Body(Format.Place.ALONE);

    /** Head then body flits, in the generated docs' order. */
    public static final List<Format> FLITS = List.of(HEAD, BODY);

    private DataLayouts() {
    }

    /** Flit 0 of a data packet. */
    public static final class Head extends Format {
        public final Field ROUTE = field("Route", 0, Th2.ROUTE_BITS, "source route <HopNum, Hop0..Hop19> when RtType = 1; 0 for table routing");
        public final Field HOP_PTR = field("HopPtr", 105, 5, "next hop index (source routing); each NRC increments it");
        public final Field RT_TYPE = field("RtType", 110, 2, "0 = table routing (data), 1 = source routing; 2, 3 malformed");
        public final Field VC = field("VC", 112, 3, "virtual channel 0..5; 3 carries management packets first");
        public final Field LEN = field("Len", 115, 5, "packet length in flits, 1.." + MAX_FLITS + "; 0 or more is malformed");
        public final Field DEST_TYPE = field("DestType", 120, 2, "destination chip type: 0 = NIC, 1 = NRC");
        public final Field SRC_TYPE = field("SrcType", 122, 2, "source chip type: 0 = NIC, 1 = NRC");
        public final Field TYPE = field("Type", 124, 4, "transport packet type");
        public final Field DEST_ID = field("DestID", 128, Th2.CHIP_ID_BITS, "destination chip ID; it picks the routing-table entry (flat: DestID mod entries, or by region)");
        public final Field SRC_ID = field("SrcID", 144, Th2.CHIP_ID_BITS, "source chip ID");
        public final Field PACKET_ID = field("PacketID", 160, 36, "sender's packet identifier (opaque to the switch)");
        public final Field KIND = field("Kind", 196, 2, "flit kind: 2 = head, 3 = head and tail (one-flit packet)");

        Head(Place place) {
            super("data head", Th2.FLIT_BITS, place);
        }
    }

    /** Flits 1..Len-1: payload; the last one is the tail. */
    public static final class Body extends Format {
        public final Field PAYLOAD = field("Payload", 0, 196, "payload bits");
        public final Field KIND = field("Kind", 196, 2, "flit kind: 0 = body, 1 = tail (flit Len-1)");

        Body(Place place) {
            super("data body", Th2.FLIT_BITS, place);
        }
    }
}
