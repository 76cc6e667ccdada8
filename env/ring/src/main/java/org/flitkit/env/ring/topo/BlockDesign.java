package org.flitkit.env.ring.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A symmetric block design B(N, m, a): N points (subscribers), N blocks (switches) of m points, every two points in
 * exactly a blocks, so N = m (m - 1) / a + 1 ("Multi-rings and distributed full switches", section "Distributed full
 * switches", minimal quasi-complete graph). Points and blocks are numbered from 0.
 */
public final class BlockDesign implements SwitchGraph {
    private final int points;
    private final int blockSize;
    private final int lambda;
    private final int[][] blocks;

    /** The design with these blocks, validated: throws naming the first pair of points that breaks it. */
    public BlockDesign(int points, int blockSize, int lambda, int[][] blocks) {
        this.points = points;
        this.blockSize = blockSize;
        this.lambda = lambda;
        this.blocks = Arrays.stream(blocks).map(int[]::clone).toArray(int[][]::new);
        validate();
    }

    /** The design developed from a cyclic difference set: block i is D + i (mod N), point k of every block from D[k]. */
    public static BlockDesign fromDifferenceSet(int n, int lambda, int[] d) {
        int[][] b = new int[n][d.length];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d.length; k++) {
                b[i][k] = (d[k] + i) % n;
            }
        }
        return new BlockDesign(n, d.length, lambda, b);
    }

    /** N = m (m - 1) / a + 1, or an error when a does not divide m (m - 1). */
    public static int pointsFor(int m, int a) {
        if (m < 2 || a < 1) {
            throw new IllegalArgumentException("B(N, m, a) needs m >= 2 and a >= 1, got m=" + m + " a=" + a);
        }
        if (m * (m - 1) % a != 0) {
            throw new IllegalArgumentException("a=" + a + " does not divide m(m-1)=" + m * (m - 1) + ": no symmetric design B(N," + m + "," + a + ")");
        }
        return m * (m - 1) / a + 1;
    }

    private void validate() {
        if (points != pointsFor(blockSize, lambda)) {
            throw new IllegalArgumentException("B(" + points + "," + blockSize + "," + lambda + "): N must be m(m-1)/a+1 = "
                    + pointsFor(blockSize, lambda));
        }
        if (blocks.length != points) {
            throw new IllegalArgumentException("a symmetric design has as many blocks as points: " + blocks.length + " blocks for " + points + " points");
        }
        int[][] together = new int[points][points];
        for (int i = 0; i < blocks.length; i++) {
            int[] b = blocks[i];
            if (b.length != blockSize || Arrays.stream(b).distinct().count() != blockSize) {
                throw new IllegalArgumentException("block " + i + " " + Arrays.toString(b) + " does not have " + blockSize + " distinct points");
            }
            for (int p : b) {
                if (p < 0 || p >= points) {
                    throw new IllegalArgumentException("block " + i + " names point " + p + " outside 0.." + (points - 1));
                }
            }
            for (int x : b) {
                for (int y : b) {
                    together[x][y]++;
                }
            }
        }
        for (int x = 0; x < points; x++) {
            for (int y = x + 1; y < points; y++) {
                if (together[x][y] != lambda) {
                    throw new IllegalArgumentException("points " + x + " and " + y + " share " + together[x][y] + " blocks, not " + lambda);
                }
            }
        }
    }

    public int points() {
        return points;
    }

    public int blockSize() {
        return blockSize;
    }

    public int lambda() {
        return lambda;
    }

    public int[] block(int i) {
        return blocks[i].clone();
    }

    /** The blocks (switches) that hold both points: exactly a of them. */
    public List<Integer> sharedBlocks(int x, int y) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < blocks.length; i++) {
            if (Arrays.stream(blocks[i]).anyMatch(p -> p == x) && Arrays.stream(blocks[i]).anyMatch(p -> p == y)) {
                out.add(i);
            }
        }
        return out;
    }

    /** As a DFS: switch i's port k is a duplex link to the block's k-th point. */
    @Override
    public int nodes() {
        return points;
    }

    @Override
    public int ports() {
        return blockSize;
    }

    @Override
    public int from(int sw, int port) {
        return blocks[sw][port];
    }

    @Override
    public int to(int sw, int port) {
        return blocks[sw][port];
    }

    /** The first switch holding both (a source and itself: the first holding it). */
    @Override
    public int via(int src, int dst) {
        for (int i = 0; i < blocks.length; i++) {
            int s = i;
            if (Arrays.stream(blocks[s]).anyMatch(p -> p == src) && Arrays.stream(blocks[s]).anyMatch(p -> p == dst)) {
                return i;
            }
        }
        throw new IllegalStateException("no block holds " + src + " and " + dst);
    }

    @Override
    public String describe() {
        return "the block design " + this;
    }

    @Override
    public String toString() {
        return "B(" + points + "," + blockSize + "," + lambda + ")";
    }
}
