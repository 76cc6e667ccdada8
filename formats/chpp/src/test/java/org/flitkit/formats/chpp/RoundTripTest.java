package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.flitkit.formats.core.BitVector;
import org.junit.jupiter.api.Test;

/**
 * Seeded random values of every layout: encode, decode, equal; decode of the encoded bytes re-encodes to the same
 * bytes; and every field handle reads back the value it was given (so a field written to the wrong bits fails).
 */
class RoundTripTest {

    private static final int N = 2000;

    @Test
    void headers() {
        RandomValues r = new RandomValues(11);
        HeaderLayout.Header h = HeaderLayout.HEADER;
        Set<PktType> seen = EnumSet.noneOf(PktType.class);
        for (int i = 0; i < N; i++) {
            PacketHeader p = r.header();
            seen.add(p.type());
            byte[] bytes = p.toBytes();
            assertThat(bytes).hasSize(Chpp.HEADER_BYTES);
            assertThat(PacketHeader.fromBytes(bytes)).isEqualTo(p);
            BitVector v = p.toBits();
            assertThat(PacketHeader.decode(v)).isEqualTo(p);
            assertThat(v.get(h.FMT)).isEqualTo(3);
            assertThat(v.get(h.TYPE)).isZero();
            assertThat(v.get(h.TC)).isEqualTo(p.tc());
            assertThat(v.get(h.PKT_TYPE)).isEqualTo(p.type().code());
            assertThat(v.get(h.S_FLAG)).isEqualTo(p.sFlag());
            assertThat(v.get(h.LENGTH)).isEqualTo(p.length());
            assertThat(v.get(h.REQUESTER_ID)).isEqualTo(p.requesterId());
            assertThat(v.get(h.QP_MAGIC)).isEqualTo(p.qpMagic());
            assertThat(v.get(h.SRC_ID)).isEqualTo(p.src().encode());
            assertThat(v.get(h.DST_ID)).isEqualTo(p.dst().encode());
            assertThat(v.get(h.ADDRESS)).isEqualTo(p.address());
            // wire byte 0 is the top byte of the 128-bit value (Fmt/Type), byte 15 the bottom byte of Address
            assertThat(bytes[0]).isEqualTo((byte) 0x60);
            assertThat(bytes[15]).isEqualTo((byte) p.address());
        }
        assertThat(seen).containsExactlyInAnyOrder(PktType.values());
    }

    @Test
    void endpointIds() {
        Set<EndpointId> all = new HashSet<>();
        for (int id = 0; id < 256; id++) {
            EndpointId e = EndpointId.decode(id);
            assertThat(e.encode()).isEqualTo(id);
            all.add(e);
        }
        assertThat(all).hasSize(Chpp.PROCESSORS * Chpp.FUNCTIONS * Chpp.QPS);
    }

    @Test
    void descriptorsOfEveryKind() {
        RandomValues r = new RandomValues(12);
        for (DescKind kind : DescKind.values()) {
            for (int i = 0; i < N / 4; i++) {
                Descriptor d = r.descriptor(kind);
                byte[] bytes = d.encode();
                Descriptor back = Descriptor.decode(bytes, d.common().qp());
                assertThat(back).as(kind + " #" + i).isEqualTo(d);
                assertThat(back.kind()).isEqualTo(kind);
                assertThat(back.encode()).isEqualTo(bytes);
                DescriptorLayouts.Head head = DescriptorLayouts.NAP_IMMEDIATE;
                BitVector v = BitVector.fromBytesLE(8 * bytes.length, bytes);
                assertThat(v.get(head.KIND)).isEqualTo(kind.code());
                assertThat(v.get(head.QP)).isEqualTo(d.common().qp());
                assertThat(v.get(head.SCE) == 1).isEqualTo(d.common().sce());
                assertThat(v.get(head.RCE) == 1).isEqualTo(d.common().rce());
                assertThat(v.get(head.DST_ID)).isEqualTo(d.common().dst().encode());
                assertThat(v.get(head.QP_MAGIC)).isEqualTo(d.common().qpMagic());
                assertThat(v.get(head.COOKIE)).isEqualTo(d.common().cookie());
                assertThat(bytes.length % 8).isZero();
            }
        }
    }

    @Test
    void transferFieldsSitWhereTheTableSays() {
        RandomValues r = new RandomValues(13);
        for (int i = 0; i < N / 4; i++) {
            Descriptor.Put p = (Descriptor.Put) r.descriptor(DescKind.PUT);
            BitVector v = BitVector.fromBytesLE(256, p.encode());
            assertThat(v.get(DescriptorLayouts.PUT.LENGTH)).isEqualTo(p.length());
            assertThat(v.get(DescriptorLayouts.PUT.SRC_ADDR)).isEqualTo(p.srcAddress());
            assertThat(v.get(DescriptorLayouts.PUT.DST_ADDR)).isEqualTo(p.dstAddress());
            Descriptor.NapIndirect n = (Descriptor.NapIndirect) r.descriptor(DescKind.NAP_INDIRECT);
            BitVector w = BitVector.fromBytesLE(192, n.encode());
            assertThat(w.get(DescriptorLayouts.NAP_INDIRECT.LENGTH)).isEqualTo(n.length());
            assertThat(w.get(DescriptorLayouts.NAP_INDIRECT.SRC_ADDR)).isEqualTo(n.srcAddress());
        }
    }

    @Test
    void chainsFromOneToTheMaximumOfSegments() {
        RandomValues r = new RandomValues(14);
        for (int segments : new int[] {2, 3, 17, 254, Chpp.MAX_SEGMENTS}) {
            for (int i = 0; i < 20; i++) {
                Descriptor.Chain c = r.chain(segments);
                byte[] bytes = c.encode();
                assertThat(bytes).hasSize(Chpp.DESC_HEAD_BYTES + Chpp.SEGMENT_BYTES * segments);
                assertThat(Descriptor.decode(bytes)).isEqualTo(c);
                long src = c.sources().stream().mapToLong(Descriptor.Segment::length).sum();
                long dst = c.destinations().stream().mapToLong(Descriptor.Segment::length).sum();
                assertThat(src).isEqualTo(dst).isEqualTo(c.transferBytes());
            }
        }
        assertThat(Descriptor.Chain.size(Chpp.MAX_SEGMENTS)).isEqualTo(Chpp.MAX_DESCRIPTOR_BYTES);
    }

    @Test
    void completions() {
        RandomValues r = new RandomValues(15);
        for (int i = 0; i < N; i++) {
            SendCompletion s = r.sendCompletion();
            byte[] sb = s.encode();
            assertThat(SendCompletion.decode(sb)).isEqualTo(s);
            BitVector v = BitVector.fromBytesLE(128, sb);
            assertThat(v.get(CompletionLayouts.SEND.STATUS)).isEqualTo(s.status().code());
            assertThat(v.get(CompletionLayouts.SEND.BYTES)).isEqualTo(s.bytes());
            assertThat(v.get(CompletionLayouts.SEND.COOKIE)).isEqualTo(s.cookie());
            assertThat((sb[15] & 0x80) != 0).as("Phase is bit 7 of the last byte").isEqualTo(s.phase());

            ReceiveCompletion c = r.receiveCompletion();
            byte[] cb = c.encode();
            assertThat(ReceiveCompletion.decode(cb)).isEqualTo(c);
            BitVector w = BitVector.fromBytesLE(128, cb);
            assertThat(w.get(CompletionLayouts.RECEIVE.ADDRESS)).isEqualTo(c.address());
            assertThat(w.get(CompletionLayouts.RECEIVE.LENGTH)).isEqualTo(c.length());
            assertThat(w.get(CompletionLayouts.RECEIVE.SRC_ID)).isEqualTo(c.src().encode());
            assertThat(w.get(CompletionLayouts.RECEIVE.DST_ID)).isEqualTo(c.dst().encode());
            assertThat((cb[15] & 0x80) != 0).as("Phase is bit 7 of the last byte").isEqualTo(c.phase());
        }
    }

    @Test
    void doorbellWritesFillTheDoorbellBundleWidths() {
        RandomValues r = new RandomValues(16);
        for (int i = 0; i < N; i++) {
            DoorbellWrite d = r.doorbell();
            assertThat(DoorbellWrite.decode(d.offset(), d.data())).isEqualTo(d);
            assertThat(d.data() >>> 62).isZero();
            assertThat(d.data() & 7).isZero();
            // the rtl/chpp Doorbell bundle: addr 64 bits, length 13 bits (bytes, <= 4096), qp 2 bits
            assertThat(64 - Long.numberOfLeadingZeros(d.address())).isLessThanOrEqualTo(64);
            assertThat(d.length()).isBetween(8, 4096);
            assertThat(32 - Integer.numberOfLeadingZeros(d.length())).isLessThanOrEqualTo(13);
            assertThat(d.qp()).isBetween(0, 3);
        }
    }
}
