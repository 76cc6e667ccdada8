package org.flitkit.rtl.nma.hw;

import static org.flitkit.hdl.Hdl.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
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
    public static Map<String, Bits> framing() {
        Map<String, Bits> m = new LinkedHashMap<>();
        for (int i = 0; i < FlitLayouts.FLITS.size(); i++) {
            m.put(FlitLayouts.FLITS.get(i).name() + ".Kind", lit(FlitLayouts.KINDS.get(i), 2));
        }
        m.put("head.VC", lit(Th2.MANAGEMENT_VC, 3));
        m.put("head.Len", lit(Th2.PACKET_FLITS, 5));
        m.put("head.RtType", lit(Th2.RT_SOURCE, 2));
        m.put("head.Type", lit(Th2.TYPE_MP, 4));
        m.put("head.SM", lit(Th2.MANAGEMENT_SM ? 1 : 0, 1));
        m.put("head.Inst", lit(Th2.MANAGEMENT_INST ? 1 : 0, 1));
        return m;
    }

    /**
     * Response to request {@code req} (792 bits) without its CRC: {@code srcType}/{@code srcId} are this
     * chip's type (2 bits) and ID (16 bits), {@code nmpType} 6 bits, {@code nmpData} 192 bits.
     */
    public static UInt responseNoCrc(Bits req, Bits srcType, Bits srcId, Bits nmpType, Bits nmpData) {
        Map<String, Bits> m = framing();
        m.put("head.Route", PacketBits.get(req, "body1.ReturnRoute"));
        m.put("body1.ReturnRoute", PacketBits.get(req, "head.Route"));
        m.put("head.DestType", PacketBits.get(req, "head.SrcType"));
        m.put("head.DestID", PacketBits.get(req, "head.SrcID"));
        m.put("head.SrcType", srcType);
        m.put("head.SrcID", srcId);
        m.put("head.DestVP", PacketBits.get(req, "head.DestVP"));
        m.put("head.SrcVP", PacketBits.get(req, "head.SrcVP"));
        m.put("head.Rint", PacketBits.get(req, "head.Rint"));
        m.put("body1.TransactionID", PacketBits.get(req, "body1.TransactionID"));
        m.put("body1.NMPType", nmpType);
        m.put("body2.NMPData", nmpData);
        return PacketBits.build(PacketLayout.PACKET, m);
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
        return PacketBits.get(req, "body1.NMPType").or(1);
    }

    /** Error response type for a raw request code: E2PROM class (code[5:3] = 2) EEP_ERROR_RESP, else REG_ERROR_RESP. */
    public static UInt errorType(Bits rawType) {
        UInt t = rawType.asUInt();
        return mux(t.bits(5, 3).eq(2), // code[5:3] = 2: E2PROM class
                lit(NmpType.EEP_ERROR_RESP.code(), NmpType.BITS), lit(NmpType.REG_ERROR_RESP.code(), NmpType.BITS));
    }

    /** Error NMPData: ErrCode (8 bits), ErrReqType = the raw request type, ErrIndex (3 bits), echo of NMPData[162:0]. */
    public static UInt errorData(Bits req, Bits errCode, Bits errIndex) {
        Map<String, Bits> m = new LinkedHashMap<>();
        m.put("Echo", PacketBits.get(PacketBits.get(req, PacketBits.NMP_DATA), PayloadLayouts.ERROR.field("Echo")));
        m.put("ErrCode", errCode);
        m.put("ErrReqType", PacketBits.get(req, "body1.NMPType"));
        m.put("ErrIndex", errIndex);
        return PacketBits.build(PayloadLayouts.ERROR, m);
    }

    /** The error response to {@code req} ({@code ManagementPacket.errorResponseTo} semantics), CRC included. */
    public static UInt errorResponse(Bits req, Bits srcType, Bits srcId, Bits errCode, Bits errIndex) {
        return Crc32cHw.withCrc(errorResponseNoCrc(req, srcType, srcId, errCode, errIndex));
    }

    /** {@link #errorResponse} without the CRC (for blocks that add the CRC once, after their output register). */
    public static UInt errorResponseNoCrc(Bits req, Bits srcType, Bits srcId, Bits errCode, Bits errIndex) {
        return responseNoCrc(req, srcType, srcId, errorType(PacketBits.get(req, "body1.NMPType")), errorData(req, errCode, errIndex));
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
