package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * A PCIe memory read on a tag from the central {@link TagAllocator}, as the descriptor, data and buffer-list readers
 * issue them (spec 30-chpp-dma.md, "Tags"): the request leaves only with a tag, and the tag is taken with it.
 */
public final class TaggedRead {
    private TaggedRead() {
    }

    /**
     * Offers a read of {@code len} bytes at {@code addr} on {@code rq} while {@code want} is high and {@code tag}
     * offers a tag, and takes the tag when the request is taken. Returns: the request leaves this cycle.
     */
    public static Bool issue(Decoupled<DmaRequest> rq, Decoupled<UInt> tag, Bool want, UInt addr, UInt len) {
        rq.valid.assign(want.and(tag.valid));
        rq.bits.write.assign(FALSE());
        rq.bits.tag.assign(tag.bits.pad(Pcie.TAG_BITS));
        rq.bits.addr.assign(addr);
        rq.bits.len.assign(len);
        rq.bits.data.assign(0);
        rq.bits.last.assign(TRUE());
        tag.ready.assign(want.and(rq.ready));
        return rq.fire();
    }
}
