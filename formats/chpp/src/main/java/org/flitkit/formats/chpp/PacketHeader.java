package org.flitkit.formats.chpp;

import org.flitkit.formats.core.BitVector;

/**
 * One decoded cHPP hardware header (paper section 3.2; layout {@link HeaderLayout}): encode to the 16 wire
 * bytes or a 128-bit {@link BitVector}, decode back with every rule of docs/chpp-formats.md checked. The
 * constructor applies the same rules, so an illegal header cannot be built.
 *
 * @param type        NAP, PUT or GET
 * @param tc          traffic class 0..7
 * @param ce          S_Flag CE: post a receive completion event
 * @param last        S_Flag LAST: last packet of the transfer
 * @param resp        S_Flag RESP: a PUT answering a GET
 * @param length      payload bytes: NAP 0..2048, PUT 1..4096 (0 only for a failed GET answer: CE+LAST+RESP), GET 32
 * @param requesterId PCIe Requester ID of the sending function
 * @param qpMagic     16-bit protection key
 * @param src         sending endpoint
 * @param dst         receiving endpoint
 * @param address     PUT: 48-bit remote byte address; NAP, GET: 0
 */
public record PacketHeader(PktType type, int tc, boolean ce, boolean last, boolean resp, int length, int requesterId,
                           int qpMagic, EndpointId src, EndpointId dst, long address) {

    private static final HeaderLayout.Header H = HeaderLayout.HEADER;

    /** The GET packet's payload: one GET descriptor. */
    public static final int GET_PAYLOAD = Descriptor.GET_BYTES;

    public PacketHeader {
        ChppBits.notNull("PKTType", type);
        ChppBits.notNull("SRC_ID", src);
        ChppBits.notNull("DST_ID", dst);
        ChppBits.range("TC", tc, (1 << Chpp.TC_BITS) - 1);
        ChppBits.range("RequesterID", requesterId, (1 << Chpp.REQUESTER_ID_BITS) - 1);
        ChppBits.range("QPMagic", qpMagic, (1 << Chpp.QP_MAGIC_BITS) - 1);
        ChppBits.range("Length", length, (1 << Chpp.LENGTH_BITS) - 1);
        ChppBits.range("Address", address, (1L << Chpp.ADDRESS_BITS) - 1);
        check(type, ce, last, resp, length, address);
    }

    /** The S_Flag field value. */
    public int sFlag() {
        return (ce ? HeaderLayout.S_FLAG_CE : 0) | (last ? HeaderLayout.S_FLAG_LAST : 0) | (resp ? HeaderLayout.S_FLAG_RESP : 0);
    }

    /** The header as a 128-bit value, bit 127 first on the wire. */
    public BitVector toBits() {
        return H.zero()
                .with(H.FMT, Chpp.FMT_MWR_4DW).with(H.TYPE, Chpp.TYPE_MEM).with(H.TC, tc)
                .with(H.PKT_TYPE, type.code()).with(H.S_FLAG, sFlag()).with(H.LENGTH, length)
                .with(H.REQUESTER_ID, requesterId).with(H.QP_MAGIC, qpMagic)
                .with(H.SRC_ID, src.encode()).with(H.DST_ID, dst.encode()).with(H.ADDRESS, address);
    }

    /** The 16 wire bytes, byte 0 first (PCIe byte order: DW0 byte 0 = Fmt/Type). */
    public byte[] toBytes() {
        return ChppBits.toBE(toBits());
    }

    /** Decodes 16 wire bytes. */
    public static PacketHeader fromBytes(byte[] bytes) {
        ChppBits.size("a header", bytes, Chpp.HEADER_BYTES);
        return decode(ChppBits.fromBE(bytes));
    }

    /**
     * Decodes a 128-bit header. Rules in this order: size, reserved bits, Fmt/Type, PKTType, Length, then the
     * per-type rules (NAP size and Address, PUT empty and end address, GET length and Address), then S_Flag.
     */
    public static PacketHeader decode(BitVector bits) {
        if (bits.width() != Chpp.HEADER_BITS) {
            throw new ChppFormatException(Rule.WRONG_SIZE, "a header is " + Chpp.HEADER_BITS + " bits, got " + bits.width());
        }
        ChppBits.reservedZero(H.layout(), bits, 0);
        long fmt = bits.get(H.FMT);
        long tlpType = bits.get(H.TYPE);
        ChppFormatException.require(fmt == Chpp.FMT_MWR_4DW && tlpType == Chpp.TYPE_MEM, Rule.NOT_MEMORY_WRITE,
                "Fmt/Type = " + bin(fmt, 3) + "/" + bin(tlpType, 5) + ", expected 011/00000");
        PktType type = PktType.fromCode(bits.get(H.PKT_TYPE));
        int sFlag = (int) bits.get(H.S_FLAG);
        return new PacketHeader(type, (int) bits.get(H.TC),
                (sFlag & HeaderLayout.S_FLAG_CE) != 0, (sFlag & HeaderLayout.S_FLAG_LAST) != 0,
                (sFlag & HeaderLayout.S_FLAG_RESP) != 0, (int) bits.get(H.LENGTH), (int) bits.get(H.REQUESTER_ID),
                (int) bits.get(H.QP_MAGIC), EndpointId.decode(bits.get(H.SRC_ID)), EndpointId.decode(bits.get(H.DST_ID)),
                bits.get(H.ADDRESS));
    }

    private static void check(PktType type, boolean ce, boolean last, boolean resp, int length, long address) {
        ChppFormatException.require(length <= Chpp.MAX_PAYLOAD, Rule.LENGTH_TOO_LARGE,
                "Length " + length + " above " + Chpp.MAX_PAYLOAD + " bytes");
        switch (type) {
            case NAP -> {
                ChppFormatException.require(length <= Chpp.MAX_NAP, Rule.NAP_TOO_LARGE,
                        "NAP Length " + length + " above " + Chpp.MAX_NAP + " bytes");
                ChppFormatException.require(address == 0, Rule.ADDRESS_NOT_ZERO,
                        "NAP Address 0x" + Long.toHexString(address) + ", must be 0 (the receiver picks the buffer)");
                ChppFormatException.require(ce && last && !resp, Rule.BAD_S_FLAG,
                        "NAP S_Flag " + flags(ce, last, resp) + ", must be CE+LAST (a NAP is one packet and always posts a receive completion)");
            }
            case PUT -> {
                // the one header-only PUT: the end of a GET answer whose data the target could not read
                ChppFormatException.require(length >= 1 || (ce && last && resp), Rule.PUT_EMPTY, "PUT Length 0 with S_Flag "
                        + flags(ce, last, resp) + ", allowed only as a failed GET answer (CE+LAST+RESP)");
                ChppFormatException.require(address + length <= 1L << Chpp.ADDRESS_BITS, Rule.ADDRESS_TOO_WIDE,
                        "PUT Address 0x" + Long.toHexString(address) + " + " + length + " bytes beyond the 48-bit address space");
            }
            case GET -> {
                ChppFormatException.require(length == GET_PAYLOAD, Rule.GET_LENGTH,
                        "GET Length " + length + ", must be " + GET_PAYLOAD + " (one GET descriptor)");
                ChppFormatException.require(address == 0, Rule.ADDRESS_NOT_ZERO,
                        "GET Address 0x" + Long.toHexString(address) + ", must be 0 (addresses are in the carried descriptor)");
                ChppFormatException.require(!ce && last && !resp, Rule.BAD_S_FLAG,
                        "GET S_Flag " + flags(ce, last, resp) + ", must be LAST only (completions are requested in the carried descriptor)");
            }
            default -> throw new IllegalStateException(type.toString());
        }
        ChppFormatException.require(!ce || last, Rule.BAD_S_FLAG,
                "S_Flag " + flags(ce, last, resp) + ": CE only on the LAST packet of a transfer");
    }

    private static String flags(boolean ce, boolean last, boolean resp) {
        String s = (ce ? "+CE" : "") + (last ? "+LAST" : "") + (resp ? "+RESP" : "");
        return s.isEmpty() ? "none" : s.substring(1);
    }

    private static String bin(long v, int w) {
        return String.format("%" + w + "s", Long.toBinaryString(v)).replace(' ', '0');
    }
}
