package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * The 105-bit routing field and the four 198-bit flits of a management packet (head,
 * body1, body2, tail), each a {@link Format} whose members are its fields; no field straddles a
 * flit. Bit 0 of a flit is sent first. These instances are flit-local; {@link PacketLayout}
 * places the same formats in the 792-bit packet.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public final class FlitLayouts {

    /** {@code <HopNum, Hop0..Hop19>}: HopNum at the bottom, Hop i at bits [5i+9 : 5i+5]. */
    public static final Route ROUTE = new Route(Format.Place.ALONE);

    public static final Head HEAD = new Head(Format.Place.ALONE);
    public static final Body1 BODY1 = new Body1(Format.Place.ALONE);
    public static final Body2 BODY2 = new Body2(Format.Place.ALONE);
    public static final Tail TAIL = new Tail(Format.Place.ALONE);

    /** The flits in transmission order. */
    public static final List<Flit> FLITS = List.of(HEAD, BODY1, BODY2, TAIL);

    /** The Kind value each flit must carry, in the same order as {@link #FLITS}. */
    public static final List<Integer> KINDS = FLITS.stream().map(Flit::kind).toList();

    private FlitLayouts() {
    }

    /** The routing field (FRoutingField, BRoutingField, Route, ReturnRoute). */
    public static final class Route extends Format {
        public final Field HOP_NUM = field("HopNum", 0, 5, "number of valid hops, 0..20");
        private final List<Field> hops = fields("Hop", Th2.MAX_HOPS, i -> 5 + 5 * i, 5,
                i -> "output port (0..23) at the path's NRC number " + i + " (the first NRC is 0); 0 if unused");

        Route(Place place) {
            super("route", Th2.ROUTE_BITS, place);
        }

        /** {@code Hop<i>}, the output port at the path's NRC number i (0..19). */
        public Field hop(int i) {
            return indexed(hops, "hop", i);
        }
    }

    /** A 198-bit flit: every flit carries its 2-bit Kind at bits 197:196. */
    public abstract static sealed class Flit extends Format permits Head, Body1, Body2, Tail {
        public final Field KIND;
        private final int kind;

        Flit(String name, int kind, String kindMeaning, Place place) {
            super(name, Th2.FLIT_BITS, place);
            this.kind = kind;
            KIND = field("Kind", 196, 2, kindMeaning);
        }

        /** The Kind code this flit must carry. */
        public final int kind() {
            return kind;
        }
    }

    /** Flit 0: routing and addressing. */
    public static final class Head extends Flit {
        public final Field ROUTE = field("Route", 0, Th2.ROUTE_BITS, "active routing field (request: FRoutingField; response: the request's BRoutingField)");
        public final Field HOP_PTR = field("HopPtr", 105, 5, "index of the next hop to use; each NRC uses Hop[HopPtr] and increments it; not covered by the CRC");
        public final Field RT_TYPE = field("RtType", 110, 2, "routing type: 1 = source routing (always, for management); 0 = table routing");
        public final Field VC = field("VC", 112, 3, "virtual channel: always 3 for management packets");
        public final Field LEN = field("Len", 115, 5, "packet length in flits: always 4");
        public final Field DEST_TYPE = field("DestType", 120, 2, "destination chip type: 0 = NIC, 1 = NRC");
        public final Field SRC_TYPE = field("SrcType", 122, 2, "source chip type: 0 = NIC, 1 = NRC");
        public final Field TYPE = field("Type", 124, 4, "transport packet type from the descriptor: 1 = MP");
        public final Field DEST_ID = field("DestID", 128, Th2.CHIP_ID_BITS, "destination chip ID; 0xFFFF = any (chip ID not configured yet)");
        public final Field SRC_ID = field("SrcID", 144, Th2.CHIP_ID_BITS, "source chip ID: the server's NIC for requests, the answering chip for responses");
        public final Field DEST_VP = field("DestVP", 160, 6, "server VP (0..39) whose MPQ receives the response");
        public final Field SRC_VP = field("SrcVP", 166, 6, "server VP (0..39) that sent the request");
        public final Field SM = field("SM", 172, 1, "S/M from the descriptor: 0 = single-packet message");
        public final Field INST = field("Inst", 173, 1, "Inst from the descriptor: 1 = management MP, executed by the NMA");
        public final Field RINT = field("Rint", 174, 1, "raise an MPQ-not-empty interrupt when the response reaches the server");

        Head(Place place) {
            super("head", Th2.KIND_HEAD, "flit kind: 2 = head", place);
        }
    }

    /** Flit 1: return route, NMPType, TransactionID. */
    public static final class Body1 extends Flit {
        public final Field RETURN_ROUTE = field("ReturnRoute", 0, Th2.ROUTE_BITS, "routing field back to the other end (request: BRoutingField; response: the request's Route)");
        public final Field NMP_TYPE = field("NMPType", 112, NmpType.BITS, "management packet type (see NMPType codes)");
        public final Field TRANSACTION_ID = field("TransactionID", 128, 16, "transaction ID, echoed unchanged in the response");

        Body1(Place place) {
            super("body1", Th2.KIND_BODY, "flit kind: 0 = body", place);
        }
    }

    /** Flit 2: the NMPData payload. */
    public static final class Body2 extends Flit {
        public final Field NMP_DATA = field("NMPData", 0, Th2.NMP_DATA_BITS, "NMP payload, laid out per NMPType (see the NMPData layouts)");

        Body2(Place place) {
            super("body2", Th2.KIND_BODY, "flit kind: 0 = body", place);
        }
    }

    /** Flit 3: the CRC. */
    public static final class Tail extends Flit {
        public final Field CRC = field("CRC", 0, 32, "CRC-32C over the whole packet with HopPtr and CRC taken as zero");

        Tail(Place place) {
            super("tail", Th2.KIND_TAIL, "flit kind: 1 = tail", place);
        }
    }
}
