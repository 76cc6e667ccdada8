package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.env.host.PcieHost;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults of the NIC itself reported in band: with active reports enabled through NIC-NMA's registers (written in
 * band), a descriptor read completing with UR (FETCH_ERROR event, DMA_ERROR report), an MPQ overflow (MPQ_OVERFLOW
 * event, drop counters, mpq-overflow report) and an external link-down input each send one FAULT_REPORT on the link,
 * bit for bit (code, port, status, timestamp, sequence number); masked faults do not. docs/th2-nma.md, "Decisions"
 * (active_report); docs/th2-nic.md, "Host-visible queues".
 */
@ExtendWith(TestbenchExtension.class)
class NicChipFaultTest {
    static final int FETCH_VP = 10;
    static final int MPQ_VP = 11;
    static final RoutingField REPORT_ROUTE = RoutingField.of(7, 3, 11);
    static final int REPORT_VP = 1;

    static long bit(FaultCode f) {
        return 1L << f.code();
    }

    @Test
    void uRDescriptorReadMpqOverflowAndLinkDownEachReportOnceMaskedFaultsDoNot(RunConfig cfg) {
        long badSdq = NicChip.ring(FETCH_VP);
        try (NicChip c = new NicChip(cfg, Throttle.busy(0.3), PcieHost.ReadFaults.inRange(badSdq, badSdq + 0x1000, PcieHost.ReadOutcome.UR))) {
            // the NIC's cycle counter when each fault input rose: the report's timestamp
            long[] rose = new long[NicRegisters.faultSources().size()];
            long[] prev = {0};
            c.tb.add(new Component("faultWatch") {
                @Override
                protected void sample() {
                    long f = sim().peek(c.nic.nma.activeReport.faults);
                    for (int i = 0; i < rose.length; i++) {
                        if ((f >> i & 1) == 1 && (prev[0] >> i & 1) == 0) {
                            rose[i] = sim().peek(c.nic.nma.regs.hw(NmaRegisters.CYCLE_COUNT));
                        }
                    }
                    prev[0] = f;
                }
            });
            NicRegModel m = new NicRegModel(NicChip.ME);
            int tid = 1;
            BitVector route = REPORT_ROUTE.encode();
            long dest = NicChip.SERVER | (long) REPORT_VP << NmaRegisters.REPORT_DEST_VP_LSB;
            NicChipRegisterTest.ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.REPORT_ROUTE_LO), route.limbs()[0]));
            NicChipRegisterTest.ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.REPORT_ROUTE_HI), route.limbs()[1]));
            NicChipRegisterTest.ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.REPORT_DEST), dest));
            NicChipRegisterTest.ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.REPORT_ENABLE),
                    bit(FaultCode.DMA_ERROR) | bit(FaultCode.MPQ_OVERFLOW) | bit(FaultCode.LINK_DOWN)));
            List<BitVector> reports = new ArrayList<>();
            int answers = c.out.size();

            // (a) a descriptor read that completes with UR
            c.open(FETCH_VP, 3, 3, 4);
            BitVector d = NicChipRegisterTest.descriptor(FETCH_VP, 0xA0, RoutingField.of(4), 0x008).build().encode();
            c.post(FETCH_VP, d);
            c.tb.runUntil("the FETCH_ERROR event", () -> c.event(FETCH_VP, 0, 4) != null, 5_000);
            c.awaitOut(answers + 1, 1_000);
            BitVector ev = c.event(FETCH_VP, 0, 4);
            NicEvents.Req want = new NicEvents.Req(FETCH_VP, NicEvent.FETCH_ERROR.code(), Pcie.UR, 0, 0, 0);
            assertThat(ev.toBytesLE()).isEqualTo(NicEvents.eqBytes(want, 0, 4, ev.get(NicHost.EVENT.TIMESTAMP)));
            reports.add(report(0, FaultCode.DMA_ERROR, FaultCode.CHIP_LEVEL_PORT, 0, rose[NicRegisters.faultInput(FaultCode.DMA_ERROR)]));
            assertThat(c.out.get(answers).bits()).isEqualTo(reports.get(0));

            // (b) a VP with a 2-entry MPQ gets 3 responses
            c.open(MPQ_VP, 3, 1, 4);
            List<BitVector> sent = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                BitVector desc = NicChipRegisterTest.descriptor(MPQ_VP, 0xB0 + i, RoutingField.of(4), 0x008).build().encode();
                c.post(MPQ_VP, desc);
            }
            c.awaitOut(answers + 4, 5_000);
            for (int i = 0; i < 3; i++) {
                sent.add(c.out.get(answers + 1 + i).bits());
                c.send(NicChipRegisterTest.answerOf(sent.get(i), i));
            }
            c.tb.runUntil("3 events on the MPQ VP", () -> c.event(MPQ_VP, 2, 4) != null, 5_000);
            c.awaitOut(answers + 5, 1_000);
            for (int i = 0; i < 3; i++) {
                BitVector e = c.event(MPQ_VP, i, 4);
                NicEvents.Req r = new NicEvents.Req(MPQ_VP, (i < 2 ? NicEvent.MP_ARRIVED : NicEvent.MPQ_OVERFLOW).code(), 0, 0xB0 + i, i, 0);
                assertThat(e.toBytesLE()).as("event %d", i).isEqualTo(NicEvents.eqBytes(r, i, 4, e.get(NicHost.EVENT.TIMESTAMP)));
            }
            reports.add(report(1, FaultCode.MPQ_OVERFLOW, FaultCode.CHIP_LEVEL_PORT, 0, rose[NicRegisters.faultInput(FaultCode.MPQ_OVERFLOW)]));
            assertThat(c.out.get(answers + 4).bits()).isEqualTo(reports.get(1));
            answers = c.out.size();
            m.ro(NicRegisters.vpReg(MPQ_VP, NicRegisters.VP_MPQ), 1L << 32 | 2).ro(NicRegisters.MPQ_DROPS, 1);
            NicChipRegisterTest.ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NicRegisters.vpReg(MPQ_VP, NicRegisters.VP_MPQ)),
                    (int) c.addr(NicRegisters.MPQ_DROPS)));

            // (c) the port's link goes down (and stays down while the report is built)
            c.fault(NicRegisters.faultInput(FaultCode.LINK_DOWN), true);
            c.awaitOut(answers + 2, 1_000);
            reports.add(report(2, FaultCode.LINK_DOWN, 0, bit(FaultCode.LINK_DOWN), rose[NicRegisters.faultInput(FaultCode.LINK_DOWN)]));
            assertThat(c.out.get(answers + 1).bits()).isEqualTo(reports.get(2));
            c.fault(NicRegisters.faultInput(FaultCode.LINK_DOWN), false);
            long pending = 1L << NicRegisters.faultInput(FaultCode.DMA_ERROR) | 1L << NicRegisters.faultInput(FaultCode.MPQ_OVERFLOW)
                    | 1L << NicRegisters.faultInput(FaultCode.LINK_DOWN);
            m.ro(NmaRegisters.pendingWord(0), pending).ro(NmaRegisters.REPORT_SEQ, 3).ro(NicRegisters.FETCH_ERRORS, 1);
            NicChipRegisterTest.ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NmaRegisters.pendingWord(0)),
                    (int) c.addr(NmaRegisters.REPORT_SEQ)));
            NicChipRegisterTest.ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.pendingWord(0)), pending));

            // masked: DMA_ERROR and LINK_DOWN raise no pending bit and send no report
            NicChipRegisterTest.ask(c, m, NicChip.write(NicChip.ME, tid++, (int) c.addr(NmaRegisters.FAULT_MASK),
                    bit(FaultCode.DMA_ERROR) | bit(FaultCode.LINK_DOWN)));
            answers = c.out.size();
            c.post(FETCH_VP, d);
            c.tb.runUntil("the second FETCH_ERROR event", () -> c.event(FETCH_VP, 1, 4) != null, 5_000);
            c.fault(NicRegisters.faultInput(FaultCode.LINK_DOWN), true);
            c.tb.run(200);
            c.fault(NicRegisters.faultInput(FaultCode.LINK_DOWN), false);
            c.tb.run(50);
            assertThat(c.out).hasSize(answers);
            m.ro(NmaRegisters.pendingWord(0), 0).ro(NicRegisters.FETCH_ERRORS, 2);
            NicChipRegisterTest.ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NmaRegisters.pendingWord(0)),
                    (int) c.addr(NmaRegisters.REPORT_SEQ)));
            NicChipRegisterTest.ask(c, m, NicChip.read(NicChip.ME, tid++, (int) c.addr(NicRegisters.FETCH_ERRORS)));
            c.tb.finish();
            assertThat(c.out.stream().filter(o -> o.bits().get(PacketLayout.BODY1.NMP_TYPE) == NmpType.FAULT_REPORT.code())
                    .map(NicChip.Out::bits).toList()).isEqualTo(reports);
            assertThat(c.peek(NicRegisters.FETCH_ERRORS)).isEqualTo(2);
            assertThat(c.peek(NicRegisters.MPQ_DROPS)).isEqualTo(1);
            assertThat(c.peek(NicRegisters.TX_RESPONSES)).isEqualTo(c.out.size() - 3);
        }
    }

    /** The FAULT_REPORT this NIC must send: sequence {@code seq}, to the server's VP along REPORT_ROUTE. */
    static BitVector report(int seq, FaultCode code, int port, long status, long timestamp) {
        return ManagementPacket.builder().route(REPORT_ROUTE).returnRoute(RoutingField.EMPTY).destType(ChipType.NIC)
                .destId(NicChip.SERVER).srcType(ChipType.NIC).srcId(NicChip.ME).destVp(REPORT_VP).srcVp(0).rint(false)
                .transactionId(seq).nmpType(NmpType.FAULT_REPORT).payload(FaultPayload.of(code, port, status, timestamp)).build().toBits();
    }
}
