package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.Doorbell;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The cHPP DMA engine's BAR map (one 16 MB BAR per engine, 24-bit offsets): the registers the driver writes and
 * the doorbell windows. The paper gives no map (section 3.4.2 only says software rings a doorbell by writing a
 * descriptor's address and length); this is the one definition, docs/chpp-nic.md, "Register map".
 */
public final class ChppRegisters {
    /** Send completion ring of local QP r (= function x 4 + QP): base at +0, consumer index at +8. */
    public static final int SEND_RING = 0x0000;
    /** Receive completion ring of local QP r: base at +0, consumer index at +8. */
    public static final int RECEIVE_RING = 0x0200;
    /** Bytes between two rings' register pairs. */
    public static final int RING_STRIDE = 16;
    /** QPMagic key of local QP r at +8r: data bits 15:0 the key, bit 16 enable (0 closes the QP). */
    public static final int QP_KEY = 0x0400;
    public static final int QP_KEY_STRIDE = 8;
    /** Buffer management's registers (NAP receive buffers) start here. */
    public static final int BUFFERS = 0x0600;
    /** Doorbell window of function f at DOORBELL + f x DOORBELL_WINDOW; QP q's page at + q x 0x1000. */
    public static final int DOORBELL = 0x10_0000;
    public static final int DOORBELL_WINDOW = Chpp.QPS * Chpp.DOORBELL_PAGE;

    static {
        if (DOORBELL + Chpp.FUNCTIONS * DOORBELL_WINDOW > 1 << Pcie.MMIO_ADDR_BITS) {
            throw new IllegalStateException("the doorbell windows of every function must fit the BAR");
        }
    }

    private ChppRegisters() {
    }

    /** BAR offset of the send completion ring registers of local QP {@code ring}. */
    public static int sendRing(int ring) {
        return SEND_RING + RING_STRIDE * ring;
    }

    public static int receiveRing(int ring) {
        return RECEIVE_RING + RING_STRIDE * ring;
    }

    public static int qpKey(int ring) {
        return QP_KEY + QP_KEY_STRIDE * ring;
    }

    /** BAR offset of the doorbell page of {@code function}'s QP {@code qp}. */
    public static int doorbell(int function, int qp) {
        return DOORBELL + DOORBELL_WINDOW * function + Chpp.DOORBELL_PAGE * qp;
    }
}
