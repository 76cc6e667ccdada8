package org.flitkit.formats.chpp;

/**
 * The single-packet mappings between descriptors and packets (docs/chpp-formats.md, "From descriptor to
 * packets"; paper sections 3.4.3 and 4.1): the header of a NAP and of a GET, and the PUT descriptor a receiver
 * makes of a GET packet. Cutting a PUT or chain into packets is the packer's job (MTU), not a format.
 */
public final class Packets {

    private Packets() {
    }

    /** The sender: its processor, the function whose doorbell fetched {@code d}, and {@code d}'s QP. */
    public static EndpointId source(Descriptor d, int processor, int function) {
        return new EndpointId(processor, function, d.common().qp());
    }

    /** A NAP descriptor's one packet: NAP, CE+LAST, Length = message bytes, Address 0. */
    public static PacketHeader napHeader(Descriptor d, int processor, int function, int requesterId, int tc) {
        if (d.kind().packetType() != PktType.NAP) {
            throw new IllegalArgumentException("napHeader of a " + d.kind() + " descriptor");
        }
        return new PacketHeader(PktType.NAP, tc, true, true, false, (int) d.transferBytes(), requesterId,
                d.common().qpMagic(), source(d, processor, function), d.common().dst(), 0);
    }

    /** A GET descriptor's one packet: GET, LAST, Length 32, Address 0; its payload is {@code d.encode()}. */
    public static PacketHeader getHeader(Descriptor.Get d, int processor, int function, int requesterId, int tc) {
        return new PacketHeader(PktType.GET, tc, false, true, false, Descriptor.GET_BYTES, requesterId,
                d.common().qpMagic(), source(d, processor, function), d.common().dst(), 0);
    }

    /**
     * The PUT a receiver executes for a GET packet (paper 3.4.3: the GET is rebuilt as the receiver's PUT): from
     * the GET header's DST_ID QP, to the GET's sender, with the same key, Length, SrcAddr (read here) and DstAddr
     * (the requester's), the GET's RCE and Cookie, and no send completion at the receiver (its software asked for
     * nothing). Its packets carry S_Flag RESP. Refused ({@link Rule#GET_PAYLOAD}) when the payload is not a GET
     * descriptor, or names another DST_ID or key than the header that carried it.
     */
    public static Descriptor.Put answerGet(PacketHeader get, byte[] payload) {
        if (get.type() != PktType.GET) {
            throw new IllegalArgumentException("answerGet of a " + get.type() + " packet");
        }
        Descriptor d = Descriptor.decode(payload);
        ChppFormatException.require(d instanceof Descriptor.Get, Rule.GET_PAYLOAD,
                "GET packet carries a " + d.kind() + " descriptor");
        Descriptor.Get g = (Descriptor.Get) d;
        ChppFormatException.require(g.common().dst().equals(get.dst()) && g.common().qpMagic() == get.qpMagic(),
                Rule.GET_PAYLOAD, "GET descriptor for " + g.common().dst() + String.format(" key 0x%04X", g.common().qpMagic())
                        + " in a packet for " + get.dst() + String.format(" key 0x%04X", get.qpMagic()));
        Descriptor.Common c = new Descriptor.Common(get.dst().qp(), false, g.common().rce(), get.src(), get.qpMagic(),
                g.common().cookie());
        return new Descriptor.Put(c, g.length(), g.srcAddress(), g.dstAddress());
    }

    /**
     * The header-only packet that ends a GET answer whose data the target could not read (docs/chpp-formats.md,
     * decision "failed GET answer"): PUT, S_Flag CE+LAST+RESP (CE whatever the GET's RCE: an error must reach the
     * requester's software), Length 0, Address = where the failed packet would have started, i.e. the answer's
     * DstAddr + the {@code bytesSent} bytes of the whole packets that left before the failure; SRC_ID, DST_ID,
     * QPMagic and Requester ID as the answer's other packets. The requester's receive completion then says
     * GET_FAILED with that Address.
     */
    public static PacketHeader failedAnswerHeader(Descriptor.Put answer, int processor, int function, int requesterId,
            int tc, long bytesSent) {
        if (bytesSent < 0 || bytesSent >= answer.length()) {
            throw new IllegalArgumentException("failedAnswerHeader: " + bytesSent + " bytes sent of a " + answer.length()
                    + "-byte answer; a failed answer has sent 0.." + (answer.length() - 1));
        }
        return new PacketHeader(PktType.PUT, tc, true, true, true, 0, requesterId, answer.common().qpMagic(),
                source(answer, processor, function), answer.common().dst(), answer.dstAddress() + bytesSent);
    }
}
