package org.flitkit.env.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nrc.NrcReference;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.DescError;
import org.flitkit.formats.th2.DescriptorLayout;
import org.flitkit.formats.th2.DescriptorMapping;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole management path: host API, PCIe model, NIC, cable, NRC and back into the MPQ. Every answer is
 * checked bit for bit against the NRC's reference model applied to the packet the NIC must build from the
 * descriptor (DescriptorMapping), with 40 VPs sending at once.
 */
@ExtendWith(TestbenchExtension.class)
class NicEndToEndTest {
    static NicEnv env(RunConfig cfg, int port) {
        return new NicEnv(cfg, EepParams.FAST, NicEnv.CABLE_LATENCY, PcieParams.th2(), HostSoftware.NONE, port);
    }

    @Test
    void registerWriteAndReadThroughHostNicCableAndNrcAtExactLatencies(RunConfig cfg) {
        try (NicEnv env = env(cfg, 5)) {
            Target nrc = Target.adjacentNrc(Th2.CHIP_ID_ANY, 5);
            MgmtResult w = env.endpoint.receive(env.endpoint.send(MgmtRequest.writeRegisters(nrc, List.of(0x008), List.of(0x1234L))), 10_000);
            MgmtResult r = env.endpoint.receive(env.endpoint.send(MgmtRequest.readRegisters(nrc, List.of(0x008))), 10_000);
            MgmtResult r2 = env.endpoint.receive(env.endpoint.send(MgmtRequest.readRegisters(nrc, List.of(0x008, 0x009))), 10_000);
            env.tb.finish();
            assertThat(((RegisterPayload) ((MgmtResult.Ok) r).response().payload()).data()).containsExactly(0x1234L);
            assertThat(((RegisterPayload) ((MgmtResult.Ok) r2).response().payload()).data()).containsExactly(0x1234L, 0L);
            // doorbell to the answer in the MPQ (docs/th2-nic.md, "Latency"): the write is answered on acceptance
            // (the first request's doorbell has no MPQ_HEAD write ahead of it on the posted-write path; later ones do: +1)
            assertThat(((MgmtResult.Ok) w).latency()).isEqualTo(239);
            assertThat(((MgmtResult.Ok) r).latency()).isEqualTo(241);
            assertThat(((MgmtResult.Ok) r2).latency()).isEqualTo(242);
            // the NIC's port learnt the NRC and the port it is plugged into
            assertThat(env.nicNeighbour()).isEqualTo(NmaRegisters.identity(org.flitkit.formats.th2.ChipType.NRC, Th2.CHIP_ID_ANY, 5));
        }
    }

    @Test
    void fortyVpsAtOnceEveryAnswerAsTheReferenceSaysInItsVpsMpq(RunConfig cfg) {
        try (NicEnv env = env(cfg, 0)) {
            Rng rng = env.tb.rng("requests");
            NrcReference ref = new NrcReference(null);
            List<MgmtEndpoint> eps = new ArrayList<>();
            for (int vp = 0; vp < Th2.VP_COUNT; vp++) {
                eps.add(vp == NicEnv.REQUEST_VP ? env.endpoint : vp == NicEnv.REPORT_VP ? env.reports : env.driver.open(vp, NicEnv.RING_LOG2));
            }
            env.tb.runUntil("the BAR set-up", env.host::idle, 2_000);
            int[] readable = {0x000, 0x001, 0x002, 0x003, 0x008, 0x009, NmaRegisters.PORT_BASE + 1, NmaRegisters.PORT_BASE + 0x10 * 7 + 1};
            Target nrc = Target.adjacentNrc(Th2.CHIP_ID_ANY, 0);
            Map<Integer, ManagementPacket> expected = new HashMap<>();
            Map<Integer, MgmtEndpoint> owner = new HashMap<>();
            for (int round = 0; round < 4; round++) {
                for (MgmtEndpoint ep : eps) {
                    List<Integer> addrs = rng.chance(0.5) ? List.of(readable[rng.nextInt(readable.length)])
                            : List.of(readable[rng.nextInt(readable.length)], readable[rng.nextInt(readable.length)]);
                    MgmtRequest req = MgmtRequest.readRegisters(nrc, addrs).withInterrupts(false, rng.chance(0.3));
                    int tid = ep.send(req);
                    ManagementPacket sent = ManagementPacket.parse(DescriptorMapping.requestBits(descriptor(req, tid, ep.vp), Requests.SERVER_NIC_ID));
                    expected.put(tid, ref.answer(sent).advance());
                    owner.put(tid, ep);
                }
            }
            int rint = 0;
            for (Map.Entry<Integer, ManagementPacket> e : expected.entrySet()) {
                MgmtResult r = owner.get(e.getKey()).receive(e.getKey(), 50_000);
                assertThat(r).as("tid %d", e.getKey()).isInstanceOf(MgmtResult.Ok.class);
                assertThat(((MgmtResult.Ok) r).response().toBits()).as("tid %d", e.getKey()).isEqualTo(e.getValue().toBits());
                rint += e.getValue().rint() ? 1 : 0;
            }
            env.tb.run(200);
            env.driver.poll();
            env.tb.finish();
            assertThat(expected).hasSize(160);
            // an MPQ-not-empty interrupt per answer with Rint, each for the VP it was written to
            assertThat(env.host.interrupts()).filteredOn(i -> i.cause() == NicHost.IRQ_MPQ).hasSize(rint);
            for (MgmtEndpoint ep : eps) {
                assertThat(ep.events()).extracting(MgmtEndpoint.Event::type).containsOnly(NicEvent.MP_ARRIVED);
                assertThat(ep.events()).hasSize(4);
            }
        }
    }

    @Test
    void aMalformedDescriptorIsRefusedWithAnEventAndNothingReachesTheNrc(RunConfig cfg) {
        try (NicEnv env = env(cfg, 3)) {
            Target nrc = Target.adjacentNrc(Th2.CHIP_ID_ANY, 3);
            MgmtRequest good = MgmtRequest.readRegisters(nrc, List.of(0x008));
            BitVector bad = descriptor(good, 77, NicEnv.REQUEST_VP).with(DescriptorLayout.DESCRIPTOR.RT_TYPE, Th2.RT_TABLE);
            env.endpoint.sendRaw(77, bad);
            MgmtResult r = env.endpoint.receive(77, 10_000);
            env.tb.run(500);
            env.tb.finish();
            assertThat(r).isEqualTo(new MgmtResult.Refused(77, DescError.NOT_MANAGEMENT));
            assertThat(env.elsewhere).isEmpty();
            assertThat(env.ports.transit()).isEmpty();
            assertThat(env.tb.sim().peek(env.dut.nic.nma.hw(org.flitkit.rtl.nic.NicRegisters.DESC_ERRORS))).isEqualTo(1);
        }
    }

    static BitVector descriptor(MgmtRequest r, int tid, int vp) {
        return r.descriptor(tid, vp).encode();
    }
}
