package org.flitkit.rtl.nic;

import java.math.BigInteger;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;

/** {@link EventReq} beats as the testbench packs them (first field most significant), and EQ events in host memory. */
final class NicEvents {
    private NicEvents() {
    }

    /** An event request: vp, type, code, TransactionID, index, interrupt cause. */
    record Req(int vp, int type, int code, int tid, int index, int irq) {
        BigInteger pack() {
            long v = vp;
            v = v << 8 | type;
            v = v << 8 | code;
            v = v << 16 | tid;
            v = v << 16 | index;
            v = v << 2 | irq;
            return BigInteger.valueOf(v);
        }

        static Req unpack(BigInteger b) {
            long v = b.longValueExact();
            return new Req((int) (v >>> 50) & 0x3F, (int) (v >>> 42) & 0xFF, (int) (v >>> 34) & 0xFF, (int) (v >>> 18) & 0xFFFF,
                    (int) (v >>> 2) & 0xFFFF, (int) v & 3);
        }

        @Override
        public String toString() {
            return NicEvent.of(type).map(Enum::name).orElse("type " + type) + "(vp " + vp + ", code " + code + ", tid 0x"
                    + Integer.toHexString(tid) + ", index " + index + ", irq " + irq + ")";
        }
    }

    /** The 16 bytes of the EQ event for {@code r} written at free-running {@code index} of a 2^log2 ring at {@code cycle}. */
    static byte[] eqBytes(Req r, int index, int log2, long cycle) {
        NicHost.Event e = NicHost.EVENT;
        return e.layout().zero().with(e.PHASE, NicHost.phase(index, log2)).with(e.TYPE, r.type()).with(e.VP, r.vp())
                .with(e.CODE, r.code()).with(e.TRANSACTION_ID, r.tid()).with(e.INDEX, r.index()).with(e.TIMESTAMP, cycle).toBytesLE();
    }

    /** The 128 bytes of the MPQ entry holding {@code packet} at free-running {@code index} of a 2^log2 ring. */
    static byte[] mpqBytes(BitVector packet, int index, int log2) {
        NicHost.MpqEntry m = NicHost.MPQ_ENTRY;
        return m.layout().zero().with(m.PACKET, packet).with(m.PHASE, NicHost.phase(index, log2)).toBytesLE();
    }
}
