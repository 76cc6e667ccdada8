package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.TagScoreboard;
import org.flitkit.rtl.chpp.upload.BufferListRegs;
import org.flitkit.rtl.chpp.upload.BufferParams;
import org.flitkit.rtl.chpp.upload.GetAnswerTest;
import org.flitkit.rtl.chpp.upload.UploadTestKit;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PacketHeader;
import org.flitkit.formats.chpp.Packets;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The receive side wired as figure 13 ({@link ReceiveSide}) against {@link PcieHost}s on one host memory: random
 * PUT, NAP and GET packets, a fifth of them with a wrong key, go through dispatch; software polls the receive
 * completion ring by Phase and finds, per source and in order, the refusals, the PUT completions with their data
 * in place and the NAP completions with their messages in list-order buffers; GETs come out as the formats'
 * answer. docs/chpp-upload.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class ReceiveSideTest {
    static final int MPS = PcieParams.chpp().dma().maxPayloadBytes();
    static final long RING = 0x6_0000_0000L;
    static final long LIST = 0x7_0000_0000L;
    static final long BUFFERS = 0x9_0000_0000L;
    static final long PUTS = 0x12_0000_0000L;

    @Test
    void packetsThroughDispatchUploadAndTheRingEndWhereTheyShould(RunConfig cfg) {
        Rng r = new Rng(77);
        ChppParams p = ChppParams.paper();
        BufferParams bp = BufferParams.defaults();
        CompletionRingParams rp = new CompletionRingParams(64, 0x2000);
        try (Testbench<ReceiveSide> tb = Testbench.create(() -> new ReceiveSide(p, bp, rp, MPS), cfg)) {
            ReceiveSide d = tb.dut();
            HostMemory mem = new HostMemory();
            PcieHost regs = tb.add(new PcieHost("listHost", mem, PcieParams.chpp()).dma(d.listRq, d.listCpl).mmio(d.mmio));
            PcieHost putHost = tb.add(new PcieHost("putHost", mem, PcieParams.chpp()).dma(d.putRq, null).backpressure(Throttle.random(0.7)));
            PcieHost napHost = tb.add(new PcieHost("napHost", mem, PcieParams.chpp()).dma(d.napRq, null).backpressure(Throttle.random(0.7)));
            tb.add(new PcieHost("ringHost", mem, PcieParams.chpp()).dma(d.ringRq, null));
            tb.add(new TagScoreboard("tagsb", d.tags));
            BeatSource driver = tb.add(new BeatSource("driver", d.in, 0.2));
            GetAnswerTest.Sink descs = tb.add(new GetAnswerTest.Sink(d.descriptors, 0.6));
            int[] keys = new int[QpKeyWrite.LOCAL_QPS];
            ArrayDeque<Integer> toLoad = new ArrayDeque<>();
            for (int q = 0; q < keys.length; q++) {
                keys[q] = r.nextInt(1 << 16);
                toLoad.add(q);
            }
            tb.add(new Component("keys") {
                @Override
                protected void drive() {
                    Integer q = toLoad.poll();
                    sim().poke(d.keyWrite.valid, q != null);
                    if (q != null) {
                        sim().poke(d.keyWrite.bits.qp, q);
                        sim().poke(d.keyWrite.bits.key, keys[q]);
                        sim().poke(d.keyWrite.bits.enable, true);
                    }
                }
            });
            List<ReceiveCompletion> ringEntries = new ArrayList<>();
            List<Long> buffersPosted = new ArrayList<>();
            long[] producer = {0};
            Runnable postMore = () -> regs.mmioWrite(bp.mmioOffset() + BufferListRegs.REG_PRODUCER, producer[0]);
            // software: polls the ring by Phase and returns every entry; re-posts each NAP buffer once its entry is read
            tb.add(new Component("software") {
                long read;

                @Override
                protected void sample() {
                    byte[] e = mem.read(RING + 16 * (read % rp.entries()), 16);
                    if (((e[15] & 0x80) != 0) == ((read / rp.entries()) % 2 == 0)) {
                        ReceiveCompletion c = ReceiveCompletion.decode(e);
                        // the ring's Phase is its lap's (checked by the poll); the rest is the producer's entry
                        ringEntries.add(new ReceiveCompletion(c.type(), c.resp(), c.status(), c.src(), c.dst(), c.length(), c.address(), false));
                        read++;
                        regs.mmioWrite(rp.mmioOffset() + CompletionRingParams.REG_CONSUMER, read % (2L * rp.entries()));
                        if (c.type() == PktType.NAP && c.status() == CompletionStatus.OK && c.length() > 0) {
                            mem.writeLe(LIST + 8 * (producer[0] % 64), c.address(), 8);
                            buffersPosted.add(c.address());
                            producer[0]++;
                            postMore.run();
                        }
                    }
                }
            });
            tb.reset(1);
            regs.mmioWrite(rp.mmioOffset() + CompletionRingParams.REG_BASE, RING);
            regs.mmioWrite(bp.mmioOffset() + BufferListRegs.REG_BASE, LIST);
            regs.mmioWrite(bp.mmioOffset() + BufferListRegs.REG_SIZE, 64);
            for (int i = 0; i < 40; i++) {
                long b = BUFFERS + 2048L * i;
                mem.writeLe(LIST + 8 * i, b, 8);
                buffersPosted.add(b);
            }
            producer[0] = 40;
            postMore.run();
            tb.run(300);

            List<ReceiveCompletion> wantRefused = new ArrayList<>();
            List<ReceiveCompletion> wantPut = new ArrayList<>();
            List<byte[]> napMessages = new ArrayList<>();
            List<ReceiveCompletion> wantNap = new ArrayList<>();
            List<GetAnswerTest.Out> wantDesc = new ArrayList<>();
            List<long[]> putRanges = new ArrayList<>();
            List<byte[]> putData = new ArrayList<>();
            int n = 240;
            for (int i = 0; i < n; i++) {
                int qp = r.nextInt(QpKeyWrite.LOCAL_QPS);
                EndpointId dst = new EndpointId(r.nextInt(8), qp >> 2, qp & 3);
                EndpointId src = EndpointId.decode(r.nextInt(256));
                boolean good = !r.chance(0.2);
                int magic = good ? keys[qp] : keys[qp] ^ (1 + r.nextInt(0xFFFF));
                int kind = r.nextInt(3);
                if (kind == 0) {
                    int len = 1 + r.nextInt(i % 10 == 0 ? 4096 : 600);
                    long addr = PUTS + 0x2000L * i + r.nextInt(4096);
                    int sFlag = r.chance(0.5) ? HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST : 0;
                    boolean ce = sFlag != 0;
                    byte[] payload = UploadTestKit.bytes(r, len);
                    BigInteger h = DispatchHarness.header(0x60, PktType.PUT.code(), sFlag, len, magic, src.encode(), dst.encode(), addr);
                    driver.packet(UploadTestKit.packet(h, payload, null));
                    ReceiveCompletion c = new ReceiveCompletion(PktType.PUT, false, good ? CompletionStatus.OK : CompletionStatus.QP_MAGIC_REFUSED, src, dst, len, addr, false);
                    if (good) {
                        putRanges.add(new long[] {addr, len});
                        putData.add(payload);
                        if (ce) {
                            wantPut.add(c);
                        }
                    } else if (ce) {
                        wantRefused.add(c);
                    }
                } else if (kind == 1) {
                    int len = r.chance(0.1) ? 0 : r.nextInt(2049);
                    byte[] payload = UploadTestKit.bytes(r, len);
                    BigInteger h = DispatchHarness.header(0x60, PktType.NAP.code(), HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST, len, magic,
                            src.encode(), dst.encode(), 0);
                    driver.packet(UploadTestKit.packet(h, payload, null));
                    if (good) {
                        napMessages.add(payload);
                        wantNap.add(new ReceiveCompletion(PktType.NAP, false, CompletionStatus.OK, src, dst, len, 0, false));
                    } else {
                        wantRefused.add(new ReceiveCompletion(PktType.NAP, false, CompletionStatus.QP_MAGIC_REFUSED, src, dst, len, 0, false));
                    }
                } else {
                    Descriptor.Get g = new Descriptor.Get(new Descriptor.Common(r.nextInt(4), false, r.chance(0.5), dst, magic,
                            r.nextInt(1 << 16)), 1 + r.nextInt(1 << 20), r.nextLong(), r.nextLong(1L << 40));
                    PacketHeader h = new PacketHeader(PktType.GET, 1, false, true, false, 32, 0x100, magic, src, dst, 0);
                    driver.packet(UploadTestKit.packet(h.toBits().toBigInteger(), g.encode(), null));
                    if (good) {
                        wantDesc.addAll(GetAnswerTest.expected(h, Packets.answerGet(h, g.encode())));
                    }
                }
            }
            int entries = wantRefused.size() + wantPut.size() + wantNap.size();
            tb.runUntil("every packet handled and every entry read", () -> driver.idle() && ringEntries.size() >= entries
                    && descs.beats.size() >= wantDesc.size() && putHost.idle() && napHost.idle(), 500_000);
            tb.run(200);

            // the ring holds the three sources interleaved; each source's entries in order
            List<ReceiveCompletion> gotRefused = new ArrayList<>();
            List<ReceiveCompletion> gotPut = new ArrayList<>();
            List<ReceiveCompletion> gotNap = new ArrayList<>();
            for (ReceiveCompletion c : ringEntries) {
                (c.status() == CompletionStatus.QP_MAGIC_REFUSED ? gotRefused : c.type() == PktType.PUT ? gotPut : gotNap).add(c);
            }
            assertThat(ringEntries).hasSize(entries);
            assertThat(gotRefused).containsExactlyElementsOf(wantRefused);
            assertThat(gotPut).containsExactlyElementsOf(wantPut);
            assertThat(gotNap).hasSize(wantNap.size());
            int buffer = 0;
            for (int i = 0; i < gotNap.size(); i++) {
                ReceiveCompletion c = gotNap.get(i);
                ReceiveCompletion w = wantNap.get(i);
                long addr = w.length() == 0 ? 0 : buffersPosted.get(buffer++);
                assertThat(c).as("NAP %d", i).isEqualTo(new ReceiveCompletion(PktType.NAP, false, CompletionStatus.OK, w.src(), w.dst(), w.length(), addr, false));
            }
            // every NAP's message in its buffer: checked against the writes (buffers are reused, memory is overwritten)
            List<PcieHost.Write> nw = napHost.writes();
            int wi = 0;
            for (int i = 0; i < gotNap.size(); i++) {
                byte[] m = napMessages.get(i);
                for (UploadTestKit.Piece pc : UploadTestKit.split(gotNap.get(i).address(), m.length, MPS)) {
                    PcieHost.Write w = nw.get(wi++);
                    assertThat(w.addr()).isEqualTo(pc.addr());
                    byte[] part = java.util.Arrays.copyOfRange(m, (int) (pc.addr() - gotNap.get(i).address()), (int) (pc.addr() - gotNap.get(i).address()) + pc.len());
                    assertThat(w.data()).isEqualTo(part);
                }
            }
            assertThat(wi).isEqualTo(nw.size());
            long putBytes = 0;
            for (int i = 0; i < putRanges.size(); i++) {
                assertThat(mem.read(putRanges.get(i)[0], (int) putRanges.get(i)[1])).as("PUT %d in place", i).isEqualTo(putData.get(i));
                putBytes += putRanges.get(i)[1];
            }
            assertThat(putHost.writes().stream().mapToLong(w -> w.data().length).sum()).isEqualTo(putBytes);
            assertThat(descs.beats).containsExactlyElementsOf(wantDesc);
            assertThat(tb.sim().peek(d.nap.noBuffer)).isZero();
            assertThat(tb.sim().peek(d.dispatch.refusedMagic)).isEqualTo(n - tb.sim().peek(d.dispatch.putPackets)
                    - tb.sim().peek(d.dispatch.napPackets) - tb.sim().peek(d.dispatch.getPackets));
            assertThat(tb.sim().peek(d.tags.freeCount)).isEqualTo(p.tags());
            System.out.printf("receive side: %d packets, %d ring entries (%d refused, %d PUT, %d NAP), %d GET answers, %d cycles%n", n,
                    entries, wantRefused.size(), wantPut.size(), wantNap.size(), wantDesc.size() / 2, tb.cycle());
        }
    }
}
