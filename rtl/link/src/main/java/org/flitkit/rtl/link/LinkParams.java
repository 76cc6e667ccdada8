package org.flitkit.rtl.link;

import org.flitkit.formats.th2.LinkFrame;

/**
 * Parameters of one {@link LinkLayer}; every value is checked here with a message naming the rule.
 * docs/th2-link.md, "Decisions" (each default and why).
 *
 * @param replayDepth    FLIT frames kept for go-back-N replay (power of two, 2..128); full throughput needs
 *                       replayDepth >= 2 x cable latency + {@link LinkLayer#PIPELINE} (docs/th2-link.md)
 * @param replayTimeout  cycles without ACK progress, with frames unacknowledged, before the sender replays
 *                       (lost NAK or ACK); must exceed the round trip
 * @param silenceTimeout cycles without a CRC-good frame before a link that is up goes down (cut cable)
 * @param identPeriod    cycles between IDENT frames on an idle link (a power of two): one is due at each wrap of a
 *                       free-running clock and sent in the first idle slot
 * @param vcCount        virtual channels whose credits the link carries (NRC: 6)
 * @param bistSeed       PRBS-31 generator seed of the link BIST (non-zero, 31 bits)
 */
public record LinkParams(int replayDepth, int replayTimeout, int silenceTimeout, int identPeriod, int vcCount,
        long bistSeed) {

    /**
     * The NRC/NIC port: 64 replay slots, 128-cycle replay timeout, 64-cycle silence, IDENT every 2^24 cycles (40 ms
     * at 424 MHz), 6 VCs.
     */
    public static LinkParams defaults() {
        return new LinkParams(64, 128, 64, 1 << 24, 6, 0x7FFF_FFFFL);
    }

    public LinkParams {
        if (replayDepth < 2 || replayDepth > 128 || Integer.bitCount(replayDepth) != 1) {
            throw new IllegalArgumentException("replayDepth must be a power of two in 2..128 (sequence numbers are "
                    + LinkFrame.SEQ_BITS + " bits and go-back-N needs depth < 2^" + LinkFrame.SEQ_BITS + "), got " + replayDepth);
        }
        if (replayTimeout < 8 || replayTimeout > 65_535) {
            throw new IllegalArgumentException("replayTimeout must be 8..65535 cycles, got " + replayTimeout);
        }
        if (silenceTimeout < 4 || silenceTimeout > 65_535) {
            throw new IllegalArgumentException("silenceTimeout must be 4..65535 cycles, got " + silenceTimeout);
        }
        if (identPeriod < 16 || identPeriod > 1 << 24 || Integer.bitCount(identPeriod) != 1) {
            throw new IllegalArgumentException("identPeriod must be a power of two in 16..16777216 cycles (the period of a free-running clock), got "
                    + identPeriod);
        }
        if (vcCount < 1 || vcCount > 1 << LinkFrame.VC_BITS) {
            throw new IllegalArgumentException("vcCount must be 1..8 (the CreditVC field is " + LinkFrame.VC_BITS + " bits), got " + vcCount);
        }
        if (bistSeed <= 0 || bistSeed > 0x7FFF_FFFFL) {
            throw new IllegalArgumentException("bistSeed must be a non-zero 31-bit value, got " + bistSeed);
        }
    }

    public LinkParams withReplayDepth(int depth) {
        return new LinkParams(depth, replayTimeout, silenceTimeout, identPeriod, vcCount, bistSeed);
    }

    public LinkParams withReplayTimeout(int cycles) {
        return new LinkParams(replayDepth, cycles, silenceTimeout, identPeriod, vcCount, bistSeed);
    }

    public LinkParams withSilenceTimeout(int cycles) {
        return new LinkParams(replayDepth, replayTimeout, cycles, identPeriod, vcCount, bistSeed);
    }

    public LinkParams withIdentPeriod(int cycles) {
        return new LinkParams(replayDepth, replayTimeout, silenceTimeout, cycles, vcCount, bistSeed);
    }

    public LinkParams withBistSeed(long seed) {
        return new LinkParams(replayDepth, replayTimeout, silenceTimeout, identPeriod, vcCount, seed);
    }
}
