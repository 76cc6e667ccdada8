package org.flitkit.formats.chpp;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;

/** Encoding and decoding of descriptors (docs/chpp-formats.md, "Send descriptors"); the rules live here once. */
final class Codec {

    private Codec() {
    }

    static BitVector head(DescriptorLayouts.Head l, Descriptor d) {
        Descriptor.Common c = d.common();
        return l.zero().with(l.KIND, d.kind().code()).with(l.QP, c.qp()).with(l.SCE, c.sce() ? 1 : 0)
                .with(l.RCE, c.rce() ? 1 : 0).with(l.DST_ID, c.dst().encode()).with(l.QP_MAGIC, c.qpMagic())
                .with(l.COOKIE, c.cookie());
    }

    static Descriptor.Common common(DescriptorLayouts.Head l, BitVector v) {
        return new Descriptor.Common((int) v.get(l.QP), v.get(l.SCE) != 0, v.get(l.RCE) != 0,
                EndpointId.decode(v.get(l.DST_ID)), (int) v.get(l.QP_MAGIC), (int) v.get(l.COOKIE));
    }

    /** PUT/GET record rules: length 1..2^32-1, the remote (48-bit) destination range. */
    static void transfer(String what, long length, long dstAddress) {
        ChppFormatException.require(length != 0, Rule.ZERO_LENGTH, what + " of 0 bytes");
        ChppBits.range(what + " length", length, Chpp.MAX_TRANSFER);
        remote(what + " destination", dstAddress, length);
    }

    /** A receiver's range [address, address + length) must lie in the 48-bit global address space. */
    static void remote(String what, long address, long length) {
        long limit = 1L << Chpp.ADDRESS_BITS;
        ChppFormatException.require(address >= 0 && address < limit && length <= limit - address, Rule.ADDRESS_TOO_WIDE,
                what + " 0x" + Long.toHexString(address) + " + " + length + " bytes beyond the 48-bit address space");
    }

    static byte[] transfer(DescriptorLayouts.Transfer l, Descriptor d, long length, long src, long dst) {
        return head(l, d).with(l.LENGTH, length).with(l.SRC_ADDR, src).with(l.DST_ADDR, dst).toBytesLE();
    }

    static BitVector segment(Descriptor.Segment s) {
        DescriptorLayouts.Segment l = DescriptorLayouts.SEGMENT;
        return l.zero().with(l.ADDRESS, s.address()).with(l.LENGTH, s.length());
    }

    /**
     * Rules in this order: size (>= 16, whole words, <= 4096), Kind, the kind's size, reserved bits (padding
     * included), then the record's rules (NAP size and RCE, zero lengths, address range, chain counts and totals).
     */
    static Descriptor decode(byte[] bytes) {
        ChppBits.notNull("descriptor", bytes);
        int n = bytes.length;
        ChppFormatException.require(n >= Chpp.DESC_HEAD_BYTES && n % Chpp.WORD_BYTES == 0 && n <= Chpp.MAX_DESCRIPTOR_BYTES,
                Rule.WRONG_SIZE, "descriptor of " + n + " bytes: must be whole 8-byte words, " + Chpp.DESC_HEAD_BYTES
                        + ".." + Chpp.MAX_DESCRIPTOR_BYTES + " bytes");
        BitVector v = ChppBits.fromLE(bytes);
        DescKind kind = DescKind.fromCode(v.get(DescriptorLayouts.NAP_IMMEDIATE.KIND));
        return switch (kind) {
            case NAP_IMMEDIATE -> {
                DescriptorLayouts.NapImmediate l = DescriptorLayouts.NAP_IMMEDIATE;
                int length = (int) v.get(l.LENGTH);
                ChppFormatException.require(length <= Chpp.MAX_NAP, Rule.NAP_TOO_LARGE,
                        "NAP immediate of " + length + " bytes, at most " + Chpp.MAX_NAP);
                int size = Descriptor.NapImmediate.size(length);
                sizeIs(kind, n, size);
                BitVector head = v.slice(0, l.width());
                ChppBits.reservedZero(l.layout(), head, 0);
                int padFrom = 8 * (Chpp.DESC_HEAD_BYTES + length);
                ChppFormatException.require(padFrom == 8 * size || v.slice(padFrom, 8 * size - padFrom).isZero(), Rule.RESERVED_BITS,
                        "nap-immediate: padding bytes " + (Chpp.DESC_HEAD_BYTES + length) + ".." + (size - 1) + " must be 0");
                byte[] data = new byte[length];
                System.arraycopy(bytes, Chpp.DESC_HEAD_BYTES, data, 0, length);
                yield new Descriptor.NapImmediate(common(l, head), data);
            }
            case NAP_INDIRECT -> {
                DescriptorLayouts.NapIndirect l = DescriptorLayouts.NAP_INDIRECT;
                sizeIs(kind, n, Descriptor.NAP_INDIRECT_BYTES);
                ChppBits.reservedZero(l.layout(), v, 0);
                yield new Descriptor.NapIndirect(common(l, v), (int) v.get(l.LENGTH), v.get(l.SRC_ADDR));
            }
            case PUT, GET -> {
                DescriptorLayouts.Transfer l = kind == DescKind.PUT ? DescriptorLayouts.PUT : DescriptorLayouts.GET;
                sizeIs(kind, n, Descriptor.PUT_BYTES);
                ChppBits.reservedZero(l.layout(), v, 0);
                long length = v.get(l.LENGTH);
                long src = v.get(l.SRC_ADDR);
                long dst = v.get(l.DST_ADDR);
                yield kind == DescKind.PUT ? new Descriptor.Put(common(l, v), length, src, dst)
                        : new Descriptor.Get(common(l, v), length, src, dst);
            }
            case CHAIN -> {
                DescriptorLayouts.Chain l = DescriptorLayouts.CHAIN;
                int srcCount = (int) v.get(l.SRC_COUNT);
                int dstCount = (int) v.get(l.DST_COUNT);
                ChppFormatException.require(srcCount >= 1 && dstCount >= 1, Rule.CHAIN_NO_SEGMENTS,
                        "chain with " + srcCount + " source and " + dstCount + " destination segments, needs >= 1 of each");
                ChppFormatException.require(srcCount + dstCount <= Chpp.MAX_SEGMENTS, Rule.CHAIN_TOO_MANY_SEGMENTS,
                        "chain with " + srcCount + " + " + dstCount + " segments, at most " + Chpp.MAX_SEGMENTS
                                + " in all (a descriptor is at most " + Chpp.MAX_DESCRIPTOR_BYTES + " bytes)");
                sizeIs(kind, n, Descriptor.Chain.size(srcCount + dstCount));
                BitVector head = v.slice(0, l.width());
                ChppBits.reservedZero(l.layout(), head, 0);
                List<Descriptor.Segment> src = new ArrayList<>();
                List<Descriptor.Segment> dst = new ArrayList<>();
                for (int i = 0; i < srcCount + dstCount; i++) {
                    int offset = 8 * Chpp.DESC_HEAD_BYTES + i * DescriptorLayouts.SEGMENT.width();
                    BitVector s = v.slice(offset, DescriptorLayouts.SEGMENT.width());
                    ChppBits.reservedZero(DescriptorLayouts.SEGMENT.layout(), s, offset);
                    (i < srcCount ? src : dst).add(new Descriptor.Segment(s.get(DescriptorLayouts.SEGMENT.ADDRESS),
                            s.get(DescriptorLayouts.SEGMENT.LENGTH)));
                }
                yield new Descriptor.Chain(common(l, head), src, dst);
            }
        };
    }

    private static void sizeIs(DescKind kind, int actual, int expected) {
        ChppFormatException.require(actual == expected, Rule.WRONG_SIZE,
                kind + " descriptor is " + expected + " bytes, fetched " + actual);
    }
}
