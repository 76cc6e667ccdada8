package org.flitkit.rtl.ring;

/**
 * Sizes of the ring hardware: node addresses of {@code nodeBits} bits, a {@code tagBits}-bit tag the source gives each
 * packet (the testbench's sequence number), and the depth of a station's queue per ring (docs/multiring.md, "RTL").
 */
public record RingParams(int nodeBits, int tagBits, int queueDepth) {
    public RingParams {
        if (nodeBits < 1 || nodeBits > 16 || tagBits < 1 || tagBits > 32 || queueDepth < 1) {
            throw new IllegalArgumentException("ring sizes out of range: nodeBits " + nodeBits + " (1..16), tagBits " + tagBits
                    + " (1..32), queueDepth " + queueDepth + " (>= 1)");
        }
    }

    /** Enough address bits for {@code nodes} nodes, 16-bit tags, queues of 4. */
    public static RingParams forNodes(int nodes) {
        return new RingParams(Math.max(1, 32 - Integer.numberOfLeadingZeros(nodes - 1)), 16, 4);
    }
}
