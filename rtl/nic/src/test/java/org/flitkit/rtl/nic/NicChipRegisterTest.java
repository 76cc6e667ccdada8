package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.DescriptorMapping;
import org.flitkit.formats.th2.ManagementDescriptor;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.PcieHost;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * NIC flows (2) and (3) on the whole {@link Nic}: register requests a server sends to this NIC arrive on the link,
 * NIC-NMA's answers leave on the link bit for bit as {@link NicRegModel} says (identity, port, counter and per-VP
 * state registers, SCRATCH and CHIP_ID writes, the DestID rule, error responses); and with host descriptors being
 * sent at the same time (flow (1)), requests and answers share send arbitration: every packet leaves whole, once.
 * Spec 20-th2-management.md, "Where management packets go inside the chips" (NIC); docs/th2-nma.md.
 */
@ExtendWith(TestbenchExtension.class)
class NicChipRegisterTest {
    /** Sends {@code req}; the model's answer must leave on the link, or nothing at all if the model drops it. */
    static void ask(NicChip c, NicRegModel m, BitVector req) {
        BitVector want = m.answer(req);
        int before = c.out.size();
        c.send(req);
        if (want == null) {
            c.tb.runUntil("the request taken", c.net::idle, 1_000);
            c.tb.run(100);
            assertThat(c.out).as("no answer to a dropped request").hasSize(before);
            return;
        }
        c.awaitOut(before + 1, 1_000);
        BitVector got = c.out.get(before).bits();
        assertThat(got).as("answer to %s\n got %s\n want %s", NicPackets.show(req), NicPackets.show(got), NicPackets.show(want))
                .isEqualTo(want);
    }

    @Test
    void identityPortCounterAndScratchRegistersThenANewChipIdAsTheModelSays(RunConfig cfg) {
        try (NicChip c = new NicChip(cfg, Throttle.busy(0.3), (a, l, r) -> PcieHost.ReadOutcome.OK)) {
            NicRegModel m = new NicRegModel(NicChip.ME);
            int any = Th2.CHIP_ID_ANY;
            int tid = 0x100;
            int requests = 0;
            ask(c, m, NicChip.read(any, tid++, (int) c.addr(NmaRegisters.CHIP_ID), (int) c.addr(NmaRegisters.CHIP_TYPE)));
            ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NmaRegisters.NMA_VERSION), (int) c.addr(NmaRegisters.PORT_COUNT)));
            for (String r : List.of(NmaRegisters.PORT_IDENTITY, NmaRegisters.PORT_NEIGHBOUR, NmaRegisters.PORT_LINK_STATUS,
                    NmaRegisters.PORT_RETRY_COUNT, NmaRegisters.PORT_HANDSHAKE_COUNT, NmaRegisters.PORT_BIST_RESULT)) {
                ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NmaRegisters.portReg(0, r))));
            }
            ask(c, m, NicChip.read(any, tid++, (int) c.addr(NicRegisters.FENCE_TIMEOUT), (int) c.addr(NicRegisters.CPL_TIMEOUT)));
            ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.SCRATCH0), 0x0123_4567_89AB_CDEFL));
            ask(c, m, NicChip.read(any, tid++, (int) c.addr(NmaRegisters.SCRATCH0), (int) c.addr(NmaRegisters.SCRATCH1)));
            requests += 11;
            // the counters of flows (2) and (3): this request is in, the 11 answers before it are out
            m.ro(NicRegisters.RX_REQUESTS, requests + 1).ro(NicRegisters.TX_RESPONSES, requests).ro(NicRegisters.TX_REQUESTS, 0);
            ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NicRegisters.RX_REQUESTS), (int) c.addr(NicRegisters.TX_RESPONSES)));
            ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NicRegisters.TX_REQUESTS)));
            // error responses: unmapped, read-only, addresses beyond 12 bits (index of the access); a request for
            // an NRC is dropped before NIC-NMA (a NIC does not forward)
            ask(c, m, NicChip.read(NicChip.ME, tid++, 0x7FF));
            ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.CHIP_TYPE), 1));
            ask(c, m, NicChip.readRaw(NicChip.ME, tid++, 0x1000));
            ask(c, m, NicChip.readRaw(any, tid++, 0x7FFF));
            ask(c, m, NicChip.header(NicChip.ME, 8, tid++).destType(ChipType.NRC).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x008)).build().toBits());
            // a new CHIP_ID: the old one is now a mismatch (dropped, counted), the new one and 0xFFFF answer
            int newId = 0x0777;
            ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.CHIP_ID), newId));
            assertThat(c.tb.sim().peek(c.nic.chipId)).isEqualTo(newId);
            ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NmaRegisters.SCRATCH0)));
            ask(c, m, NicChip.read(NicChip.ME + 1, tid++, (int) c.addr(NmaRegisters.SCRATCH0)));
            m.ro(NmaRegisters.NMP_DESTID_DROPS, 2).ro(NicRegisters.RX_REQUESTS, 21).ro(NicRegisters.RX_DESTTYPE_DROPS, 1);
            ask(c, m, NicChip.read(newId, tid++, (int) c.addr(NmaRegisters.NMP_DESTID_DROPS), (int) c.addr(NicRegisters.RX_REQUESTS)));
            ask(c, m, NicChip.read(any, tid++, (int) c.addr(NmaRegisters.CHIP_ID),
                    (int) c.addr(NmaRegisters.portReg(0, NmaRegisters.PORT_IDENTITY))));
            ask(c, m, NicChip.read(newId, tid++, (int) c.addr(NicRegisters.RX_DESTTYPE_DROPS)));
            c.tb.run(50);
            c.tb.finish();
            assertThat(c.out).hasSize(21);
            assertThat(c.peek(NmaRegisters.NMP_DESTID_DROPS)).isEqualTo(2);
            assertThat(c.peek(NicRegisters.RX_DESTTYPE_DROPS)).isEqualTo(1);
            assertThat(c.peek(NicRegisters.RX_REQUESTS)).isEqualTo(23);
            assertThat(c.peek(NicRegisters.TX_RESPONSES)).isEqualTo(21);
            assertThat(c.peek(NicRegisters.RX_RESPONSES) + c.peek(NicRegisters.TX_REQUESTS)).isZero();
            assertThat(c.host.writes()).isEmpty();
        }
    }

    static ManagementDescriptor.Builder descriptor(int vp, int tid, RoutingField fwd, int addr) {
        return ManagementDescriptor.builder().destType(ChipType.NRC).destId(0x0042).transactionId(tid).destVp(vp).srcVp(vp)
                .forwardRoute(fwd).backwardRoute(RoutingField.of(1)).request(NmpType.REG_READ_REQ, RegisterPayload.of(addr));
    }

    /** The answer to request packet {@code req} as it arrives back at this NIC (after the return route's hops). */
    static BitVector answerOf(BitVector req, long value) {
        ManagementPacket r = ManagementPacket.parse(req);
        ManagementPacket a = r.response(0x0042, ((RegisterPayload) r.payload()).answeredWith(List.of(value)));
        return a.toBuilder().hopPtr(a.route().hopNum()).build().toBits();
    }

    @Test
    void perVpStateRegistersAfterDescriptorsAnswersAndAConsumedEntry(RunConfig cfg) {
        int vp = 9;
        try (NicChip c = new NicChip(cfg, Throttle.busy(0.3), (a, l, r) -> PcieHost.ReadOutcome.OK)) {
            c.open(vp, 3, 3, 4);
            List<BitVector> sent = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                BitVector d = descriptor(vp, 0x900 + i, RoutingField.of(4), 0x008).build().encode();
                c.post(vp, d);
                sent.add(DescriptorMapping.requestBits(d, NicChip.ME));
            }
            c.awaitOut(5, 5_000);
            assertThat(c.out).extracting(NicChip.Out::bits).isEqualTo(sent);
            for (int i = 0; i < 3; i++) {
                c.send(answerOf(sent.get(i), 0x5000 + i));
            }
            c.tb.runUntil("3 MPQ entries and their events", () -> c.event(vp, 2, 4) != null, 5_000);
            c.host.mmioWrite(NicHost.bar(vp, NicHost.MPQ_HEAD), 1);
            c.tb.runUntil("the MPQ_HEAD write", c.host::idle, 1_000);
            NicRegModel m = new NicRegModel(NicChip.ME);
            // SDQ: producer 5, consumer 5, 2 answers outstanding, not parked; MPQ: producer 3, host consumer 1;
            // EQ: producer 3 (MP_ARRIVED only: no Lint), host consumer 0
            long sdq = 2L << 32 | 5L << 16 | 5;
            long mpq = 1L << 16 | 3;
            long eq = 3;
            m.ro(NicRegisters.vpReg(vp, NicRegisters.VP_SDQ), sdq).ro(NicRegisters.vpReg(vp, NicRegisters.VP_MPQ), mpq)
                    .ro(NicRegisters.vpReg(vp, NicRegisters.VP_EQ), eq).ro(NicRegisters.vpReg(vp + 1, NicRegisters.VP_SDQ), 0);
            ask(c, m, NicChip.read(NicChip.ME, 1, (int) c.addr(NicRegisters.vpReg(vp, NicRegisters.VP_SDQ)),
                    (int) c.addr(NicRegisters.vpReg(vp, NicRegisters.VP_MPQ))));
            ask(c, m, NicChip.read(NicChip.ME, 2, (int) c.addr(NicRegisters.vpReg(vp, NicRegisters.VP_EQ)),
                    (int) c.addr(NicRegisters.vpReg(vp + 1, NicRegisters.VP_SDQ))));
            m.ro(NicRegisters.TX_REQUESTS, 5).ro(NicRegisters.RX_RESPONSES, 3).ro(NicRegisters.DESCRIPTORS, 5);
            ask(c, m, NicChip.read(NicChip.ME, 3, (int) c.addr(NicRegisters.TX_REQUESTS), (int) c.addr(NicRegisters.RX_RESPONSES)));
            ask(c, m, NicChip.read(NicChip.ME, 4, (int) c.addr(NicRegisters.DESCRIPTORS)));
            c.tb.finish();
            assertThat(c.peek(NicRegisters.vpReg(vp, NicRegisters.VP_SDQ))).isEqualTo(sdq);
            assertThat(c.peek(NicRegisters.vpReg(vp, NicRegisters.VP_MPQ))).isEqualTo(mpq);
            assertThat(c.peek(NicRegisters.vpReg(vp, NicRegisters.VP_EQ))).isEqualTo(eq);
            assertThat(c.out).hasSize(5 + 4);
        }
    }

    @Test
    void hostRequestsAndNmaAnswersShareTheLinkEveryPacketWholeAndOnce(RunConfig cfg) {
        try (NicChip c = new NicChip(cfg, Throttle.busy(0.5), (a, l, r) -> PcieHost.ReadOutcome.OK)) {
            Rng rnd = c.tb.rng("traffic");
            int vps = 8;
            int perVp = 6;
            for (int v = 0; v < vps; v++) {
                c.open(8 + v, 3, 3, 3);
            }
            NicRegModel m = new NicRegModel(NicChip.ME);
            // requests from a VP leave in its order, NIC-NMA's answers in request order
            OutOfOrderScoreboard<String, BitVector> sb = c.tb.add(new OutOfOrderScoreboard<String, BitVector>("link",
                    p -> p.get(PacketLayout.HEAD.SRC_TYPE) == ChipType.NIC.code() && p.get(PacketLayout.BODY1.NMP_TYPE) % 2 == 0
                            ? "vp" + p.get(PacketLayout.HEAD.SRC_VP) : "nma"));
            sb.format(NicPackets::show);
            int[] seen = {0};
            int[] switches = {0};
            boolean[] lastWasNma = {false};
            c.tb.add(new Component("linkCheck") {
                @Override
                protected void sample() {
                    while (seen[0] < c.out.size()) {
                        BitVector p = c.out.get(seen[0]++).bits();
                        ManagementPacket.parse(p); // whole: flit kinds, framing, CRC
                        boolean nma = p.get(PacketLayout.BODY1.NMP_TYPE) % 2 == 1;
                        switches[0] += seen[0] > 1 && nma != lastWasNma[0] ? 1 : 0;
                        lastWasNma[0] = nma;
                        sb.observe(p);
                    }
                }
            });
            int[] regs = {(int) c.addr(NmaRegisters.SCRATCH0), (int) c.addr(NmaRegisters.SCRATCH1), (int) c.addr(NmaRegisters.CHIP_TYPE),
                (int) c.addr(NmaRegisters.portReg(0, NmaRegisters.PORT_NEIGHBOUR))};
            int answers = 0;
            for (int i = 0; i < perVp; i++) {
                for (int v = 0; v < vps; v++) {
                    BitVector d = descriptor(8 + v, i << 8 | v, RoutingField.of(rnd.nextInt(24), rnd.nextInt(24)), regs[0]).build().encode();
                    c.post(8 + v, d);
                    sb.expect(DescriptorMapping.requestBits(d, NicChip.ME));
                }
                for (int k = 0; k < 7; k++) {
                    BitVector req = rnd.chance(0.3) ? NicChip.write(NicChip.ME, answers, regs[rnd.nextInt(2)], rnd.nextLong())
                            : NicChip.read(Th2.CHIP_ID_ANY, answers, regs[rnd.nextInt(regs.length)], regs[rnd.nextInt(regs.length)]);
                    sb.expect(m.answer(req));
                    c.send(req);
                    answers++;
                }
                c.tb.run(rnd.nextInt(60));
            }
            c.tb.runUntil("every request and answer out", sb::isEmpty, 20_000);
            c.tb.run(100);
            c.tb.finish();
            assertThat(sb.matched()).isEqualTo(vps * perVp + answers);
            assertThat(answers).isEqualTo(42);
            assertThat(c.out).hasSize(48 + 42);
            assertThat(c.peek(NicRegisters.TX_REQUESTS)).isEqualTo(48);
            assertThat(c.peek(NicRegisters.TX_RESPONSES)).isEqualTo(42);
            assertThat(c.peek(NicRegisters.RX_REQUESTS)).isEqualTo(42);
            // the two kinds really took turns on the link
            assertThat(switches[0]).isGreaterThan(10);
        }
    }
}
