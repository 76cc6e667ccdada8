package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.PcieHost;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad packets arriving at the whole {@link Nic}: each is dropped and counted exactly once in its NIC_RX_* register
 * (or, for a request with a bad CRC, in NIC-NMA's NMP_CRC_ERRORS), read in band (flows (2)/(3)) and by peek; nothing
 * reaches host memory; afterwards a good response still lands in its MPQ byte for byte. docs/th2-nic.md, "Blocks"
 * (packet conversion and dispatch); docs/th2-nma.md, "Decisions".
 */
@ExtendWith(TestbenchExtension.class)
class NicChipBadPacketTest {
    static final int VP = 9;

    /** A register read response from NRC 0x0042 for VP {@code vp}, as it arrives here after its 2 hops. */
    static BitVector response(int vp, int tid, long value) {
        return ManagementPacket.builder().route(RoutingField.of(2, 6)).hopPtr(2).returnRoute(RoutingField.of(1, 4))
                .destType(ChipType.NIC).destId(NicChip.ME).srcType(ChipType.NRC).srcId(0x0042).destVp(vp).srcVp(vp)
                .transactionId(tid).nmpType(NmpType.REG_READ_RESP).payload(RegisterPayload.withData(0x008, value)).build().toBits();
    }

    static List<BigInteger> flits(BitVector p, int... which) {
        List<BigInteger> all = NicPackets.flits(p);
        return java.util.Arrays.stream(which).mapToObj(all::get).toList();
    }

    @Test
    void eachBadPacketIsCountedOnceNothingReachesTheHostAndTheNicKeepsWorking(RunConfig cfg) {
        try (NicChip c = new NicChip(cfg, Throttle.busy(0.3), (a, l, r) -> PcieHost.ReadOutcome.OK)) {
            c.open(VP, 3, 3, 3);
            BitVector good = response(VP, 0x77, 0x1234);
            // bad CRC (a payload bit flipped after the CRC was computed)
            c.send(good.flip(PacketLayout.BODY2.NMP_DATA.lsb() + 5));
            // a response for another NIC
            c.send(NicPackets.withField(good, PacketLayout.HEAD.DEST_ID, NicChip.ME + 1));
            // a response and a request for an NRC (a NIC does not forward)
            c.send(NicPackets.withField(good, PacketLayout.HEAD.DEST_TYPE, ChipType.NRC.code()));
            c.send(NicChip.header(NicChip.ME, 8, 5).destType(ChipType.NRC).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x008)).build().toBits());
            // DestVP beyond the 40 VPs
            c.send(NicPackets.withField(good, PacketLayout.HEAD.DEST_VP, Th2.VP_COUNT));
            c.send(NicPackets.withField(good, PacketLayout.HEAD.DEST_VP, 63));
            // broken flit sequences: a stray body; head and body then a new head (its packet, for another NIC, is
            // dropped for DestID); head then tail; and bad framing (VC 2) with a good CRC
            BitVector other = NicPackets.withField(good, PacketLayout.HEAD.DEST_ID, NicChip.ME + 2);
            c.sendFlits(flits(good, 2));
            c.sendFlits(flits(good, 0, 1));
            c.send(other);
            c.sendFlits(flits(good, 0, 3));
            c.send(NicPackets.withField(good, PacketLayout.HEAD.VC, 2));
            // a request for this NIC with a bad CRC: NIC-NMA drops and counts it
            c.send(NicChip.read(NicChip.ME, 6, 0x008).flip(PacketLayout.BODY2.NMP_DATA.lsb() + 140));
            c.tb.runUntil("every bad packet taken", c.net::idle, 2_000);
            c.tb.run(50);
            assertThat(c.host.writes()).isEmpty();
            assertThat(c.out).isEmpty();

            NicRegModel m = new NicRegModel(NicChip.ME);
            m.ro(NicRegisters.RX_CRC_DROPS, 1).ro(NicRegisters.RX_DESTID_DROPS, 2).ro(NicRegisters.RX_DESTTYPE_DROPS, 2)
                    .ro(NicRegisters.RX_VP_DROPS, 2).ro(NicRegisters.RX_MALFORMED_DROPS, 4).ro(NmaRegisters.NMP_CRC_ERRORS, 1)
                    .ro(NicRegisters.RX_RESPONSES, 0).ro(NicRegisters.MPQ_DROPS, 0);
            int tid = 1;
            for (String[] pair : new String[][] {{NicRegisters.RX_CRC_DROPS, NicRegisters.RX_DESTID_DROPS},
                    {NicRegisters.RX_DESTTYPE_DROPS, NicRegisters.RX_VP_DROPS}, {NicRegisters.RX_MALFORMED_DROPS, NmaRegisters.NMP_CRC_ERRORS},
                    {NicRegisters.RX_RESPONSES, NicRegisters.MPQ_DROPS}}) {
                NicChipRegisterTest.ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(pair[0]), (int) c.addr(pair[1])));
            }
            for (String r : List.of(NicRegisters.RX_CRC_DROPS, NicRegisters.RX_DESTID_DROPS, NicRegisters.RX_DESTTYPE_DROPS,
                    NicRegisters.RX_VP_DROPS, NicRegisters.RX_MALFORMED_DROPS, NmaRegisters.NMP_CRC_ERRORS)) {
                assertThat(c.peek(r)).as(r).isEqualTo(m.value(r));
            }
            assertThat(c.host.writes()).isEmpty();

            // still working: a good response lands in the MPQ with its event
            c.send(good);
            c.tb.runUntil("the MP_ARRIVED event", () -> c.event(VP, 0, 3) != null, 2_000);
            c.tb.finish();
            assertThat(c.mem.read(NicChip.mpq(VP), 128)).isEqualTo(NicEvents.mpqBytes(good, 0, 3));
            BitVector ev = c.event(VP, 0, 3);
            assertThat(ev.get(NicHost.EVENT.TYPE)).isEqualTo(NicEvent.MP_ARRIVED.code());
            assertThat(ev.get(NicHost.EVENT.TRANSACTION_ID)).isEqualTo(0x77);
            assertThat(c.host.writes()).hasSize(2);
            assertThat(c.peek(NicRegisters.RX_RESPONSES)).isEqualTo(1);
            assertThat(c.peek(NicRegisters.RX_REQUESTS)).isEqualTo(5);
        }
    }
}
