package org.flitkit.formats.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Seeded random bytes into every decoder: each input is either accepted, and then re-encodes to exactly the same
 * bytes (one encoding per value), or refused with a {@link ChppFormatException} (never another exception), and the
 * rules the inputs are built to reach are all seen. Also: the first failing rule in the documented order is the
 * one reported.
 */
class FuzzTest {

    private static final int N = 20_000;

    private record Outcome(int accepted, Map<Rule, Integer> refused) {
    }

    private static Outcome fuzz(long seed, Function<SplittableRandom, byte[]> input, Function<byte[], byte[]> roundTrip) {
        SplittableRandom rng = new SplittableRandom(seed);
        int accepted = 0;
        Map<Rule, Integer> refused = new EnumMap<>(Rule.class);
        for (int i = 0; i < N; i++) {
            byte[] bytes = input.apply(rng);
            byte[] again;
            try {
                again = roundTrip.apply(bytes);
            } catch (ChppFormatException e) {
                refused.merge(e.rule(), 1, Integer::sum);
                continue;
            }
            assertThat(again).as("re-encoding of an accepted input").isEqualTo(bytes);
            accepted++;
        }
        return new Outcome(accepted, refused);
    }

    private static byte[] random(SplittableRandom rng, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) rng.nextInt(256);
        }
        return b;
    }

    /** Random headers with Fmt/Type right and the reserved bits clear half the time, so the later rules are reached. */
    @Test
    void headers() {
        Outcome o = fuzz(21, rng -> {
            byte[] b = random(rng, 16);
            if (rng.nextBoolean()) {
                b[0] = 0x60;
                b[1] &= 0x7C;
            }
            return b;
        }, b -> PacketHeader.fromBytes(b).toBytes());
        assertThat(o.accepted()).isPositive();
        assertThat(o.refused()).containsKeys(Rule.RESERVED_BITS, Rule.NOT_MEMORY_WRITE, Rule.UNKNOWN_PKT_TYPE,
                Rule.LENGTH_TOO_LARGE, Rule.NAP_TOO_LARGE, Rule.GET_LENGTH, Rule.ADDRESS_NOT_ZERO, Rule.BAD_S_FLAG);
        assertThat(o.accepted() + o.refused().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(N);
    }

    /** Random descriptors: a valid Kind, a size that fits it, random words, reserved bytes mostly clear. */
    @Test
    void descriptors() {
        RandomValues values = new RandomValues(22);
        Outcome o = fuzz(23, rng -> {
            byte[] b = values.descriptor(DescKind.values()[rng.nextInt(5)]).encode();
            int flips = 1 + rng.nextInt(3);
            for (int i = 0; i < flips; i++) {
                int bit = rng.nextInt(8 * Math.min(b.length, 64));
                b[bit / 8] ^= (byte) (1 << (bit % 8));
            }
            return b;
        }, b -> Descriptor.decode(b).encode());
        assertThat(o.accepted()).isPositive();
        assertThat(o.refused()).containsKeys(Rule.RESERVED_BITS, Rule.UNKNOWN_DESC_KIND, Rule.WRONG_SIZE,
                Rule.NAP_NEEDS_RECEIVE_EVENT, Rule.ADDRESS_TOO_WIDE, Rule.CHAIN_LENGTH_MISMATCH);
    }

    @Test
    void completionsAndDoorbells() {
        Outcome send = fuzz(24, rng -> {
            byte[] b = random(rng, 16);
            b[4] = b[5] = b[6] = b[7] = b[12] = b[13] = b[14] = 0;
            b[15] &= (byte) 0x80;
            b[0] &= 0x3F;
            b[1] &= 0x07;
            return b;
        }, b -> SendCompletion.decode(b).encode());
        assertThat(send.accepted()).isPositive();
        assertThat(send.refused()).containsKeys(Rule.UNKNOWN_DESC_KIND, Rule.UNKNOWN_STATUS);
        Outcome receive = fuzz(25, rng -> {
            byte[] b = random(rng, 16);
            b[8] &= 0x07;
            b[9] &= 0x07;
            b[13] &= 0x1F;
            b[14] = 0;
            b[15] &= (byte) 0x80;
            return b;
        }, b -> ReceiveCompletion.decode(b).encode());
        assertThat(receive.accepted()).isPositive();
        assertThat(receive.refused()).containsKeys(Rule.BAD_RECEIVE_TYPE, Rule.UNKNOWN_STATUS, Rule.LENGTH_TOO_LARGE,
                Rule.NAP_BUFFER_MISALIGNED);
        Outcome bell = fuzz(26, rng -> {
            long data = rng.nextLong();
            if (rng.nextBoolean()) {
                data &= ~(3L << 62) & ~7L;
            }
            long offset = rng.nextBoolean() ? (long) rng.nextInt(4) << 12 : rng.nextInt(0x5000);
            return java.nio.ByteBuffer.allocate(16).putLong(offset).putLong(data).array();
        }, b -> {
            java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(b);
            DoorbellWrite d = DoorbellWrite.decode(in.getLong(), in.getLong());
            return java.nio.ByteBuffer.allocate(16).putLong(d.offset()).putLong(d.data()).array();
        });
        assertThat(bell.accepted()).isPositive();
        assertThat(bell.refused()).containsKeys(Rule.DOORBELL_OFFSET, Rule.RESERVED_BITS, Rule.DOORBELL_MISALIGNED);
    }

    @Test
    void theFirstRuleInTheDocumentedOrderIsReported() {
        byte[] put = ChppExamples.PUT_HEADER.toBytes();
        // reserved bit and bad Fmt and PKTType 0 and Length 8191: reserved bits first
        byte[] all = put.clone();
        all[0] = 0x40;
        all[1] = (byte) 0x80;
        all[2] = 0x7F;
        all[3] = (byte) 0xFF;
        assertThat(rule(() -> PacketHeader.fromBytes(all))).isEqualTo(Rule.RESERVED_BITS);
        all[1] = 0;
        assertThat(rule(() -> PacketHeader.fromBytes(all))).isEqualTo(Rule.NOT_MEMORY_WRITE);
        all[0] = 0x60;
        assertThat(rule(() -> PacketHeader.fromBytes(all))).isEqualTo(Rule.UNKNOWN_PKT_TYPE);
        all[1] = 0x04; // NAP with Length 8191: the general limit before the NAP limit
        assertThat(rule(() -> PacketHeader.fromBytes(all))).isEqualTo(Rule.LENGTH_TOO_LARGE);
        // descriptor: unknown kind reported before the wrong size
        assertThat(rule(() -> Descriptor.decode(new byte[40]))).isEqualTo(Rule.UNKNOWN_DESC_KIND);
        // chain: too many segments reported before the size
        byte[] chain = ChppExamples.CHAIN.encode();
        chain[8] = (byte) 255;
        assertThat(rule(() -> Descriptor.decode(chain))).isEqualTo(Rule.CHAIN_TOO_MANY_SEGMENTS);
    }

    private static Rule rule(Runnable r) {
        try {
            r.run();
        } catch (ChppFormatException e) {
            return e.rule();
        }
        throw new AssertionError("not refused");
    }
}
