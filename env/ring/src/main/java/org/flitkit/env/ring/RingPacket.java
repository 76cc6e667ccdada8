package org.flitkit.env.ring;

/** A packet as the scoreboard sees it: sent by src to dst with the source's tag. */
record RingPacket(int src, int dst, int tag) {
    long key() {
        return (long) src << 32 | tag;
    }
}
