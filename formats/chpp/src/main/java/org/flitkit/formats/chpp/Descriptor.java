package org.flitkit.formats.chpp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.formats.core.BitVector;

/**
 * A send descriptor as software writes it into host memory and the descriptor-read stage fetches it (paper
 * sections 3.4.1-3.4.2; layouts {@link DescriptorLayouts}): {@link #encode()} to bytes, {@link #decode} back
 * with every rule of docs/chpp-formats.md. The records check the same rules, so an illegal one cannot be built.
 */
public sealed interface Descriptor {

    int NAP_INDIRECT_BYTES = 24;
    int PUT_BYTES = 32;
    int GET_BYTES = 32;

    /** Word 0 of every kind except Kind. */
    Common common();

    DescKind kind();

    /** The descriptor's bytes in host memory (little-endian words); their count is the doorbell's length. */
    byte[] encode();

    /** Payload bytes the descriptor moves (a GET: the bytes it asks for). */
    long transferBytes();

    /**
     * The fields of word 0 shared by every kind.
     *
     * @param qp      QP of the sending function, 0..3
     * @param sce     post a send completion when done
     * @param rce     the receiver posts a receive completion (required for NAP)
     * @param dst     target endpoint
     * @param qpMagic the connection's key
     * @param cookie  software's tag, echoed in the send completion
     */
    record Common(int qp, boolean sce, boolean rce, EndpointId dst, int qpMagic, int cookie) {
        public Common {
            ChppBits.range("QP", qp, Chpp.QPS - 1);
            ChppBits.notNull("DST_ID", dst);
            ChppBits.range("QPMagic", qpMagic, (1 << Chpp.QP_MAGIC_BITS) - 1);
            ChppBits.range("Cookie", cookie, 0xFFFF);
        }
    }

    /** One chain segment: an address and a length of at least one byte. */
    record Segment(long address, long length) {
        public Segment {
            ChppBits.range("segment length", length, Chpp.MAX_TRANSFER);
            ChppFormatException.require(length >= 1, Rule.ZERO_LENGTH, "chain segment at 0x" + Long.toHexString(address) + " has length 0");
        }
    }

    /** NAP immediate: the data travels inside the descriptor (0..2048 bytes). */
    record NapImmediate(Common common, byte[] data) implements Descriptor {
        public NapImmediate {
            ChppBits.notNull("common", common);
            ChppBits.notNull("data", data);
            ChppFormatException.require(data.length <= Chpp.MAX_NAP, Rule.NAP_TOO_LARGE,
                    "NAP immediate of " + data.length + " bytes, at most " + Chpp.MAX_NAP);
            ChppFormatException.require(common.rce(), Rule.NAP_NEEDS_RECEIVE_EVENT, "NAP immediate with RCE = 0");
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public DescKind kind() {
            return DescKind.NAP_IMMEDIATE;
        }

        @Override
        public long transferBytes() {
            return data.length;
        }

        /** 16 + the data rounded up to a whole word. */
        public static int size(int dataBytes) {
            return Chpp.DESC_HEAD_BYTES + (dataBytes + Chpp.WORD_BYTES - 1) / Chpp.WORD_BYTES * Chpp.WORD_BYTES;
        }

        @Override
        public byte[] encode() {
            byte[] out = new byte[size(data.length)];
            byte[] head = Codec.head(DescriptorLayouts.NAP_IMMEDIATE, this).with(DescriptorLayouts.NAP_IMMEDIATE.LENGTH, data.length).toBytesLE();
            System.arraycopy(head, 0, out, 0, head.length);
            System.arraycopy(data, 0, out, Chpp.DESC_HEAD_BYTES, data.length);
            return out;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof NapImmediate n && n.common.equals(common) && Arrays.equals(n.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * common.hashCode() + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "NapImmediate[" + common + ", " + data.length + " bytes]";
        }
    }

    /** NAP indirect: 0..2048 bytes read from {@code srcAddress}. */
    record NapIndirect(Common common, int length, long srcAddress) implements Descriptor {
        public NapIndirect {
            ChppBits.notNull("common", common);
            ChppBits.range("Length", length, (1 << Chpp.LENGTH_BITS) - 1);
            ChppFormatException.require(length <= Chpp.MAX_NAP, Rule.NAP_TOO_LARGE,
                    "NAP indirect of " + length + " bytes, at most " + Chpp.MAX_NAP);
            ChppFormatException.require(common.rce(), Rule.NAP_NEEDS_RECEIVE_EVENT, "NAP indirect with RCE = 0");
        }

        @Override
        public DescKind kind() {
            return DescKind.NAP_INDIRECT;
        }

        @Override
        public long transferBytes() {
            return length;
        }

        @Override
        public byte[] encode() {
            DescriptorLayouts.NapIndirect l = DescriptorLayouts.NAP_INDIRECT;
            return Codec.head(l, this).with(l.LENGTH, length).with(l.SRC_ADDR, srcAddress).toBytesLE();
        }
    }

    /** PUT: {@code length} bytes from local {@code srcAddress} to the receiver's {@code dstAddress}. */
    record Put(Common common, long length, long srcAddress, long dstAddress) implements Descriptor {
        public Put {
            ChppBits.notNull("common", common);
            Codec.transfer("PUT", length, dstAddress);
        }

        @Override
        public DescKind kind() {
            return DescKind.PUT;
        }

        @Override
        public long transferBytes() {
            return length;
        }

        @Override
        public byte[] encode() {
            return Codec.transfer(DescriptorLayouts.PUT, this, length, srcAddress, dstAddress);
        }
    }

    /** GET: {@code length} bytes from the receiver's {@code srcAddress} back to local {@code dstAddress}. */
    record Get(Common common, long length, long srcAddress, long dstAddress) implements Descriptor {
        public Get {
            ChppBits.notNull("common", common);
            Codec.transfer("GET", length, dstAddress);
        }

        @Override
        public DescKind kind() {
            return DescKind.GET;
        }

        @Override
        public long transferBytes() {
            return length;
        }

        @Override
        public byte[] encode() {
            return Codec.transfer(DescriptorLayouts.GET, this, length, srcAddress, dstAddress);
        }
    }

    /** Chain DMA: source segments (local) and destination segments (receiver's) with equal totals. */
    record Chain(Common common, List<Segment> sources, List<Segment> destinations) implements Descriptor {
        public Chain {
            ChppBits.notNull("common", common);
            ChppBits.notNull("sources", sources);
            ChppBits.notNull("destinations", destinations);
            sources = List.copyOf(sources);
            destinations = List.copyOf(destinations);
            ChppFormatException.require(!sources.isEmpty() && !destinations.isEmpty(), Rule.CHAIN_NO_SEGMENTS,
                    "chain with " + sources.size() + " source and " + destinations.size() + " destination segments, needs >= 1 of each");
            ChppFormatException.require(sources.size() + destinations.size() <= Chpp.MAX_SEGMENTS, Rule.CHAIN_TOO_MANY_SEGMENTS,
                    "chain with " + sources.size() + " + " + destinations.size() + " segments, at most " + Chpp.MAX_SEGMENTS
                            + " in all (a descriptor is at most " + Chpp.MAX_DESCRIPTOR_BYTES + " bytes)");
            for (int i = 0; i < destinations.size(); i++) {
                Codec.remote("chain destination segment " + i, destinations.get(i).address(), destinations.get(i).length());
            }
            long src = total(sources);
            long dst = total(destinations);
            ChppFormatException.require(src == dst, Rule.CHAIN_LENGTH_MISMATCH,
                    "chain source total " + src + " bytes, destination total " + dst + " bytes");
            ChppFormatException.require(src <= Chpp.MAX_TRANSFER, Rule.TRANSFER_TOO_LARGE,
                    "chain total " + src + " bytes above 2^32-1");
        }

        private static long total(List<Segment> segments) {
            return segments.stream().mapToLong(Segment::length).sum();
        }

        @Override
        public DescKind kind() {
            return DescKind.CHAIN;
        }

        @Override
        public long transferBytes() {
            return total(sources);
        }

        public static int size(int segments) {
            return Chpp.DESC_HEAD_BYTES + Chpp.SEGMENT_BYTES * segments;
        }

        @Override
        public byte[] encode() {
            DescriptorLayouts.Chain l = DescriptorLayouts.CHAIN;
            List<BitVector> parts = new ArrayList<>();
            parts.add(Codec.head(l, this).with(l.SRC_COUNT, sources.size()).with(l.DST_COUNT, destinations.size()));
            for (Segment s : sources) {
                parts.add(Codec.segment(s));
            }
            for (Segment s : destinations) {
                parts.add(Codec.segment(s));
            }
            return BitVector.concat(parts).toBytesLE();
        }
    }

    /** Decodes a fetched descriptor (its size is the doorbell's length); every rule but the QP check. */
    static Descriptor decode(byte[] bytes) {
        return Codec.decode(bytes);
    }

    /** Decodes a descriptor fetched by a doorbell of {@code doorbellQp}: also {@link Rule#QP_MISMATCH}. */
    static Descriptor decode(byte[] bytes, int doorbellQp) {
        Descriptor d = Codec.decode(bytes);
        ChppFormatException.require(d.common().qp() == doorbellQp, Rule.QP_MISMATCH,
                "descriptor QP " + d.common().qp() + " fetched by the doorbell of QP " + doorbellQp);
        return d;
    }
}
