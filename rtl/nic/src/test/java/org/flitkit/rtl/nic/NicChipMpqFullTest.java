package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.env.host.PcieHost;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A full MPQ on the whole {@link Nic} (docs/th2-nic.md, "A full MPQ never overwrites"): responses for a VP whose
 * host software reads nothing fill its 4-entry MPQ; every further one is dropped with an MPQ_OVERFLOW event and the
 * unread entries stay byte for byte as they were; once software frees two slots, exactly two more land there.
 */
@ExtendWith(TestbenchExtension.class)
class NicChipMpqFullTest {
    static final int VP = 12;
    static final int MPQ_LOG2 = 2;
    static final int EQ_LOG2 = 5;

    @Test
    void unreadEntriesAreNeverOverwrittenAndFreedSlotsTakeExactlyTheNextPackets(RunConfig cfg) {
        try (NicChip c = new NicChip(cfg, Throttle.busy(0.3), (a, l, r) -> PcieHost.ReadOutcome.OK)) {
            c.open(VP, 3, MPQ_LOG2, EQ_LOG2);
            List<BitVector> sent = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                sent.add(NicChipBadPacketTest.response(VP, 0xC00 + i, 0x1111L * i));
            }
            for (int i = 0; i < 4; i++) {
                c.send(sent.get(i));
            }
            c.tb.runUntil("4 MP_ARRIVED events", () -> c.event(VP, 3, EQ_LOG2) != null, 5_000);
            byte[] full = c.mem.read(NicChip.mpq(VP), 4 * NicHost.MPQ_ENTRY_BYTES);
            for (int i = 0; i < 4; i++) {
                assertThat(Arrays.copyOfRange(full, 128 * i, 128 * i + 128)).as("entry %d", i)
                        .isEqualTo(NicEvents.mpqBytes(sent.get(i), i, MPQ_LOG2));
            }
            for (int i = 4; i < 10; i++) {
                c.send(sent.get(i));
            }
            c.tb.runUntil("6 MPQ_OVERFLOW events", () -> c.event(VP, 9, EQ_LOG2) != null, 5_000);
            c.tb.run(100);
            assertThat(c.mem.read(NicChip.mpq(VP), 4 * NicHost.MPQ_ENTRY_BYTES)).isEqualTo(full);
            for (int i = 0; i < 10; i++) {
                BitVector e = c.event(VP, i, EQ_LOG2);
                NicEvents.Req r = new NicEvents.Req(VP, (i < 4 ? NicEvent.MP_ARRIVED : NicEvent.MPQ_OVERFLOW).code(), 0, 0xC00 + i,
                        Math.min(i, 4), 0);
                assertThat(e.toBytesLE()).as("event %d", i).isEqualTo(NicEvents.eqBytes(r, i, EQ_LOG2, e.get(NicHost.EVENT.TIMESTAMP)));
            }
            assertThat(c.peek(NicRegisters.vpReg(VP, NicRegisters.VP_MPQ))).isEqualTo(6L << 32 | 4);
            assertThat(c.peek(NicRegisters.MPQ_DROPS)).isEqualTo(6);

            // software reads two entries and frees their slots: the next two packets land there, the third is dropped
            c.host.mmioWrite(NicHost.bar(VP, NicHost.MPQ_HEAD), 2);
            c.tb.runUntil("the MPQ_HEAD write", c.host::idle, 1_000);
            List<BitVector> more = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                more.add(NicChipBadPacketTest.response(VP, 0xD00 + i, 0x2222L * i));
                c.send(more.get(i));
            }
            c.tb.runUntil("3 more events", () -> c.event(VP, 12, EQ_LOG2) != null, 5_000);
            c.tb.run(100);
            c.tb.finish();
            byte[] now = c.mem.read(NicChip.mpq(VP), 4 * NicHost.MPQ_ENTRY_BYTES);
            assertThat(Arrays.copyOfRange(now, 0, 128)).isEqualTo(NicEvents.mpqBytes(more.get(0), 4, MPQ_LOG2));
            assertThat(Arrays.copyOfRange(now, 128, 256)).isEqualTo(NicEvents.mpqBytes(more.get(1), 5, MPQ_LOG2));
            assertThat(Arrays.copyOfRange(now, 256, 512)).isEqualTo(Arrays.copyOfRange(full, 256, 512));
            BitVector last = c.event(VP, 12, EQ_LOG2);
            assertThat(last.get(NicHost.EVENT.TYPE)).isEqualTo(NicEvent.MPQ_OVERFLOW.code());
            assertThat(last.get(NicHost.EVENT.INDEX)).isEqualTo(6);
            assertThat(c.peek(NicRegisters.vpReg(VP, NicRegisters.VP_MPQ))).isEqualTo(7L << 32 | 2L << 16 | 6);
            assertThat(c.peek(NicRegisters.MPQ_DROPS)).isEqualTo(7);
            // 6 entries and 13 events written, nothing else
            assertThat(c.host.writes()).hasSize(6 + 13);
        }
    }
}
