package org.flitkit.formats.chpp;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded random legal values of every cHPP format, for round-trip tests and later testbenches. */
final class RandomValues {

    private final SplittableRandom rng;

    RandomValues(long seed) {
        rng = new SplittableRandom(seed);
    }

    int nextInt(int bound) {
        return rng.nextInt(bound);
    }

    long bits(int width) {
        return width == 64 ? rng.nextLong() : rng.nextLong() & ((1L << width) - 1);
    }

    boolean coin() {
        return rng.nextBoolean();
    }

    EndpointId endpoint() {
        return new EndpointId(rng.nextInt(Chpp.PROCESSORS), rng.nextInt(Chpp.FUNCTIONS), rng.nextInt(Chpp.QPS));
    }

    PacketHeader header() {
        PktType type = PktType.values()[rng.nextInt(3)];
        int tc = rng.nextInt(8);
        int req = rng.nextInt(1 << 16);
        int magic = rng.nextInt(1 << 16);
        return switch (type) {
            case NAP -> new PacketHeader(type, tc, true, true, false, rng.nextInt(Chpp.MAX_NAP + 1), req, magic,
                    endpoint(), endpoint(), 0);
            case PUT -> {
                boolean last = coin();
                int length = 1 + rng.nextInt(Chpp.MAX_PAYLOAD);
                yield new PacketHeader(type, tc, last && coin(), last, coin(), length, req, magic, endpoint(), endpoint(),
                        remote(length));
            }
            case GET -> new PacketHeader(type, tc, false, true, false, 32, req, magic, endpoint(), endpoint(), 0);
        };
    }

    Descriptor.Common common(boolean rce) {
        return new Descriptor.Common(rng.nextInt(4), coin(), rce, endpoint(), rng.nextInt(1 << 16), rng.nextInt(1 << 16));
    }

    /** A remote address with room for {@code length} bytes below 2^48. */
    long remote(long length) {
        return rng.nextLong((1L << Chpp.ADDRESS_BITS) - length + 1);
    }

    Descriptor descriptor(DescKind kind) {
        return switch (kind) {
            case NAP_IMMEDIATE -> {
                byte[] data = new byte[rng.nextInt(Chpp.MAX_NAP + 1)];
                for (int i = 0; i < data.length; i++) {
                    data[i] = (byte) rng.nextInt(256);
                }
                yield new Descriptor.NapImmediate(common(true), data);
            }
            case NAP_INDIRECT -> new Descriptor.NapIndirect(common(true), rng.nextInt(Chpp.MAX_NAP + 1), rng.nextLong());
            case PUT -> {
                long length = 1 + rng.nextLong(Chpp.MAX_TRANSFER);
                yield new Descriptor.Put(common(coin()), length, rng.nextLong(), remote(length));
            }
            case GET -> {
                long length = 1 + rng.nextLong(Chpp.MAX_TRANSFER);
                yield new Descriptor.Get(common(coin()), length, rng.nextLong(), remote(length));
            }
            case CHAIN -> chain(2 + rng.nextInt(Chpp.MAX_SEGMENTS - 1));
        };
    }

    /** A chain of {@code segments} segments in all, split at random between sources and destinations. */
    Descriptor.Chain chain(int segments) {
        int src = 1 + rng.nextInt(segments - 1);
        int dst = segments - src;
        List<Descriptor.Segment> sources = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < src; i++) {
            long length = 1 + rng.nextLong(1L << 20);
            sources.add(new Descriptor.Segment(rng.nextLong(), length));
            total += length;
        }
        while (total < dst) {  // every destination needs at least one byte
            sources.set(0, new Descriptor.Segment(sources.get(0).address(), sources.get(0).length() + dst));
            total += dst;
        }
        List<Descriptor.Segment> destinations = new ArrayList<>();
        long left = total;
        for (int i = 0; i < dst; i++) {
            long length = i == dst - 1 ? left : 1 + rng.nextLong(left - (dst - 1 - i));
            destinations.add(new Descriptor.Segment(remote(length), length));
            left -= length;
        }
        return new Descriptor.Chain(common(coin()), sources, destinations);
    }

    SendCompletion sendCompletion() {
        List<CompletionStatus> codes = List.of(CompletionStatus.values()).stream().filter(CompletionStatus::send).toList();
        DescKind kind = rng.nextInt(6) == 0 ? null : DescKind.values()[rng.nextInt(DescKind.values().length)];
        return new SendCompletion(kind, rng.nextInt(4), codes.get(rng.nextInt(codes.size())), rng.nextInt(1 << 16),
                bits(32), coin());
    }

    ReceiveCompletion receiveCompletion() {
        List<CompletionStatus> codes = List.of(CompletionStatus.values()).stream().filter(CompletionStatus::receive).toList();
        boolean nap = coin();
        CompletionStatus status = codes.get(rng.nextInt(codes.size()));
        // GET_FAILED ends a GET's answer: only on a PUT completion with Resp
        boolean failedGet = status == CompletionStatus.GET_FAILED;
        return nap && !failedGet
                ? new ReceiveCompletion(PktType.NAP, false, status, endpoint(), endpoint(),
                        rng.nextInt(Chpp.MAX_NAP + 1), rng.nextLong() & ~(long) (Chpp.NAP_BUFFER_ALIGN - 1), coin())
                : new ReceiveCompletion(PktType.PUT, failedGet || coin(), status, endpoint(), endpoint(),
                        rng.nextInt(Chpp.MAX_PAYLOAD + 1), rng.nextLong(), coin());
    }

    DoorbellWrite doorbell() {
        return new DoorbellWrite(rng.nextInt(4), bits(Chpp.DOORBELL_ADDRESS_BITS) & ~7L, 8 * (1 + rng.nextInt(512)));
    }
}
