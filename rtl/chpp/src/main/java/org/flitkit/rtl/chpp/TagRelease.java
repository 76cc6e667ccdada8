package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * The end of one PCIe memory read, reported to the {@link TagAllocator}: its tag, and whether it ended with an
 * error completion (Unsupported Request or Completer Abort) instead of its last successful completion
 * (spec 30-chpp-dma.md, "Tags"; docs/chpp-dma.md, "Tag allocator").
 */
public final class TagRelease extends Bundle {
    /** The completion's tag as it arrived: the full 8-bit TLP field, so a tag beyond the pool is visible (and refused). */
    public final UInt tag = UInt(8);
    /** The read ended with a UR/CA completion status rather than its last data completion. */
    public final Bool error = Bool();
}
