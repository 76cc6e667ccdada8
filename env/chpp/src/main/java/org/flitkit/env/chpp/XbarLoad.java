package org.flitkit.env.chpp;

import org.flitkit.rtl.chpp.xbar.DmaCrossbar;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.xbar.XbarHeader;

/**
 * Saturation throughput of the {@link DmaCrossbar} under uniform random traffic (paper section 5.4, figure 19:
 * Dest-Mod VCs, 4x2 .. 16x4): every input always has a PUT packet to offer, each to a destination drawn uniformly
 * from all ports; every output always takes. Delivered beats are counted over a window after a warm-up and
 * converted to GB/s at the paper's 16 bytes per cycle and 250 MHz. docs/chpp-dma.md, "Intra-DMA crossbar".
 */
public final class XbarLoad {
    /** The paper's clock: 250 MHz. */
    public static final double CLOCK_HZ = 250e6;
    /** The paper's peak: 16 bytes per cycle at 250 MHz = 4 GB/s per port. */
    public static final double PEAK_GBPS = PacketBeat.DATA_BYTES * CLOCK_HZ / 1e9;
    /** The measured packet: a 128-byte MTU PUT, one header beat and 8 data beats. */
    public static final int MTU_PACKET_BEATS = 9;
    /** The paper's configurations (ports x VCs per port). */
    public static final int[][] PAPER_CONFIGS = {{4, 2}, {4, 4}, {8, 2}, {8, 4}, {16, 4}};
    public static final long WARMUP = 2_000;
    public static final long WINDOW = 40_000;
    public static final long SEED = 1;

    private XbarLoad() {
    }

    /** One measured configuration: beats delivered on all outputs during {@code window} cycles. */
    public record Result(int ports, int vcs, int packetBeats, long window, long beats, long packets) {
        /** Beats per cycle per output, 0..1 (the fraction of the 4 GB/s peak). */
        public double perPort() {
            return beats / (double) (window * ports);
        }

        /** Bytes through the crossbar (header beats included) per output, in GB/s at 250 MHz. */
        public double gbps() {
            return perPort() * PEAK_GBPS;
        }

        /** Payload bytes only (header beats excluded), per output, in GB/s. */
        public double payloadGbps() {
            return gbps() * (packetBeats - 1) / packetBeats;
        }
    }

    /** Elaborates a crossbar with the default depths and measures its saturation throughput. */
    public static Result saturation(int ports, int vcs, int packetBeats, long warmup, long window, long seed) {
        return saturation(ports, vcs, DmaCrossbar.DEFAULT_VC_DEPTH, packetBeats, warmup, window, seed);
    }

    /** The same with {@code vcDepth} beats per PUT/NAP VC buffer. */
    public static Result saturation(int ports, int vcs, int vcDepth, int packetBeats, long warmup, long window, long seed) {
        Circuit c = Circuit.elaborate(() -> new DmaCrossbar(ports, vcs, vcDepth, DmaCrossbar.DEFAULT_GET_DEPTH));
        return saturation((DmaCrossbar) c.top(), Simulator.of(c), packetBeats, warmup, window, seed);
    }

    /**
     * Runs {@code sim} (a fresh simulator of {@code dut}) for {@code warmup + window} cycles of saturating
     * uniform traffic of {@code packetBeats}-beat PUTs and counts the beats delivered during the window.
     */
    public static Result saturation(DmaCrossbar dut, Simulator sim, int packetBeats, long warmup, long window, long seed) {
        if (packetBeats < 1 || packetBeats > 1 + 4096 / PacketBeat.DATA_BYTES) {
            throw new IllegalArgumentException("packetBeats must be 1..257 (header + up to 4096 payload bytes), got " + packetBeats);
        }
        int n = dut.ports;
        long[][] headers = new long[n][];
        for (int d = 0; d < n; d++) {
            headers[d] = XbarHeader.of(dut.destField, d, PktType.PUT, (packetBeats - 1) * PacketBeat.DATA_BYTES, 0, 0).limbs();
        }
        SplittableRandom root = new SplittableRandom(seed);
        List<SplittableRandom> rng = new ArrayList<>();
        int[] dest = new int[n];
        int[] beat = new int[n];
        for (int i = 0; i < n; i++) {
            rng.add(root.split());
            dest[i] = rng.get(i).nextInt(n);
        }
        sim.reset(1);
        for (int o = 0; o < n; o++) {
            sim.poke(dut.out.get(o).ready, true);
            // the paper measures with PUTs only ("the GET VC is not considered here")
            sim.poke(dut.getIn.get(o).valid, false);
        }
        long[] payload = new long[2];
        long beats = 0;
        long packets = 0;
        for (long c = 0; c < warmup + window; c++) {
            for (int i = 0; i < n; i++) {
                sim.poke(dut.in.get(i).valid, true);
                if (beat[i] == 0) {
                    sim.poke(dut.in.get(i).bits.data, headers[dest[i]]);
                } else {
                    payload[0] = c;
                    payload[1] = i;
                    sim.poke(dut.in.get(i).bits.data, payload);
                }
                sim.poke(dut.in.get(i).bits.last, beat[i] == packetBeats - 1);
            }
            boolean counting = c >= warmup;
            for (int o = 0; o < n; o++) {
                if (counting && sim.peekBool(dut.out.get(o).valid)) {
                    beats++;
                    if (sim.peekBool(dut.out.get(o).bits.last)) {
                        packets++;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (sim.peekBool(dut.in.get(i).ready)) {
                    if (++beat[i] == packetBeats) {
                        beat[i] = 0;
                        dest[i] = rng.get(i).nextInt(n);
                    }
                }
            }
            sim.step();
        }
        return new Result(n, dut.vcs, packetBeats, window, beats, packets);
    }

    /** Prints the saturation table of the paper's configurations (the sweep of the {@code chpp-xbar} figures). */
    public static void main(String[] args) {
        System.out.printf("%-6s %-9s %-10s %-8s %-12s%n", "config", "beats/cyc", "GB/s", "payload", "packets");
        for (int[] cfg : PAPER_CONFIGS) {
            Result r = saturation(cfg[0], cfg[1], MTU_PACKET_BEATS, WARMUP, WINDOW, SEED);
            System.out.printf("%dx%-4d %-9.4f %-10.3f %-8.3f %d%n", cfg[0], cfg[1], r.perPort(), r.gbps(), r.payloadGbps(), r.packets());
        }
    }
}
