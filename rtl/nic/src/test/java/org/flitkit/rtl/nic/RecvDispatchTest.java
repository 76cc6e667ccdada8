package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.core.Layout;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.PulseCounter;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link RecvDispatch} against a software model of its checks: seeded good and bad packets and broken flit
 * sequences with random gaps and random backpressure; both FIFOs carry exactly the model's packets in order and
 * every drop pulses its own counter exactly once. Also the FIFO depths: how many flits it takes while stalled.
 */
@ExtendWith(TestbenchExtension.class)
class RecvDispatchTest {
    static final int ME = 0x0304;

    enum Where { NMA, HOST, CRC, MALFORMED, DEST_TYPE, DEST_ID, VP }

    /** The model: where a whole packet goes, and the first check it fails. */
    static Where classify(BitVector p, int chipId) {
        long type = p.get(PacketLayout.BODY1.NMP_TYPE);
        boolean crcOk = PacketLayout.crcMatches(p);
        boolean forNic = p.get(PacketLayout.HEAD.DEST_TYPE) == ChipType.NIC.code();
        if ((type & 1) == 0) {
            return forNic ? Where.NMA : crcOk ? Where.DEST_TYPE : Where.CRC;
        }
        if (!crcOk) {
            return Where.CRC;
        }
        if (!framed(p, type)) {
            return Where.MALFORMED;
        }
        if (!forNic) {
            return Where.DEST_TYPE;
        }
        if (p.get(PacketLayout.HEAD.DEST_ID) != chipId) {
            return Where.DEST_ID;
        }
        return p.get(PacketLayout.HEAD.DEST_VP) < Th2.VP_COUNT ? Where.HOST : Where.VP;
    }

    static boolean framed(BitVector p, long type) {
        boolean known = java.util.Arrays.stream(NmpType.values()).anyMatch(t -> t.code() == type && !t.isRequest());
        for (var gap : PacketLayout.PACKET.reserved()) {
            if (!p.slice(gap).isZero()) {
                return false;
            }
        }
        return known && p.get(PacketLayout.HEAD.VC) == Th2.MANAGEMENT_VC && p.get(PacketLayout.HEAD.LEN) == Th2.PACKET_FLITS
                && p.get(PacketLayout.HEAD.RT_TYPE) == Th2.RT_SOURCE && p.get(PacketLayout.HEAD.TYPE) == Th2.TYPE_MP
                && p.get(PacketLayout.HEAD.SM) == 0 && p.get(PacketLayout.HEAD.INST) == 1;
    }

    /** The flits to send and what the model expects of them. */
    static final class Stimulus {
        final List<BigInteger> flits = new ArrayList<>();
        final List<BitVector> toNma = new ArrayList<>();
        final List<BitVector> toHost = new ArrayList<>();
        final Map<Where, Integer> drops = new EnumMap<>(Where.class);

        void packet(BitVector p) {
            flits.addAll(NicPackets.flits(p));
            Where w = classify(p, ME);
            switch (w) {
                case NMA -> toNma.add(p);
                case HOST -> toHost.add(p);
                default -> drops.merge(w, 1, Integer::sum);
            }
        }

        /** A broken flit sequence (counted once as malformed); a good packet always follows it. */
        void broken(List<BigInteger> fragment) {
            flits.addAll(fragment);
            drops.merge(Where.MALFORMED, 1, Integer::sum);
        }

        int drops(Where w) {
            return drops.getOrDefault(w, 0);
        }
    }

    static BigInteger kind(BigInteger flit, int kind) {
        return flit.andNot(BigInteger.valueOf(3).shiftLeft(196)).or(BigInteger.valueOf(kind).shiftLeft(196));
    }

    static Stimulus randomStimulus(RandomGenerator rnd, int items) {
        Stimulus s = new Stimulus();
        for (int i = 0; i < items; i++) {
            BitVector good = NicPackets.toHost(rnd, ME, rnd.nextInt(Th2.VP_COUNT)).toBits();
            int pick = rnd.nextInt(100);
            if (pick < 25) {
                s.packet(good);
            } else if (pick < 40) {
                s.packet(NicPackets.forNma(rnd, ME).toBits());
            } else if (pick < 46) {
                s.packet(NicPackets.request(rnd, ME, 1, 2, rnd.nextBoolean()).toBits()); // DestType NRC: a NIC does not forward
            } else if (pick < 54) {
                int bit;
                do {
                    bit = rnd.nextInt(Th2.PACKET_BITS);
                } while (bit % Th2.FLIT_BITS >= 196 || bit >= 105 && bit < 110); // Kind bits frame the flits; HopPtr is not covered
                s.packet(good.flip(bit));
            } else if (pick < 60) {
                s.packet(NicPackets.withField(good, PacketLayout.HEAD.DEST_TYPE, ChipType.NRC.code()));
            } else if (pick < 66) {
                s.packet(NicPackets.withField(good, PacketLayout.HEAD.DEST_ID, ME ^ (1 + rnd.nextInt(0xFFFE))));
            } else if (pick < 72) {
                s.packet(NicPackets.withField(good, PacketLayout.HEAD.DEST_VP, Th2.VP_COUNT + rnd.nextInt(64 - Th2.VP_COUNT)));
            } else if (pick < 82) {
                s.packet(malformed(rnd, good));
            } else {
                List<BigInteger> f = NicPackets.flits(good);
                switch (rnd.nextInt(6)) {
                    case 0 -> s.broken(f.subList(0, 1 + rnd.nextInt(3))); // truncated: the next head breaks it
                    case 1 -> s.broken(List.of(f.get(1), f.get(2))); // bodies without a head
                    case 2 -> s.broken(List.of(f.get(0), f.get(1), f.get(3))); // a tail where a body was due
                    case 3 -> s.broken(List.of(f.get(3))); // a lone tail
                    case 4 -> s.broken(List.of(f.get(0), f.get(1), f.get(2), kind(f.get(3), Th2.KIND_BODY), f.get(2))); // no tail
                    default -> s.broken(List.of(kind(f.get(1), 3))); // an invalid kind
                }
                s.packet(NicPackets.toHost(rnd, ME, rnd.nextInt(Th2.VP_COUNT)).toBits());
            }
        }
        return s;
    }

    /** A chip-to-server packet with a good CRC but bad framing. */
    static BitVector malformed(RandomGenerator rnd, BitVector good) {
        FlitLayouts.Head h = PacketLayout.HEAD;
        switch (rnd.nextInt(6)) {
            case 0:
                return NicPackets.withField(good, h.VC, 2);
            case 1:
                return NicPackets.withField(good, h.LEN, 3);
            case 2:
                return NicPackets.withField(good, h.INST, 0);
            case 3:
                return NicPackets.withField(good, PacketLayout.BODY1.NMP_TYPE, 0x1B); // odd but no such type
            case 4:
                return NicPackets.withField(good, h.RT_TYPE, Th2.RT_TABLE);
            default:
                Layout l = PacketLayout.PACKET;
                var gap = l.reserved().get(rnd.nextInt(l.reserved().size()));
                return PacketLayout.withCrc(good.flip(gap.lsb() + rnd.nextInt(gap.width())));
        }
    }

    static final class Env {
        final StreamSource source;
        final InOrderScoreboard<BitVector> nma;
        final InOrderScoreboard<BitVector> host;
        final Map<Where, PulseCounter> pulses = new EnumMap<>(Where.class);

        Env(Testbench<RecvDispatch> tb, Throttle gaps, Throttle nmaReady, Throttle hostReady) {
            RecvDispatch d = tb.dut();
            tb.sim().poke(d.chipId, ME);
            source = tb.add(new StreamSource("link", StreamPort.of(d.linkIn)).gaps(gaps));
            nma = out(tb, "nma", StreamPort.of(d.toNma), nmaReady);
            host = out(tb, "host", StreamPort.of(d.toHost), hostReady);
            pulses.put(Where.CRC, tb.add(new PulseCounter("crc", d.crcDrop)));
            pulses.put(Where.MALFORMED, tb.add(new PulseCounter("malformed", d.malformedDrop)));
            pulses.put(Where.DEST_TYPE, tb.add(new PulseCounter("dest_type", d.destTypeDrop)));
            pulses.put(Where.DEST_ID, tb.add(new PulseCounter("dest_id", d.destIdDrop)));
            pulses.put(Where.VP, tb.add(new PulseCounter("vp", d.vpDrop)));
        }

        static InOrderScoreboard<BitVector> out(Testbench<RecvDispatch> tb, String name, StreamPort port, Throttle ready) {
            InOrderScoreboard<BitVector> sb = tb.add(new InOrderScoreboard<>(name + "_scoreboard"));
            sb.format(NicPackets::show);
            tb.add(new StreamSink(name + "_sink", port).backpressure(ready));
            tb.add(new StreamMonitor(name + "_monitor", port).checkHoldEveryCycle().subscribe(b -> sb.observe(NicPackets.bits(b))));
            return sb;
        }

        void load(Stimulus s) {
            s.flits.forEach(source::send);
            s.toNma.forEach(nma::expect);
            s.toHost.forEach(host::expect);
        }

        long pulses(Where w) {
            return pulses.get(w).count();
        }
    }

    @Test
    void sendsEachPacketWhereTheModelSaysAndCountsEveryDropOnce(RunConfig cfg) {
        try (Testbench<RecvDispatch> tb = Testbench.create(RecvDispatch::new, cfg)) {
            Env env = new Env(tb, Throttle.busy(0.3), Throttle.busy(0.5), Throttle.busy(0.5));
            Stimulus s = randomStimulus(tb.rng("packets"), 500);
            env.load(s);
            tb.reset(1);
            tb.runUntil("every flit taken and every packet out", () -> env.source.idle() && env.nma.isEmpty() && env.host.isEmpty(), 40_000);
            tb.run(5);
            tb.finish();
            assertThat(env.source.sent()).isEqualTo(s.flits.size());
            assertThat(env.nma.matched()).isEqualTo(s.toNma.size());
            assertThat(env.host.matched()).isEqualTo(s.toHost.size());
            for (Where w : List.of(Where.CRC, Where.MALFORMED, Where.DEST_TYPE, Where.DEST_ID, Where.VP)) {
                assertThat(env.pulses(w)).as(w.name()).isEqualTo(s.drops(w));
                assertThat(s.drops(w)).as("the stimulus has some " + w).isGreaterThan(10);
            }
            assertThat(s.toNma.size() + s.toHost.size() + s.drops.values().stream().mapToInt(Integer::intValue).sum()
                    - s.drops(Where.MALFORMED)).isGreaterThan(0);
        }
    }

    @Test
    void stalledOutputsFillTheFifosThenEverythingDrains(RunConfig cfg) {
        try (Testbench<RecvDispatch> tb = Testbench.create(RecvDispatch::new, cfg)) {
            boolean[] open = {false};
            Throttle gate = (rng, cycle) -> open[0];
            Env env = new Env(tb, Throttle.NONE, gate, gate);
            RandomGenerator rnd = tb.rng("packets");
            Stimulus responses = new Stimulus();
            for (int i = 0; i < 8; i++) {
                responses.packet(NicPackets.toHost(rnd, ME, i).toBits());
            }
            env.load(responses);
            tb.reset(1);
            tb.run(100);
            // 4 packets in the response FIFO, 1 in the stage, 3 flits of the next held
            assertThat(env.source.sent()).isEqualTo(4 * (RecvDispatch.HOST_FIFO_DEPTH + 1) + 3);
            open[0] = true;
            tb.runUntil("all out", () -> env.host.isEmpty() && env.source.idle(), 200);

            open[0] = false;
            Stimulus requests = new Stimulus();
            for (int i = 0; i < 5; i++) {
                requests.packet(NicPackets.forNma(rnd, ME).toBits());
            }
            env.load(requests);
            long before = env.source.sent();
            tb.run(100);
            assertThat(env.source.sent() - before).isEqualTo(4 * (RecvDispatch.NMA_FIFO_DEPTH + 1) + 3);
            open[0] = true;
            tb.runUntil("all out", () -> env.nma.isEmpty() && env.source.idle(), 200);
            tb.finish();
            assertThat(env.host.matched()).isEqualTo(8);
            assertThat(env.nma.matched()).isEqualTo(5);
        }
    }
}
