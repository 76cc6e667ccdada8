package org.flitkit.rtl.nma.hw;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.BODY2;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;

/**
 * Hardware builders of the packets an NMA sends, bit for bit what {@code ManagementPacket.response()},
 * {@code errorResponse()}/{@code errorResponseTo()} build: routes swapped, HopPtr 0, Dest = the request's
 * Src, SrcID = this chip, VPs/Rint/TransactionID kept, framing constants, CRC by {@link Crc32cHw}.
 * Spec: 20-th2-management.md, "Management packets and descriptors"; docs/th2-formats.md "Route in use".
 */
public final class Responses {
    private Responses() {
    }

    /** The framing every management packet carries: flit kinds, VC3, Len 4, source routing, MP/SM/Inst. */
    public static Map<Field, Bits> framing() {
        Map<Field, Bits> m = new LinkedHashMap<>();
        for (FlitLayouts.Flit flit : PacketLayout.FLITS) {
            m.put(flit.KIND, lit(flit.kind(), flit.KIND.width()));
        }
        m.put(HEAD.VC, lit(Th2.MANAGEMENT_VC, 3));
        m.put(HEAD.LEN, lit(Th2.PACKET_FLITS, 5));
        m.put(HEAD.RT_TYPE, lit(Th2.RT_SOURCE, 2));
        m.put(HEAD.TYPE, lit(Th2.TYPE_MP, 4));
        m.put(HEAD.SM, lit(Th2.MANAGEMENT_SM ? 1 : 0, 1));
        m.put(HEAD.INST, lit(Th2.MANAGEMENT_INST ? 1 : 0, 1));
        return m;
    }

    /**
     * Response to request {@code req} (792 bits) without its CRC: {@code srcType}/{@code srcId} are this
     * chip's type (2 bits) and ID (16 bits), {@code nmpType} 6 bits, {@code nmpData} 192 bits.
     */
    public static UInt responseNoCrc(Bits req, Bits srcType, Bits srcId, Bits nmpType, Bits nmpData) {
        Map<Field, Bits> m = framing();
        m.put(HEAD.ROUTE, LayoutBits.get(req, BODY1.RETURN_ROUTE));
        m.put(BODY1.RETURN_ROUTE, LayoutBits.get(req, HEAD.ROUTE));
        m.put(HEAD.DEST_TYPE, LayoutBits.get(req, HEAD.SRC_TYPE));
        m.put(HEAD.DEST_ID, LayoutBits.get(req, HEAD.SRC_ID));
        m.put(HEAD.SRC_TYPE, srcType);
        m.put(HEAD.SRC_ID, srcId);
        m.put(HEAD.DEST_VP, LayoutBits.get(req, HEAD.DEST_VP));
        m.put(HEAD.SRC_VP, LayoutBits.get(req, HEAD.SRC_VP));
        m.put(HEAD.RINT, LayoutBits.get(req, HEAD.RINT));
        m.put(BODY1.TRANSACTION_ID, LayoutBits.get(req, BODY1.TRANSACTION_ID));
        m.put(BODY1.NMP_TYPE, nmpType);
        m.put(BODY2.NMP_DATA, nmpData);
        return LayoutBits.build(PacketLayout.PACKET, m);
    }

    /** {@link #responseNoCrc} with the CRC filled in. */
    public static UInt response(Bits req, Bits srcType, Bits srcId, Bits nmpType, Bits nmpData) {
        return Crc32cHw.withCrc(responseNoCrc(req, srcType, srcId, nmpType, nmpData));
    }

    public static UInt response(Bits req, ChipType chip, Bits srcId, Bits nmpType, Bits nmpData) {
        return response(req, lit(chip.code(), 2), srcId, nmpType, nmpData);
    }

    /** The request's NMPType with bit 0 set: the normal response type of a request code. */
    public static UInt responseType(Bits req) {
        return LayoutBits.get(req, BODY1.NMP_TYPE).or(1);
    }

    /** Error response type for a raw request code: E2PROM class (code[5:3] = 2) EEP_ERROR_RESP, else REG_ERROR_RESP. */
    public static UInt errorType(Bits rawType) {
        UInt t = rawType.asUInt();
        return mux(t.bits(5, 3).eq(2), // code[5:3] = 2: E2PROM class
                lit(NmpType.EEP_ERROR_RESP.code(), NmpType.BITS), lit(NmpType.REG_ERROR_RESP.code(), NmpType.BITS));
    }

    /** Error NMPData: ErrCode (8 bits), ErrReqType = the raw request type, ErrIndex (3 bits), echo of NMPData[162:0]. */
    public static UInt errorData(Bits req, Bits errCode, Bits errIndex) {
        PayloadLayouts.ErrorResponse e = PayloadLayouts.ERROR;
        Map<Field, Bits> m = new LinkedHashMap<>();
        m.put(e.ECHO, PacketWords.payload(req, e.ECHO));
        m.put(e.ERR_CODE, errCode);
        m.put(e.ERR_REQ_TYPE, LayoutBits.get(req, BODY1.NMP_TYPE));
        m.put(e.ERR_INDEX, errIndex);
        return LayoutBits.build(e.layout(), m);
    }

    /** The error response to {@code req} ({@code ManagementPacket.errorResponseTo} semantics), CRC included. */
    public static UInt errorResponse(Bits req, Bits srcType, Bits srcId, Bits errCode, Bits errIndex) {
        return Crc32cHw.withCrc(errorResponseNoCrc(req, srcType, srcId, errCode, errIndex));
    }

    /** {@link #errorResponse} without the CRC (for blocks that add the CRC once, after their output register). */
    public static UInt errorResponseNoCrc(Bits req, Bits srcType, Bits srcId, Bits errCode, Bits errIndex) {
        return responseNoCrc(req, srcType, srcId, errorType(LayoutBits.get(req, BODY1.NMP_TYPE)), errorData(req, errCode, errIndex));
    }

    public static UInt errorResponse(Bits req, ChipType chip, Bits srcId, Bits errCode, Bits errIndex) {
        return errorResponse(req, lit(chip.code(), 2), srcId, errCode, errIndex);
    }

    /** An ErrCode literal. */
    public static UInt code(ErrorCode e) {
        return lit(e.code(), ErrorCode.BITS);
    }

    /** An ErrIndex literal (0..5, or {@link PayloadLayouts#WHOLE_REQUEST}). */
    public static UInt index(int i) {
        return lit(i, 3);
    }
}
