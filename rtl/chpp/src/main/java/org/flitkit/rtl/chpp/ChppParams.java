package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.Doorbell;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Sizes of the cHPP send engine's front end (docs/chpp-dma.md, decisions table; spec 30-chpp-dma.md,
 * "Engine structure" and "Tags"): functions, doorbell FIFO depth, PCIe read tags, the completion timeout and
 * the arbitration over the functions' doorbell FIFOs.
 *
 * @param functions         PCIe functions with a doorbell FIFO each (paper: 1 PF + 7 VFs = 8), 1..256
 * @param doorbellDepth     doorbells one function's FIFO holds (paper: 32, software keeps at most 32 outstanding)
 * @param tags              PCIe memory-read tags the central allocator hands out (32; 256 with Extended Tag)
 * @param completionTimeout cycles of the 250 MHz core clock a read may wait for its last completion before its
 *                          tag is reclaimed (default 12,500 = 50 us, the PCIe minimum)
 * @param arbitration       how the function arbiter picks among non-empty doorbell FIFOs
 * @param weights           per function, doorbells granted per round in {@link Arbitration#WEIGHTED} mode (1..255);
 *                          ignored (but still checked) in {@link Arbitration#ROUND_ROBIN}
 */
public record ChppParams(int functions, int doorbellDepth, int tags, int completionTimeout, Arbitration arbitration,
                         List<Integer> weights) {

    /** The paper's tag count with the default 5-bit tag field. */
    public static final int BASE_TAGS = 32;
    /** Tags with Extended Tag Field Enable (8-bit tag field). */
    public static final int EXTENDED_TAGS = 256;
    /** 50 us at 250 MHz: the shortest completion timeout PCIe allows (docs/chpp-dma.md, decisions). */
    public static final int DEFAULT_COMPLETION_TIMEOUT = 12_500;
    /** Largest weight: the arbiter's per-function credit counter is 8 bits. */
    public static final int MAX_WEIGHT = 255;
    /** Largest completion timeout: 2^24 cycles = 67 ms at 250 MHz, above PCIe's longest default range (50 ms). */
    public static final int MAX_COMPLETION_TIMEOUT = 1 << 24;
    /** Largest doorbell FIFO. */
    public static final int MAX_DOORBELL_DEPTH = 1024;

    /** Fair round robin (the paper's default) or weighted round robin. */
    public enum Arbitration {
        /** every non-empty function gets one doorbell per round, in function order */
        ROUND_ROBIN,
        /** function f gets up to weights[f] consecutive doorbells per round (docs/chpp-dma.md, "Function arbiter") */
        WEIGHTED
    }

    public ChppParams {
        if (functions < 1 || functions > 1 << Doorbell.FUNCTION_BITS) {
            throw new IllegalArgumentException("functions " + functions + " outside 1.." + (1 << Doorbell.FUNCTION_BITS)
                    + " (the function id is the " + Doorbell.FUNCTION_BITS + "-bit PCIe (ARI) function number)");
        }
        if (doorbellDepth < 1 || doorbellDepth > MAX_DOORBELL_DEPTH) {
            throw new IllegalArgumentException("doorbellDepth " + doorbellDepth + " outside 1.." + MAX_DOORBELL_DEPTH
                    + " (a doorbell FIFO holds at least one doorbell and is at most one 1024-entry block RAM deep)");
        }
        if (tags < 1 || tags > EXTENDED_TAGS) {
            throw new IllegalArgumentException("tags " + tags + " outside 1.." + EXTENDED_TAGS
                    + " (the PCIe tag field is 5 bits, 8 with Extended Tag Field Enable)");
        }
        if (completionTimeout < 2 || completionTimeout > MAX_COMPLETION_TIMEOUT) {
            throw new IllegalArgumentException("completionTimeout " + completionTimeout + " outside 2.." + MAX_COMPLETION_TIMEOUT
                    + " cycles (a read needs at least a request and a completion cycle; the age counter is 25 bits)");
        }
        if (arbitration == null) {
            throw new IllegalArgumentException("arbitration is null; use ROUND_ROBIN or WEIGHTED");
        }
        if (weights == null || weights.size() != functions) {
            throw new IllegalArgumentException("weights " + weights + " must have one entry per function (" + functions + ")");
        }
        for (int f = 0; f < functions; f++) {
            Integer w = weights.get(f);
            if (w == null || w < 1 || w > MAX_WEIGHT) {
                throw new IllegalArgumentException("weight " + w + " of function " + f + " outside 1.." + MAX_WEIGHT
                        + " (every function gets at least one grant per round; the credit counter is 8 bits)");
            }
        }
        weights = List.copyOf(weights);
    }

    /** The paper's NIC: 8 functions, 32-deep doorbell FIFOs, 32 tags, fair round robin; the timeout is ours (50 us). */
    public static ChppParams paper() {
        return new ChppParams(8, 32, BASE_TAGS, DEFAULT_COMPLETION_TIMEOUT, Arbitration.ROUND_ROBIN, ones(8));
    }

    /** {@code n} weights of 1. */
    public static List<Integer> ones(int n) {
        return Collections.nCopies(n, 1);
    }

    /** This configuration with {@code n} tags (32 or, with Extended Tag, 256). */
    public ChppParams withTags(int n) {
        return new ChppParams(functions, doorbellDepth, n, completionTimeout, arbitration, weights);
    }

    /** This configuration with another completion timeout, in cycles. */
    public ChppParams withCompletionTimeout(int cycles) {
        return new ChppParams(functions, doorbellDepth, tags, cycles, arbitration, weights);
    }

    /** This configuration with another doorbell FIFO depth. */
    public ChppParams withDoorbellDepth(int depth) {
        return new ChppParams(functions, depth, tags, completionTimeout, arbitration, weights);
    }

    /** This configuration with {@code n} functions, all of weight 1 (round robin as before). */
    public ChppParams withFunctions(int n) {
        return new ChppParams(n, doorbellDepth, tags, completionTimeout, arbitration, ones(n));
    }

    /** Weighted round robin with these per-function weights. */
    public ChppParams weighted(List<Integer> w) {
        return new ChppParams(functions, doorbellDepth, tags, completionTimeout, Arbitration.WEIGHTED, new ArrayList<>(w));
    }

    /** Bits of a tag number (at least 1). */
    public int tagBits() {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(tags - 1));
    }
}
