package org.flitkit.rtl.link;

import org.flitkit.formats.th2.LinkFrame;

/**
 * The input buffer at the far end of a link, as the sender's credits see it: {@code vcs} virtual channels, each
 * with {@code reservedFlits} of its own, plus {@code sharedFlits} any VC may take (a DAMQ; one FIFO is 1 VC with
 * no sharing). docs/th2-link.md, "Credits".
 */
public record BufferShape(int vcs, int reservedFlits, int sharedFlits) {
    public BufferShape {
        if (vcs < 1 || vcs > 1 << LinkFrame.VC_BITS) {
            throw new IllegalArgumentException("vcs " + vcs + " outside 1.." + (1 << LinkFrame.VC_BITS));
        }
        if (reservedFlits < 1 || sharedFlits < 0) {
            throw new IllegalArgumentException("reserved flits " + reservedFlits + " (>= 1) / shared flits " + sharedFlits + " (>= 0)");
        }
    }

    /** Slots in all. */
    public int capacity() {
        return vcs * reservedFlits + sharedFlits;
    }

    /** Bits of a count from 0 to {@link #capacity()}. */
    public int countBits() {
        return 32 - Integer.numberOfLeadingZeros(capacity());
    }
}
