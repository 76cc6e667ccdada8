package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.PacketBeat;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.PacketHeader;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.BitVector;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packer behind the real descriptor stages ({@link PackerStages}) against the real {@link PcieHost}: descriptors
 * encoded by formats/chpp in host memory, doorbells rung through the front, the extract stage's control, destination
 * and NAP data streams straight into the packer. The source data of NAP indirect, PUT and chain transfers comes
 * from host memory through a test-side stand-in for the data stages, which are not built yet. Every packet must be
 * the reference cut of its descriptor. docs/chpp-packer.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class PackerStagesTest {
    static final ChppParams P = ChppParams.paper().withCompletionTimeout(3000);
    static final SendEngineParams SP = PackerTest.SP;

    static final class Harness implements AutoCloseable {
        final Testbench<PackerStages> tb;
        final PackerStages d;
        final HostMemory mem = new HostMemory();
        final PcieHost host;
        final ArrayDeque<long[]> rings = new ArrayDeque<>();
        final List<Long> rungAt = new ArrayList<>();
        final List<List<BigInteger>> packets = new ArrayList<>();
        final List<Long> headerAt = new ArrayList<>();
        final List<PackerHarness.Ev> events = new ArrayList<>();
        final ArrayDeque<long[]> dataBeats = new ArrayDeque<>();
        final ArrayDeque<BigInteger> dataValues = new ArrayDeque<>();
        int getBeats;

        Harness(RunConfig cfg, double ready) {
            tb = Testbench.create(() -> new PackerStages(P, SP), cfg);
            d = tb.dut();
            host = tb.add(new PcieHost("host", mem, PcieParams.chpp()).dma(d.dmaRq, d.dmaCpl));
            tb.add(new Ringer());
            tb.add(new DataStandIn(ready));
            tb.add(new Sinks(ready));
            tb.reset(1);
        }

        @Override
        public void close() {
            tb.close();
        }

        /** Rings a doorbell (one written per cycle) for descriptor bytes at {@code addr}. */
        void ring(int function, long addr, int length, int qp) {
            rings.add(new long[] {function, addr, length, qp});
        }

        final class Ringer extends Component {
            Ringer() {
                super("ringer");
            }

            @Override
            protected void drive() {
                long[] r = rings.peekFirst();
                sim().poke(d.write.valid, r != null);
                if (r != null) {
                    sim().poke(d.write.bits.function, r[0]);
                    sim().poke(d.write.bits.doorbell.addr, r[1]);
                    sim().poke(d.write.bits.doorbell.length, r[2]);
                    sim().poke(d.write.bits.doorbell.qp, r[3]);
                }
            }

            @Override
            protected void sample() {
                if (rings.pollFirst() != null) {
                    rungAt.add(cycle());
                }
            }
        }

        /**
         * Stands in for the data-read, data-extract and reorder stages (not built yet): takes the source segments,
         * reads their bytes from host memory at once, and offers them as {@link DataBeat}s from transfer byte 0,
         * with random idle cycles. It is not a model of their timing.
         */
        final class DataStandIn extends Component {
            final double p;
            final java.io.ByteArrayOutputStream xfer = new java.io.ByteArrayOutputStream();
            boolean srcReady;
            boolean showing;

            DataStandIn(double p) {
                super("dataStages");
                this.p = p;
            }

            @Override
            protected void drive() {
                srcReady = rng().chance(p);
                sim().poke(d.src.ready, srcReady);
                if (!showing) {
                    showing = !dataBeats.isEmpty() && rng().chance(p);
                }
                sim().poke(d.data.valid, showing);
                if (showing) {
                    long[] b = dataBeats.peekFirst();
                    sim().poke(d.data.bits.data, dataValues.peekFirst());
                    sim().poke(d.data.bits.bytes, b[0]);
                    sim().poke(d.data.bits.last, b[1] != 0);
                    sim().poke(d.data.bits.status, CompletionStatus.OK.code());
                }
            }

            @Override
            protected void sample() {
                Simulator s = sim();
                if (showing && s.peekBool(d.data.ready)) {
                    dataBeats.pollFirst();
                    dataValues.pollFirst();
                    showing = false;
                }
                if (srcReady && s.peekBool(d.src.valid)) {
                    byte[] bytes = mem.read(s.peek(d.src.bits.address), (int) s.peek(d.src.bits.length));
                    xfer.writeBytes(bytes);
                    if (s.peekBool(d.src.bits.last)) {
                        byte[] all = xfer.toByteArray();
                        xfer.reset();
                        for (int i = 0; i < all.length; i += 16) {
                            byte[] chunk = Arrays.copyOfRange(all, i, Math.min(all.length, i + 16));
                            dataBeats.add(new long[] {chunk.length, i + 16 >= all.length ? 1 : 0});
                            dataValues.add(PackerHarness.le(chunk, null));
                        }
                    }
                }
            }
        }

        /** Takes packets (recording each header's cycle), GET beats and both event streams, each ready at random. */
        final class Sinks extends Component {
            final double p;
            final List<BigInteger> beats = new ArrayList<>();
            boolean outReady;
            boolean getReady;
            boolean evReady;

            Sinks(double p) {
                super("sinks");
                this.p = p;
            }

            @Override
            protected void drive() {
                outReady = rng().chance(p);
                getReady = rng().chance(p);
                evReady = rng().chance(p);
                sim().poke(d.out.ready, outReady);
                sim().poke(d.get.ready, getReady);
                sim().poke(d.packerEvent.ready, evReady);
                sim().poke(d.extractEvent.ready, true);
            }

            @Override
            protected void sample() {
                Simulator s = sim();
                if (outReady && s.peekBool(d.out.valid)) {
                    if (beats.isEmpty()) {
                        headerAt.add(cycle());
                    }
                    beats.add(s.peekBig(d.out.bits.data));
                    if (s.peekBool(d.out.bits.last)) {
                        packets.add(List.copyOf(beats));
                        beats.clear();
                    }
                }
                if (getReady && s.peekBool(d.get.valid)) {
                    getBeats++;
                }
                if (evReady && s.peekBool(d.packerEvent.valid)) {
                    SendCompletionEvent e = d.packerEvent.bits;
                    events.add(new PackerHarness.Ev((int) s.peek(e.status), (int) s.peek(e.function), (int) s.peek(e.qp),
                            (int) s.peek(e.kind), (int) s.peek(e.cookie), s.peek(e.bytes)));
                }
                if (s.peekBool(d.extractEvent.valid)) {
                    throw fail("descriptor extract refused or failed a descriptor: status " + s.peek(d.extractEvent.bits.status));
                }
            }
        }
    }

    /** The packet as formats/chpp reads it: header, payload (wire order, Length bytes). */
    static PackerHarness.Pkt decode(List<BigInteger> beats) {
        PacketHeader h = PacketHeader.decode(BitVector.of(PacketBeat.DATA_BITS, beats.get(0)));
        byte[] payload = new byte[h.length()];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) beats.get(1 + i / 16).shiftRight(120 - 8 * (i % 16)).intValue();
        }
        assertThat(beats).hasSize(1 + (h.length() + 15) / 16);
        return new PackerHarness.Pkt(h, payload);
    }

    @Test
    void descriptorsInHostMemoryBecomeExactlyTheirPackets(RunConfig cfg) {
        try (Harness b = new Harness(cfg, 0.7)) {
            Rng r = new Rng(23);
            PackerTest.Space space = new PackerTest.Space(r);
            List<PackerHarness.Pkt> expected = new ArrayList<>();
            List<PackerHarness.Ev> expectedEvents = new ArrayList<>();
            long srcAddr = 0x4000_0000L;
            int n = 40;
            for (int i = 0; i < n; i++) {
                PackerHarness.Xfer x = PackerTest.random(r, space, i + 1, 0);
                // put the transfer's source bytes where its descriptor says, segment by segment
                Descriptor d = x.d();
                List<Descriptor.Segment> srcs = new ArrayList<>();
                if (d instanceof Descriptor.Chain c) {
                    int off = 0;
                    for (Descriptor.Segment s : c.sources()) {
                        srcs.add(new Descriptor.Segment(srcAddr, s.length()));
                        b.mem.write(srcAddr, Arrays.copyOfRange(x.src(), off, off + (int) s.length()));
                        off += (int) s.length();
                        srcAddr += s.length() + 8;
                    }
                    d = new Descriptor.Chain(c.common(), srcs, c.destinations());
                } else if (d instanceof Descriptor.Put p) {
                    d = new Descriptor.Put(p.common(), p.length(), srcAddr, p.dstAddress());
                    b.mem.write(srcAddr, x.src());
                    srcAddr += x.src().length + 8;
                } else if (d instanceof Descriptor.NapIndirect ni) {
                    d = new Descriptor.NapIndirect(ni.common(), ni.length(), srcAddr);
                    b.mem.write(srcAddr, x.src());
                    srcAddr += x.src().length + 8;
                }
                int function = i % 8;
                PackerHarness.Xfer placed = new PackerHarness.Xfer(function, d, x.src());
                expected.addAll(PackerHarness.cut(SP, placed));
                if (d.common().sce()) {
                    expectedEvents.add(new PackerHarness.Ev(CompletionStatus.OK.code(), function, d.common().qp(), d.kind().code(), d.common().cookie(),
                            d.transferBytes()));
                }
                byte[] enc = d.encode();
                long at = 0x10_0000L + 0x2000L * i;
                b.mem.write(at, enc);
                b.ring(function, at, enc.length, d.common().qp());
            }
            b.tb.runUntil("every packet and event", () -> b.packets.size() == expected.size() && b.events.size() == expectedEvents.size()
                    && b.host.idle(), 200_000);
            b.tb.run(100);
            b.tb.finish();
            assertThat(b.packets).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                PackerHarness.Pkt got = decode(b.packets.get(i));
                assertThat(got.header()).as("packet %d", i).isEqualTo(expected.get(i).header());
                assertThat(got.payload()).as("packet %d payload", i).isEqualTo(expected.get(i).payload());
            }
            assertThat(b.events).isEqualTo(expectedEvents);
            assertThat(b.tb.sim().peek(b.d.packer.malformed)).isZero();
            System.out.printf("packer behind the descriptor stages: %d descriptors, %d packets, %d events, %d cycles%n", n, b.packets.size(),
                    b.events.size(), b.tb.cycle());
        }
    }

    @Test
    void napImmediateFromDoorbellToHeaderWithPcieHost(RunConfig cfg) {
        try (Harness b = new Harness(cfg, 1)) {
            byte[] msg = {1, 2, 3, 4, 5};
            Descriptor d = new Descriptor.NapImmediate(PackerTest.common(1, false, true, 1), msg);
            byte[] enc = d.encode();
            b.mem.write(0x10_0000L, enc);
            b.ring(3, 0x10_0000L, enc.length, 1);
            b.tb.runUntil("the NAP packet", () -> b.packets.size() == 1, 2000);
            long cycles = b.headerAt.get(0) - b.rungAt.get(0);
            System.out.println("packer: NAP immediate of 5 bytes, doorbell write -> header beat out: " + cycles + " cycles (130-cycle memory read included)");
            // descriptor stages: 136 cycles to the control word (docs/chpp-send-engine.md, "Measured"); packer: 2 more
            assertThat(cycles).isEqualTo(136 + 2);
            assertThat(decode(b.packets.get(0)).payload()).isEqualTo(msg);
        }
    }
}
