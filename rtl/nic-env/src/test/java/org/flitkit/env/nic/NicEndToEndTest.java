package org.flitkit.env.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.host.PcieParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
class NicEndToEndTest {
    @Test
    void registerReadThroughHostNicCableAndNrc(RunConfig cfg) {
        try (NicEnv env = new NicEnv(cfg, EepParams.FAST, NicEnv.CABLE_LATENCY, PcieParams.th2(), HostSoftware.NONE, 5)) {
            Target nrc = Target.adjacentNrc(0xFFFF, 5);
            int w = env.endpoint.send(MgmtRequest.writeRegisters(nrc, List.of(0x008), List.of(0x1234L)));
            MgmtResult rw = env.endpoint.receive(w, 10_000);
            int r = env.endpoint.send(MgmtRequest.readRegisters(nrc, List.of(0x008)));
            MgmtResult rr = env.endpoint.receive(r, 10_000);
            System.out.println(rw + "\n" + rr);
            assertThat(rr).isInstanceOf(MgmtResult.Ok.class);
            assertThat(((RegisterPayload) ((MgmtResult.Ok) rr).response().payload()).data()).containsExactly(0x1234L);
        }
    }
}
