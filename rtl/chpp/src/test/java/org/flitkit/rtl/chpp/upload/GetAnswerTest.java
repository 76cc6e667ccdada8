package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.receive.DispatchHarness;
import org.flitkit.rtl.chpp.send.DescriptorBeat;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.ChppFormatException;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PacketHeader;
import org.flitkit.formats.chpp.Packets;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.env.host.PcieHost;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The GET path against formats/chpp {@code Packets.answerGet}: random GET packets (every field random, half of
 * them corrupted in one of nine ways) become exactly the PUT descriptor {@code answerGet} makes, byte for byte,
 * with function and QP from the DST_ID; a payload {@code answerGet} refuses gives nothing and is counted; packets
 * of the wrong shape are counted as malformed. docs/chpp-upload.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
public class GetAnswerTest {

    public record Out(int function, int qp, int length, int status, BigInteger data, boolean last) {
    }

    /** Takes a descriptor stream ({@link GetAnswer#out}) with random backpressure and checks the hold rule. */
    public static final class Sink extends Component {
        final org.flitkit.hdl.lib.Decoupled<DescriptorBeat> port;
        final double readyP;
        public final List<Out> beats = new ArrayList<>();
        private Out held;
        private boolean ready;

        public Sink(org.flitkit.hdl.lib.Decoupled<DescriptorBeat> port, double readyP) {
            super("sink");
            this.port = port;
            this.readyP = readyP;
        }

        @Override
        protected void drive() {
            ready = rng().chance(readyP);
            sim().poke(port.ready, ready);
        }

        @Override
        protected void sample() {
            DescriptorBeat b = port.bits;
            boolean valid = sim().peekBool(port.valid);
            Out o = valid ? new Out((int) sim().peek(b.function), (int) sim().peek(b.qp), (int) sim().peek(b.length),
                    (int) sim().peek(b.status), sim().peekBig(b.data), sim().peekBool(b.last)) : null;
            if (held != null && !held.equals(o)) {
                throw fail("an offered descriptor beat changed or vanished before it was taken: " + held + " -> " + o);
            }
            held = valid && !ready ? o : null;
            if (valid && ready) {
                beats.add(o);
            }
        }
    }

    /** The two descriptor beats the formats' answer gives (descriptor byte i in bits 8i+7..8i). */
    public static List<Out> expected(PacketHeader h, Descriptor.Put put) {
        byte[] bytes = put.encode();
        List<Out> out = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            byte[] part = new byte[16];
            System.arraycopy(bytes, 16 * k, part, 0, 16);
            out.add(new Out(h.dst().function(), h.dst().qp(), 32, 0, PcieHost.fromLittleEndian(part).and(BeatMonitor.MASK128), k == 1));
        }
        return out;
    }

    @Test
    void getPacketsBecomeTheFormatsPutDescriptorByteForByteAndBadPayloadsAreCounted(RunConfig cfg) {
        Rng r = new Rng(31);
        try (Testbench<GetAnswer> tb = Testbench.create(GetAnswer::new, cfg)) {
            GetAnswer dut = tb.dut();
            BeatSource driver = tb.add(new BeatSource("driver", dut.in, 0.3));
            Sink sink = tb.add(new Sink(dut.out, 0.5));
            tb.reset(1);
            List<Out> want = new ArrayList<>();
            int answered = 0;
            int refused = 0;
            int[] corruptions = new int[10];
            for (int i = 0; i < 400; i++) {
                EndpointId dst = new EndpointId(r.nextInt(8), r.nextInt(8), r.nextInt(4));
                long len = i == 0 ? 1 : i == 1 ? 0xFFFF_FFFFL : 1 + r.nextLong(0xFFFF_FFFEL);
                long dstAddr = i == 2 ? (1L << 48) - 1 : r.nextLong((1L << 48) - len);
                if (i == 2) {
                    len = 1;
                }
                Descriptor.Get g = new Descriptor.Get(new Descriptor.Common(r.nextInt(4), r.chance(0.5), r.chance(0.5), dst,
                        r.nextInt(1 << 16), r.nextInt(1 << 16)), len, r.nextLong(), dstAddr);
                PacketHeader h = Packets.getHeader(g, r.nextInt(8), r.nextInt(8), r.nextInt(1 << 13) << 3, r.nextInt(8));
                byte[] payload = g.encode();
                int how = r.chance(0.5) ? 1 + r.nextInt(9) : 0;
                switch (how) {
                    case 1 -> payload[0] = (byte) ((payload[0] & 0xF0) | 3); // a PUT descriptor
                    case 2 -> payload[0] = (byte) ((payload[0] & 0xF0) | 7); // unknown kind
                    case 3 -> payload[1] |= (byte) (1 << r.nextInt(8)); // reserved bits 15:8
                    case 4 -> payload[12 + r.nextInt(4)] |= (byte) (1 << r.nextInt(8)); // reserved bits 127:96
                    case 5 -> java.util.Arrays.fill(payload, 8, 12, (byte) 0); // zero length
                    case 6 -> payload[30] = (byte) (1 + r.nextInt(255)); // DstAddr beyond 48 bits
                    case 7 -> { // DstAddr + Length beyond 2^48
                        long a = (1L << 48) - r.nextInt(1000);
                        for (int j = 0; j < 8; j++) {
                            payload[24 + j] = (byte) (a >>> (8 * j));
                        }
                        java.util.Arrays.fill(payload, 8, 12, (byte) 0xFF);
                    }
                    case 8 -> h = new PacketHeader(PktType.GET, h.tc(), false, true, false, 32, h.requesterId(), h.qpMagic(), h.src(),
                            new EndpointId(dst.processor(), dst.function(), (dst.qp() + 1) % 4), 0); // another DST_ID
                    case 9 -> h = new PacketHeader(PktType.GET, h.tc(), false, true, false, 32, h.requesterId(), h.qpMagic() ^ 0x10,
                            h.src(), dst, 0); // another key
                    default -> {
                    }
                }
                corruptions[how]++;
                Descriptor.Put put;
                try {
                    put = Packets.answerGet(h, payload);
                } catch (ChppFormatException e) {
                    put = null;
                }
                if (put != null) {
                    want.addAll(expected(h, put));
                    answered++;
                } else {
                    refused++;
                }
                driver.packet(UploadTestKit.packet(h.toBits().toBigInteger(), payload, null));
            }
            tb.runUntil("every GET judged", () -> driver.idle() && tb.sim().peek(dut.answered) + tb.sim().peek(dut.refused) == 400
                    && !tb.sim().peekBool(dut.out.valid), 100_000);
            assertThat(sink.beats).containsExactlyElementsOf(want);
            assertThat(tb.sim().peek(dut.answered)).isEqualTo(answered);
            assertThat(tb.sim().peek(dut.refused)).isEqualTo(refused);
            assertThat(tb.sim().peek(dut.malformed)).isZero();
            assertThat(refused).isGreaterThan(150);
            for (int how = 0; how < corruptions.length; how++) {
                assertThat(corruptions[how]).as("corruption %d used", how).isPositive();
            }
        }
    }

    @Test
    void packetsOfTheWrongShapeAreCountedAndTheNextGetIsAnswered(RunConfig cfg) {
        Rng r = new Rng(4);
        try (Testbench<GetAnswer> tb = Testbench.create(GetAnswer::new, cfg)) {
            GetAnswer dut = tb.dut();
            BeatSource driver = tb.add(new BeatSource("driver", dut.in, 0));
            Sink sink = tb.add(new Sink(dut.out, 1));
            tb.reset(1);
            EndpointId dst = new EndpointId(1, 5, 2);
            Descriptor.Get g = new Descriptor.Get(new Descriptor.Common(2, false, true, dst, 0xBEEF, 77), 4096, 0x1000, 0x2000);
            PacketHeader h = Packets.getHeader(g, 3, 4, 0x100, 1);
            List<BigInteger> good = UploadTestKit.packet(h.toBits().toBigInteger(), g.encode(), null);
            driver.packet(List.of(good.get(0))); // header only
            driver.packet(good.subList(0, 2)); // one payload beat
            List<BigInteger> longer = new ArrayList<>(good);
            longer.add(BigInteger.TEN);
            longer.add(BigInteger.TWO);
            driver.packet(longer); // four and five beats
            // a PUT header of 32 bytes on the GET path, and a GET header saying 48 bytes
            driver.packet(UploadTestKit.packet(DispatchHarness.header(0x60, 2, 2, 32, 0xBEEF, 1, dst.encode(), 0), g.encode(), null));
            driver.packet(UploadTestKit.packet(DispatchHarness.header(0x60, 3, 2, 48, 0xBEEF, 1, dst.encode(), 0), g.encode(), null));
            driver.packet(good);
            tb.runUntil("the good GET answered", () -> driver.idle() && sink.beats.size() == 2, 10_000);
            tb.run(10);
            assertThat(tb.sim().peek(dut.malformed)).isEqualTo(5);
            assertThat(tb.sim().peek(dut.answered)).isEqualTo(1);
            assertThat(sink.beats).containsExactlyElementsOf(expected(h, Packets.answerGet(h, g.encode())));
            assertThat(sink.beats.get(0).function()).isEqualTo(5);
            assertThat(sink.beats.get(0).qp()).isEqualTo(2);
        }
    }
}
