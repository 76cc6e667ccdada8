package org.flitkit.env.nrc.switchcore;


import java.util.SplittableRandom;

/**
 * The ideal input-queued switch with one FIFO per input (Karol, Hluchyj and Morgan, 1987), by Monte Carlo:
 * N saturated inputs, each head-of-line cell bound for a uniformly random output, each output serving one
 * random contender per slot; the losers wait. Independent of the RTL: the reference for the switch core's
 * one-FIFO mode. Saturation throughput 0.75 for N = 2, falling to 2 - sqrt(2) = 0.586 as N grows.
 */
public final class HolModel {
    private HolModel() {
    }

    /** Mean cells per output per slot, measured over {@code slots} slots after {@code slots / 10} of warm-up. */
    public static double saturation(int n, int slots, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] hol = new int[n];
        for (int i = 0; i < n; i++) {
            hol[i] = rnd.nextInt(n);
        }
        int[] contenders = new int[n];
        int[][] who = new int[n][n];
        long served = 0;
        int warm = slots / 10;
        for (int t = 0; t < warm + slots; t++) {
            java.util.Arrays.fill(contenders, 0);
            for (int i = 0; i < n; i++) {
                who[hol[i]][contenders[hol[i]]++] = i;
            }
            for (int o = 0; o < n; o++) {
                if (contenders[o] > 0) {
                    int winner = who[o][rnd.nextInt(contenders[o])];
                    hol[winner] = rnd.nextInt(n);
                    if (t >= warm) {
                        served++;
                    }
                }
            }
        }
        return (double) served / ((long) slots * n);
    }

    public static void main(String[] args) {
        for (int n : new int[] {2, 4, 8, 16, 24, 32, 64, 128}) {
            System.out.printf("N=%d saturation %.4f%n", n, saturation(n, 200_000, 1));
        }
    }
}
