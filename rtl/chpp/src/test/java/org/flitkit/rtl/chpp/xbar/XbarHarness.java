package org.flitkit.rtl.chpp.xbar;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.PacketBeat;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.core.BitVector;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;

/**
 * Verification components of the {@link DmaCrossbar}: a {@link BeatSource} per input stream (random idle cycles
 * between beats, valid and bits held until taken), a monitor per output and per GET output (random backpressure,
 * the hold rule checked, beats assembled into packets, each checked to be on the output its header names and, by
 * its type, on the PUT/NAP or the GET output) and one in-order
 * scoreboard per (output, input, VC): every packet arrives once, intact, in its VC's order.
 */
final class XbarHarness {

    /** One packet: its source input (in QPMagic), sequence number (in Address), destination, type, beats. */
    record Pkt(int src, long seq, int dest, PktType type, boolean viaGetIn, List<BigInteger> beats) {
        @Override
        public String toString() {
            return "pkt " + src + "#" + seq + " " + type + " -> " + dest + (viaGetIn ? " (getIn)" : "") + ", " + beats.size() + " beats";
        }
    }

    final Testbench<DmaCrossbar> tb;
    final DmaCrossbar dut;
    final int ports;
    final int nvc;
    /** Address bit that marks a packet sent on getIn (the two streams into a GET buffer are ordered each, not together). */
    static final long VIA_GET_IN = 1L << 47;

    /** [output][input][vc], and index vcs + 1 for the GETs that came on getIn */
    final InOrderScoreboard<List<BigInteger>>[][][] boards;
    final List<BeatSource> drivers = new ArrayList<>();
    final List<BeatSource> getDrivers = new ArrayList<>();
    /** Output o's monitor at index o, GET output o's at {@code ports + o} (see {@link #getMonitor}). */
    final List<Monitor> monitors = new ArrayList<>();
    final long[] expectedDrops;
    final long[] expectedGetDrops;

    @SuppressWarnings("unchecked")
    XbarHarness(Testbench<DmaCrossbar> tb, double gapP, double readyP) {
        this.tb = tb;
        this.dut = tb.dut();
        this.ports = dut.ports;
        this.nvc = dut.vcs + 1;
        expectedDrops = new long[ports];
        expectedGetDrops = new long[ports];
        boards = new InOrderScoreboard[ports][ports][nvc + 1];
        for (int i = 0; i < ports; i++) {
            drivers.add(tb.add(new BeatSource("in" + i, dut.in.get(i), gapP)));
            getDrivers.add(tb.add(new BeatSource("getIn" + i, dut.getIn.get(i), gapP)));
        }
        for (int o = 0; o < 2 * ports; o++) {
            monitors.add(tb.add(new Monitor(o < ports ? "out" + o : "getOut" + (o - ports), o % ports, o >= ports, readyP)));
        }
        for (int o = 0; o < ports; o++) {
            for (int i = 0; i < ports; i++) {
                for (int v = 0; v <= nvc; v++) {
                    boards[o][i][v] = tb.add(new InOrderScoreboard<>("sb.out" + o + ".in" + i + (v == nvc ? ".getIn" : ".vc" + v)));
                    boards[o][i][v].format(XbarHarness::show);
                }
            }
        }
    }

    static String show(List<BigInteger> beats) {
        BitVector h = BitVector.of(PacketBeat.DATA_BITS, beats.get(0));
        return "src " + h.get(HeaderLayout.HEADER.QP_MAGIC) + " seq " + h.get(HeaderLayout.HEADER.ADDRESS) + " type "
                + h.get(HeaderLayout.HEADER.PKT_TYPE) + ", " + beats.size() + " beats";
    }

    /** Builds a packet with random payload; {@code dest} may be out of range (then it is expected to be dropped). */
    Pkt packet(Rng rng, int src, long seq, int dest, PktType type, int payloadBytes, boolean viaGetIn) {
        List<BigInteger> beats = new ArrayList<>();
        beats.add(XbarHeader.of(dut.destField, dest, type, payloadBytes, src, viaGetIn ? seq | VIA_GET_IN : seq).toBigInteger());
        for (int b = 0; b < (payloadBytes + PacketBeat.DATA_BYTES - 1) / PacketBeat.DATA_BYTES; b++) {
            beats.add(rng.bits(PacketBeat.DATA_BITS));
        }
        return new Pkt(src, seq, dest, type, viaGetIn, List.copyOf(beats));
    }

    /** Queues {@code p} on its input stream and registers what the crossbar must do with it. */
    void send(Pkt p) {
        if (p.dest >= ports) {
            if (p.viaGetIn) {
                expectedGetDrops[p.src]++;
            } else {
                expectedDrops[p.src]++;
            }
        } else {
            int vc = p.viaGetIn ? nvc : DmaCrossbar.vcOf(p.dest, p.type == PktType.GET, dut.vcs);
            boards[p.dest][p.src][vc].expect(p.beats);
        }
        (p.viaGetIn ? getDrivers : drivers).get(p.src).packet(p.beats);
    }

    boolean idle() {
        for (int i = 0; i < ports; i++) {
            if (!drivers.get(i).idle() || !getDrivers.get(i).idle()) {
                return false;
            }
        }
        for (var a : boards) {
            for (var b : a) {
                for (var s : b) {
                    if (!s.isEmpty()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** The monitor of GET output {@code o}. */
    Monitor getMonitor(int o) {
        return monitors.get(ports + o);
    }

    long delivered() {
        return monitors.stream().mapToLong(m -> m.packets).sum();
    }

    /** Takes one output's beats with random backpressure and hands each whole packet to its scoreboard. */
    final class Monitor extends BeatMonitor {
        final int o;
        final boolean getOutput;
        long packets;
        /** source input of every packet delivered, in order */
        final List<Integer> sources = new ArrayList<>();

        Monitor(String name, int o, boolean getOutput, double readyP) {
            super(name, (getOutput ? dut.getOut : dut.out).get(o), readyP, null);
            this.o = o;
            this.getOutput = getOutput;
        }

        @Override
        protected void packet(List<BigInteger> p) {
            BitVector h = BitVector.of(PacketBeat.DATA_BITS, p.get(0));
            int dest = (int) h.get(dut.destField);
            int src = (int) h.get(HeaderLayout.HEADER.QP_MAGIC);
            boolean get = h.get(HeaderLayout.HEADER.PKT_TYPE) == PktType.GET.code();
            checkEqual("destination of a packet on " + name() + " (" + show(p) + ")", o, dest);
            checkEqual("GET on " + name() + " (" + show(p) + ")", getOutput, get);
            if (src >= ports) {
                throw fail("packet with unknown source " + src + ": " + show(p));
            }
            // a GET goes through its input's GET buffer whichever stream it came in on; order holds per stream
            int vc = (h.get(HeaderLayout.HEADER.ADDRESS) & VIA_GET_IN) != 0 ? nvc : DmaCrossbar.vcOf(dest, get, dut.vcs);
            packets++;
            sources.add(src);
            boards[o][src][vc].observe(p);
        }
    }
}
