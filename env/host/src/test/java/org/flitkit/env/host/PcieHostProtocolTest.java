package org.flitkit.env.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link PcieHost} names the rule a device breaks: request beats driven straight from the testbench. */
@ExtendWith(TestbenchExtension.class)
class PcieHostProtocolTest {
    /** A device that forwards request beats from the testbench and drops completions on the floor. */
    static final class Wire extends Module {
        final Decoupled<DmaRequest> in = input(Decoupled.of(DmaRequest::new));
        final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
        final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
        final Decoupled<DmaCompletion> cplOut = output(Decoupled.of(DmaCompletion::new));

        Wire() {
            dmaRq.connect(in);
            cplOut.connect(dmaCpl);
        }
    }

    static BigInteger beat(boolean write, int tag, long addr, int len, boolean last) {
        BigInteger v = BigInteger.valueOf(write ? 1 : 0).shiftLeft(Pcie.TAG_BITS).or(BigInteger.valueOf(tag));
        v = v.shiftLeft(Pcie.ADDR_BITS).or(BigInteger.valueOf(addr)).shiftLeft(Pcie.LEN_BITS).or(BigInteger.valueOf(len));
        return v.shiftLeft(Pcie.BEAT_BITS).shiftLeft(1).or(BigInteger.valueOf(last ? 1 : 0));
    }

    /** Runs {@code beats} into a host with 4 tags and returns the failure message (or "" if none). */
    static String run(RunConfig cfg, String part, List<BigInteger> beats) {
        try (Testbench<Wire> tb = Testbench.create(Wire::new, cfg.part(part))) {
            Wire w = tb.dut();
            StreamSource src = tb.add(new StreamSource("device", StreamPort.of(w.in)));
            tb.add(new StreamSink("cpl_sink", StreamPort.of(w.cplOut)));
            PcieHost host = tb.add(new PcieHost("host", new HostMemory(), new PcieParams(new DmaParams(20, 8, 4, 512, 128, 64), 5))
                    .dma(w.dmaRq, w.dmaCpl));
            beats.forEach(src::send);
            tb.reset(1);
            try {
                tb.runUntil("all beats", src::idle, 200);
                tb.run(60); // past the round trip: every read answered
                tb.finish();
                assertThat(host.idle()).isTrue();
                return "";
            } catch (AssertionError e) {
                return e.getMessage();
            }
        }
    }

    @Test
    void eachBrokenRuleFailsWithItsOwnMessage(RunConfig cfg) {
        assertThat(run(cfg, "len0", List.of(beat(true, 0, 0x1000, 0, true)))).contains("len must be 1..4096");
        assertThat(run(cfg, "4k", List.of(beat(false, 0, 0x1FC0, 128, true)))).contains("crosses a 4 KB boundary");
        assertThat(run(cfg, "mrrs", List.of(beat(false, 0, 0x1000, 1024, true)))).contains("above the max read request size of 512");
        assertThat(run(cfg, "tag", List.of(beat(false, 4, 0x1000, 64, true)))).contains("DMA read tag 4 outside 0..3");
        assertThat(run(cfg, "reuse", List.of(beat(false, 1, 0x1000, 64, true), beat(false, 1, 0x2000, 64, true))))
                .contains("tag 1 while a read with that tag is outstanding");
        assertThat(run(cfg, "addr", List.of(beat(true, 0, 0x1000, 100, false), beat(true, 0, 0x1040, 100, true))))
                .contains("changed the request");
        assertThat(run(cfg, "last", List.of(beat(true, 0, 0x1000, 100, true)))).contains("beat 1 of 2 has last=true");
        assertThat(run(cfg, "short", List.of(beat(true, 0, 0x1000, 100, false)))).contains("stopped after 1 of 2 beats");
        assertThat(run(cfg, "good", List.of(beat(true, 0, 0x1000, 100, false), beat(true, 0, 0x1000, 100, true),
                beat(false, 1, 0x1000, 64, true)))).isEmpty();
        assertThatThrownBy(() -> new PcieHost("h", new HostMemory(), PcieParams.th2()).mmioWrite(8, 1)).hasMessageContaining("no mmio port");
    }
}
