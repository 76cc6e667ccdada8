package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppRegisters;
import org.flitkit.rtl.chpp.Counters;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.DoorbellLayout;
import org.flitkit.formats.core.Field;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * The doorbell windows in the BAR (paper section 3.4.2: software starts a DMA by writing the descriptor's address
 * and length): a 64-bit write at {@link ChppRegisters#doorbell} becomes the doorbell of that function's QP. The
 * length is passed on in bytes unjudged (descriptor read refuses a bad one with an event); a write with reserved
 * bits set or inside a page but not at its start is dropped and counted. docs/chpp-nic.md, "Doorbell window".
 */
public final class DoorbellWindow extends Module {
    public final int functions;
    /** Host BAR writes; always ready; writes outside the windows are ignored. */
    public final Decoupled<MmioWrite> mmio;
    /** Doorbells toward {@code DoorbellFront.write}. */
    public final Valid<FunctionDoorbell> doorbell;
    /** Writes dropped: reserved data bits 63:62 set, or not at a page's first word (saturating). */
    public final UInt refused;

    public DoorbellWindow(int functions) {
        if (functions < 1 || functions > Chpp.FUNCTIONS) {
            throw new IllegalArgumentException("functions " + functions + " outside 1.." + Chpp.FUNCTIONS
                    + " (SRC_ID names the function with " + Chpp.FUNCTION_BITS + " bits)");
        }
        this.functions = functions;
        mmio = input(Decoupled.of(MmioWrite::new));
        doorbell = output(Valid.of(FunctionDoorbell::new));
        refused = output(UInt(Counters.BITS));

        mmio.ready.assign(TRUE());
        UInt a = mmio.bits.addr;
        UInt d = mmio.bits.data;
        int end = ChppRegisters.DOORBELL + functions * ChppRegisters.DOORBELL_WINDOW;
        Bool inWindow = mmio.valid.and(a.ge(ChppRegisters.DOORBELL)).and(a.lt(end));
        UInt off = a.sub(ChppRegisters.DOORBELL).trunc(a.width());
        int pageBits = Chpp.DOORBELL_PAGE_BITS;
        Bool pageStart = off.bits(pageBits - 1, 0).eq(0);
        Field words = DoorbellLayout.WRITE.WORDS;
        Field addr = DoorbellLayout.WRITE.ADDRESS;
        int top = words.msb() + 1;
        Bool reserved = top < 64 ? d.bits(63, top).ne(0) : FALSE();
        Bool ok = pageStart.andNot(reserved);

        doorbell.valid.assign(inWindow.and(ok));
        doorbell.bits.function.assign(off.shr(pageBits + Chpp.QP_BITS).trunc(Doorbell.FUNCTION_BITS));
        doorbell.bits.doorbell.qp.assign(off.bits(pageBits + Chpp.QP_BITS - 1, pageBits));
        doorbell.bits.doorbell.addr.assign(d.bits(addr.msb(), addr.lsb()).pad(Doorbell.ADDR_BITS));
        // words x 8: up to 1023 x 8 = 8184 bytes, which the 13-bit length holds, so an over-long count reaches
        // descriptor read intact and is refused there with an event
        doorbell.bits.doorbell.length.assign(cat(d.bits(words.msb(), words.lsb()), lit(0, 3)));
        refused.assign(Counters.count(inWindow.andNot(ok), "refusedCount"));
    }
}
