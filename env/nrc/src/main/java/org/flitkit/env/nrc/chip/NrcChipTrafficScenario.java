package org.flitkit.env.nrc.chip;

import org.flitkit.testbench.ScenarioOptions;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.link.LinkStatus;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.link.BitErrorInjector;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;

/**
 * Random data traffic through a whole NRC on all 24 ports, with bit errors on every cable in both directions: the
 * routing tables come from the E2PROM at power-up, each port's far end sends table-routed packets (1 to 8 flits,
 * data VCs 0, 1, 2, 4, 5) at an offered load, and a scoreboard checks that every packet arrives exactly once,
 * uncorrupted, on an output its table entry allows, in order per source, destination and VC where the route is a
 * single output. docs/th2-nrc-switch.md, "Chip-level tests".
 */
public final class NrcChipTrafficScenario {
    /** The counts of the PASS line, packets unless named otherwise. */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "traffic_cycles", "cycles of offered traffic (--cycles); the run then drains until every packet is delivered",
            "sent", "packets the port sources sent",
            "delivered", "packets that arrived at a far end (once each, else counted as duplicated)",
            "lost", "packets never delivered (the run fails unless 0)",
            "duplicated", "packets that arrived again after being delivered (fails unless 0)",
            "corrupted", "packets that arrived with different flits (fails unless 0)",
            "misrouted", "packets that left an output their destination ID does not allow (fails unless 0)",
            "out_of_order", "single-route packets that arrived after a later one of the same source, destination and VC (fails unless 0)",
            "flits_delivered", "flits of the delivered packets",
            "accepted_per_mille", "flits delivered per port per traffic cycle, x1000",
            "injected_bit_errors", "bits the cable error injectors flipped (--ber), both directions of every cable",
            "crc_errors", "frames the link layers refused on a CRC mismatch",
            "retransmitted", "frames the link layers sent again (go-back-N replay)",
            "frames_sent", "frames the link layers sent, both ends of every cable",
            "adaptive_low", "two-route packets delivered on the lower output (port < 12)",
            "adaptive_high", "two-route packets delivered on the upper output (port >= 12)",
            "traffic_cycles_per_second", "simulation speed during the traffic phase, cycles per wall-clock second");

    /** Destination IDs 0x0100 + q go to output q; 0x0300 + k may take output k or k + 12 (adaptive). */
    public static final int SINGLE_BASE = 0x0100;
    public static final int PAIR_BASE = 0x0300;
    static final int[] DATA_VCS = {0, 1, 2, 4, 5};

    public record Config(long cycles, double load, double ber, int cableLatency, double sinkReady) {
        public Config {
            if (cycles < 1 || !(load > 0 && load <= 1) || !(ber >= 0 && ber < 0.5) || cableLatency < 1 || !(sinkReady > 0 && sinkReady <= 1)) {
                throw new IllegalArgumentException("traffic: cycles >= 1, load in (0, 1], BER in [0, 0.5), cable latency >= 1, "
                        + "sink ready in (0, 1]; got " + this);
            }
        }
    }

    /** The command-line options of {@code ./hdl run nrc-chip-traffic} (the cycle budget is --cycles). */
    public static final Map<String, String> OPTIONS = ScenarioResult.legend(
            "load", "offered load, flits per cycle per port (default 0.5)",
            "ber", "bit error rate on every cable, both directions (default 1e-4)",
            "cable-latency", "cycles a frame takes over a cable (default 4)",
            "sink-ready", "probability a far end takes a flit in a cycle (default 0.9)");

    /** The options given as {@code --name value}, over the defaults. */
    public static Config config(long cycles, Map<String, String> values) {
        ScenarioOptions.requireKnown("nrc-chip-traffic", values, OPTIONS);
        return new Config(cycles, ScenarioOptions.number(values, "load", 0.5), ScenarioOptions.number(values, "ber", 1e-4),
                ScenarioOptions.smallInteger(values, "cable-latency", 4), ScenarioOptions.number(values, "sink-ready", 0.9));
    }

    private record Sent(int src, int dest, int vc, long seq, List<BigInteger> flits, long allowed) {
    }

    private NrcChipTrafficScenario() {
    }

    /** The NRC's E2PROM: CHIP_ID and the traffic's routing tables (common to all ports). */
    public static byte[] eeprom() {
        TableImage t = new TableImage();
        for (int q = 0; q < 24; q++) {
            t.allPorts(SINGLE_BASE + q, 1L << q);
        }
        for (int k = 0; k < 12; k++) {
            t.allPorts((PAIR_BASE + k) % SwitchParams.TH2.tableEntries(), 1L << k | 1L << (k + 12));
        }
        List<BootImage.Record> r = new ArrayList<>(List.of(new BootImage.Record(0x000, 0x0042)));
        r.addAll(t.records());
        return BootImage.at(0, BootImage.build(r));
    }

    public static ScenarioResult run(Config c, RunConfig rc) {
        int n = SwitchParams.TH2.ports();
        try (Testbench<NrcPeerBoard> tb = NrcPeerBoard.testbench(c.cableLatency(), rc)) {
            NrcPeerBoard b = tb.dut();
            Simulator sim = tb.sim();
            List<FrameSource<List<BigInteger>>> sources = new ArrayList<>();
            List<BitErrorInjector> errors = new ArrayList<>();
            Map<Long, Sent> pending = new HashMap<>();
            Map<Long, Long> lastSeq = new HashMap<>();
            long[] counts = new long[8]; // delivered, duplicated, corrupted, misrouted, outOfOrder, flits, pairLow, pairHigh
            for (int p = 0; p < n; p++) {
                int port = p;
                sources.add(tb.add(new FrameSource<>("src" + p, StreamPort.of(b.portIn.get(p)), PacketCodec.beats())));
                StreamPort out = StreamPort.of(b.portOut.get(p));
                tb.add(new StreamSink("sink" + p, out).backpressure(Throttle.random(c.sinkReady())));
                tb.add(new FrameMonitor<>("mon" + p, out, Framing.lastBit(196), PacketCodec.beats()).maxBeats(DataLayouts.MAX_FLITS)
                        .subscribe(flits -> check(port, flits, pending, lastSeq, counts)));
                errors.add(tb.add(new BitErrorInjector("errIn" + p, b.errorIn.get(p), b.cutIn.get(p), c.ber())));
                errors.add(tb.add(new BitErrorInjector("errOut" + p, b.errorOut.get(p), b.cutOut.get(p), c.ber())));
            }
            tb.reset(4);
            tb.runUntil("the NRC's power-up load (CHIP_ID and routing tables)", () -> !sim.peekBool(b.nrc.booting), 5_000_000);
            if (sim.peekBool(b.nrc.bootError)) {
                throw new IllegalStateException("the NRC's power-up load failed");
            }
            long trafficStart = System.nanoTime();
            Rng rng = tb.rng("traffic");
            long[] seq = new long[n];
            double startP = c.load() / 4.5; // mean length 4.5 flits
            long start = tb.cycle();
            tb.add(new Component("injector") {
                @Override
                protected void drive() {
                    if (tb.cycle() - start >= c.cycles()) {
                        return;
                    }
                    for (int p = 0; p < n; p++) {
                        if (rng.chance(startP)) {
                            Sent s = packet(p, seq[p]++, rng);
                            pending.put(id(s.src(), s.seq()), s);
                            sources.get(p).send(s.flits());
                        }
                    }
                }
            });
            tb.run(c.cycles());
            double trafficSeconds = (System.nanoTime() - trafficStart) / 1e9;
            for (BitErrorInjector e : errors) {
                e.ber(0);
            }
            tb.add(new Component("scoreboard") {
                @Override
                public List<String> describeState() {
                    List<String> l = new ArrayList<>();
                    l.add(pending.size() + " packets pending, e.g. " + pending.values().stream().limit(5)
                            .map(s -> s.src() + "->0x" + Integer.toHexString(s.dest()) + " vc" + s.vc() + " seq" + s.seq() + " len" + s.flits().size())
                            .toList());
                    l.add("NRC drops: malformed " + sim.peek(b.nrc.core.malformedDrops) + " unroutable " + sim.peek(b.nrc.core.unroutableDrops)
                            + " bad VC " + sim.peek(b.nrc.core.badVcDrops) + " overflow " + sim.peek(b.nrc.core.overflowDrops)
                            + " framing " + sim.peek(b.nrc.core.framingErrors));
                    for (int p = 0; p < n; p++) {
                        l.add("port " + p + ": forwarded " + sim.peek(b.nrc.core.forwarded.get(p)) + " NRC link up " + sim.peek(b.nrc.links[p].status.up) + " rx " + sim.peek(b.nrc.links[p].status.flitsReceived)
                                + " resent " + sim.peek(b.nrc.links[p].status.retransmitted) + "; far end up " + sim.peek(b.peers[p].status.up)
                                + " rx " + sim.peek(b.peers[p].status.flitsReceived) + " flits held at the NRC " + sim.peek(b.peers[p].farBuffer.occupied)
                                + (sources.get(p).idle() ? "" : " (source busy)"));
                    }
                    return l;
                }
            });
            tb.runUntil("every packet delivered", pending::isEmpty, 200_000);
            long sent = 0;
            for (long x : seq) {
                sent += x;
            }
            long retrans = 0;
            long frames = 0;
            long crc = 0;
            for (int p = 0; p < n; p++) {
                for (LinkStatus st : List.of(b.nrc.links[p].status, b.peers[p].status)) {
                    retrans += sim.peek(st.retransmitted);
                    frames += sim.peek(st.framesSent);
                    crc += sim.peek(st.crcErrors);
                }
            }
            long injected = errors.stream().mapToLong(BitErrorInjector::injectedBits).sum();
            tb.finish();
            if (!pending.isEmpty() || counts[1] + counts[2] + counts[3] + counts[4] != 0) {
                throw tb.fail("lost=" + pending.size() + " duplicated=" + counts[1] + " corrupted=" + counts[2] + " misrouted=" + counts[3]
                        + " out-of-order=" + counts[4]);
            }
            return tb.result().with("traffic_cycles", c.cycles()).with("sent", sent).with("delivered", counts[0]).with("lost", pending.size())
                    .with("duplicated", counts[1]).with("corrupted", counts[2]).with("misrouted", counts[3]).with("out_of_order", counts[4])
                    .with("flits_delivered", counts[5]).with("accepted_per_mille", Math.round(1000.0 * counts[5] / c.cycles() / n))
                    .with("injected_bit_errors", injected).with("crc_errors", crc).with("retransmitted", retrans).with("frames_sent", frames)
                    .with("adaptive_low", counts[6]).with("adaptive_high", counts[7])
                    .with("traffic_cycles_per_second", Math.round(c.cycles() / trafficSeconds));
        }
    }

    private static long id(int src, long seq) {
        return (long) src << 31 | seq;
    }

    private static Sent packet(int src, long seq, Rng rng) {
        int len = 1 + rng.nextInt(DataLayouts.MAX_FLITS);
        int vc = DATA_VCS[rng.nextInt(DATA_VCS.length)];
        int dest;
        long allowed;
        while (true) {
            if (rng.chance(0.25)) {
                int k = rng.nextInt(12);
                if (k == src || k + 12 == src) {
                    continue;
                }
                dest = PAIR_BASE + k;
                allowed = 1L << k | 1L << (k + 12);
            } else {
                int q = rng.nextInt(24);
                if (q == src) {
                    continue;
                }
                dest = SINGLE_BASE + q;
                allowed = 1L << q;
            }
            break;
        }
        List<BigInteger> flits = new ArrayList<>();
        BitVector h = BitVector.zero(Th2.FLIT_BITS)
                .with(DataLayouts.HEAD.KIND, len == 1 ? 0b11 : 0b10)
                .with(DataLayouts.HEAD.RT_TYPE, Th2.RT_TABLE)
                .with(DataLayouts.HEAD.VC, vc)
                .with(DataLayouts.HEAD.LEN, len)
                .with(DataLayouts.HEAD.DEST_TYPE, ChipType.NIC.code())
                .with(DataLayouts.HEAD.DEST_ID, dest)
                .with(DataLayouts.HEAD.SRC_ID, NrcPeerBoard.PeerIdentity.of(src).chipId())
                .with(DataLayouts.HEAD.PACKET_ID, id(src, seq));
        flits.add(h.toBigInteger());
        for (int i = 1; i < len; i++) {
            BigInteger payload = rng.bits(196);
            flits.add(payload.or(BigInteger.valueOf(i == len - 1 ? 0b01 : 0b00).shiftLeft(196)));
        }
        return new Sent(src, dest, vc, seq, flits, allowed);
    }

    private static void check(int port, List<BigInteger> flits, Map<Long, Sent> pending, Map<Long, Long> lastSeq, long[] counts) {
        BitVector h = BitVector.of(Th2.FLIT_BITS, flits.get(0));
        long id = h.get(DataLayouts.HEAD.PACKET_ID);
        Sent s = pending.remove(id);
        if (s == null) {
            counts[1]++;
            return;
        }
        counts[0]++;
        counts[5] += flits.size();
        if (!flits.equals(s.flits())) {
            counts[2]++;
        }
        if ((s.allowed() >> port & 1) == 0) {
            counts[3]++;
        }
        if (Long.bitCount(s.allowed()) == 1) {
            long key = (long) s.src() << 24 | (long) s.dest() << 8 | s.vc();
            Long last = lastSeq.put(key, s.seq());
            if (last != null && last > s.seq()) {
                counts[4]++;
            }
        } else {
            counts[port < 12 ? 6 : 7]++;
        }
    }
}
