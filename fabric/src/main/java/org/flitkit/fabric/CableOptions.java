package org.flitkit.fabric;

/**
 * The named options of a cable, at the hardware level ({@link Cable}) and at the fabric level
 * ({@link CableChannel}): width, latency, flow control, far-end buffer, VCs, bit errors, seeded loss and reordering.
 * Start from {@link #lanes} or {@link #credits} and change options with the {@code with*} methods.
 * docs/cable.md, "Options".
 *
 * @param width         bits of one flit (credit cables) or of the frame all lanes carry together (lane cables)
 * @param latency       cycles A to B: a flit taken at t is offered at the far end from t + latency
 * @param latencyBA     cycles B to A (lane cables, which carry both directions); equal to latency otherwise
 * @param flow          credits with a far-end buffer, or none (lanes carry a frame every cycle)
 * @param depth         far-end buffer, flits (credit cables; 0 for lane cables)
 * @param creditLatency cycles a credit takes back to the sender after the far end frees its flit (0: at once)
 * @param vcs           virtual channels of a credit cable: a far-end buffer of {@code depth} flits and its credits each
 * @param packets       the flit's most significant bit marks a packet's last flit: the wire stays on the VC whose
 *                      packet is under way while that VC can move (credit cables with several VCs)
 * @param lanes         lanes the frame is split into, for dead lanes (lane cables; 1 for credit cables)
 * @param loss          flits dropped at the far end out of every 65535 arrivals, drawn by a 16-bit LFSR (0: off,
 *                      the default)
 * @param reorder       flits held back at the far end out of every 65535 arrivals, overtaken by the next one (0: off,
 *                      the default; one-VC credit cables without packets)
 * @param seed          the LFSR's seed (non-zero 16-bit), so a lossy run repeats exactly
 */
public record CableOptions(int width, int latency, int latencyBA, Flow flow, int depth, int creditLatency, int vcs,
        boolean packets, int lanes, int loss, int reorder, int seed) {

    /** How the sender learns that the far end has room. */
    public enum Flow {
        /** a credit per free far-end buffer entry: nothing is ever lost to a full buffer */
        CREDITS,
        /** none: the lanes carry whatever is driven every cycle (the link layer does its own flow control) */
        NONE
    }

    /** Largest latency (credit cables; lane cables: {@link #MAX_LANE_LATENCY}) and depth accepted: sanity bounds. */
    public static final int MAX_LATENCY = 10_000;
    public static final int MAX_LANE_LATENCY = 4096;
    public static final int MAX_VCS = 8;
    public static final int MAX_DEPTH = 65_536;
    /** The LFSR seed used unless {@link #withSeed} says otherwise. */
    public static final int DEFAULT_SEED = 0xACE1;

    public CableOptions {
        if (width < 1) {
            throw new IllegalArgumentException("cable width must be at least 1 bit, got " + width);
        }
        if (flow == null) {
            throw new IllegalArgumentException("cable flow control must be CREDITS or NONE, got null");
        }
        int maxLatency = flow == Flow.CREDITS ? MAX_LATENCY : MAX_LANE_LATENCY;
        for (int l : new int[] {latency, latencyBA}) {
            if (l < 1 || l > maxLatency) {
                throw new IllegalArgumentException("cable latency must be 1.." + maxLatency + " cycles, got " + l);
            }
        }
        if (flow == Flow.CREDITS) {
            if (depth < 1 || depth > MAX_DEPTH) {
                throw new IllegalArgumentException("cable depth must be 1.." + MAX_DEPTH + " flits, got " + depth);
            }
            if (creditLatency < 0 || creditLatency > MAX_LATENCY) {
                throw new IllegalArgumentException("cable credit latency must be 0.." + MAX_LATENCY + " cycles, got " + creditLatency);
            }
            if (vcs < 1 || vcs > MAX_VCS) {
                throw new IllegalArgumentException("cable VCs must be 1.." + MAX_VCS + ", got " + vcs);
            }
            if (packets && width < 2) {
                throw new IllegalArgumentException("a packet cable needs a last-flit bit above at least one data bit, got width " + width);
            }
            if (latencyBA != latency) {
                throw new IllegalArgumentException("a credit cable carries one direction: latencyBA must equal latency, got "
                        + latencyBA + " and " + latency);
            }
        } else {
            if (lanes < 1 || width % lanes != 0) {
                throw new IllegalArgumentException("cable width must be a positive multiple of the " + lanes + " lanes, got " + width);
            }
            if (vcs != 1 || packets) {
                throw new IllegalArgumentException("VCs and packets need a credit cable: a lane cable has one stream per direction, got "
                        + vcs + " VCs" + (packets ? ", packets" : ""));
            }
            if (loss != 0) {
                throw new IllegalArgumentException("loss needs a credit cable: a lane cable carries a frame every cycle, got loss "
                        + loss);
            }
        }
        if (loss < 0 || loss > 65_535) {
            throw new IllegalArgumentException("cable loss must be 0..65535 flits out of 65535, got " + loss);
        }
        if (reorder < 0 || reorder > 65_535 - loss) {
            throw new IllegalArgumentException("cable reorder must be 0.." + (65_535 - loss) + " flits out of 65535 (with loss "
                    + loss + "), got " + reorder);
        }
        if (reorder > 0 && (flow != Flow.CREDITS || vcs != 1 || packets)) {
            throw new IllegalArgumentException("reordering needs a one-VC credit cable without packets, got "
                    + (flow != Flow.CREDITS ? "a lane cable" : vcs + " VCs" + (packets ? ", packets" : "")));
        }
        if (seed < 1 || seed > 0xFFFF) {
            throw new IllegalArgumentException("cable seed must be a non-zero 16-bit value, got " + seed);
        }
    }

    /**
     * A lane cable carrying both directions, {@code width} bits split in {@code lanes} equal lanes, the same
     * latency each way, no flow control.
     */
    public static CableOptions lanes(int width, int lanes, int latency) {
        return new CableOptions(width, latency, latency, Flow.NONE, 0, 0, 1, false, lanes, 0, 0, DEFAULT_SEED);
    }

    /**
     * A credit cable carrying {@code width}-bit flits one way: far-end buffer of latency + 2 flits whose credits
     * the sender sees at once, so a receiver always ready takes a flit every cycle.
     */
    public static CableOptions credits(int width, int latency) {
        return new CableOptions(width, latency, latency, Flow.CREDITS, latency + 2, 0, 1, false, 1, 0, 0, DEFAULT_SEED);
    }

    /**
     * A credit cable whose credits come back over the same latency, with a far-end buffer of 2 latency + 2 flits
     * (the credit round trip: full rate): the fabric-level {@link CableChannel}'s default.
     */
    public static CableOptions creditLoop(int width, int latency) {
        return credits(width, latency).withCreditLatency(latency).withDepth(2 * latency + 2);
    }

    /** Cycles A to B and B to A. */
    public CableOptions withLatency(int ab, int ba) {
        return new CableOptions(width, ab, ba, flow, depth, creditLatency, vcs, packets, lanes, loss, reorder, seed);
    }

    /** The same latency each way (credit cables: the one direction). */
    public CableOptions withLatency(int cycles) {
        return withLatency(cycles, cycles);
    }

    public CableOptions withDepth(int flits) {
        return new CableOptions(width, latency, latencyBA, flow, flits, creditLatency, vcs, packets, lanes, loss, reorder, seed);
    }

    public CableOptions withCreditLatency(int cycles) {
        return new CableOptions(width, latency, latencyBA, flow, depth, cycles, vcs, packets, lanes, loss, reorder, seed);
    }

    /** Drop {@code flits} out of every 65535 arrivals at the far end (a seeded 16-bit LFSR draws each arrival). */
    public CableOptions withLoss(int flits) {
        return new CableOptions(width, latency, latencyBA, flow, depth, creditLatency, vcs, packets, lanes, flits, reorder, seed);
    }

    /** {@code n} virtual channels, each with its far-end buffer of {@code depth} flits and its credits. */
    public CableOptions withVcs(int n) {
        return new CableOptions(width, latency, latencyBA, flow, depth, creditLatency, n, packets, lanes, loss, reorder, seed);
    }

    /** Flits framed in packets by their most significant bit (high on a packet's last flit). */
    public CableOptions withPackets() {
        return new CableOptions(width, latency, latencyBA, flow, depth, creditLatency, vcs, true, lanes, loss, reorder, seed);
    }

    /** Hold back {@code flits} out of every 65535 arrivals at the far end until the next one has overtaken them. */
    public CableOptions withReorder(int flits) {
        return new CableOptions(width, latency, latencyBA, flow, depth, creditLatency, vcs, packets, lanes, loss, flits, seed);
    }

    public CableOptions withSeed(int lfsrSeed) {
        return new CableOptions(width, latency, latencyBA, flow, depth, creditLatency, vcs, packets, lanes, loss, reorder, lfsrSeed);
    }

    public boolean credited() {
        return flow == Flow.CREDITS;
    }
}
