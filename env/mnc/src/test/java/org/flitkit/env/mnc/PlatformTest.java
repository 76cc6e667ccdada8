package org.flitkit.env.mnc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.Test;

/** The platform's calibration and the host library's checks (docs/mnc.md, "Platform parameters"). */
class PlatformTest {
    private static final int BYTES = 64 * 1024;

    private static void oneMessage(MncEnv env, int bytes) {
        long[] got = {0};
        env.host(0).open(0);
        env.host(1).open(0).listener((h, src, port, seq, data) -> got[0] = data.length);
        env.host(0).send(0, 1, new byte[bytes], null);
        env.tb.runUntil("the message", () -> got[0] == bytes, 10_000_000);
        env.tb.runUntil("the platform to drain", env::idle, 1_000_000);
    }

    @Test
    void oneMasterMovesAtTheCalibratedSingleTransferRates() {
        Platform pci = Platform.paper();
        try (MncEnv env = new MncEnv(RunConfig.of(1, 0), 2, MncEnvs.params(1), pci)) {
            oneMessage(env, BYTES);
            // one NIC reads at the sender, one writes at the receiver: exactly bytes / rate, no master switch
            assertThat(env.bus(0).readBytes()).isEqualTo(BYTES);
            assertThat(env.bus(0).switches()).isZero();
            assertThat(env.bus(0).busyCycles()).isCloseTo(BYTES / pci.bytesPerCycle(315), within(1e-6));
            assertThat(env.bus(1).writeBytes()).isEqualTo(BYTES);
            assertThat(env.bus(1).busyCycles()).isCloseTo(BYTES / pci.bytesPerCycle(372), within(1e-6));
        }
    }

    @Test
    void twoMastersPayTheBridgeRestartOnEverySwitchOfReader() {
        Platform pci = Platform.paper();
        try (MncEnv env = new MncEnv(RunConfig.of(1, 0), 2, MncEnvs.params(2), pci)) {
            oneMessage(env, BYTES);
            PciBus b = env.bus(0);
            assertThat(b.readBytes()).isEqualTo(BYTES);
            // striped in two halves read by two NICs at once: at least one switch per 256-byte burst pair
            assertThat(b.switches()).isGreaterThan(BYTES / 2 / pci.burstBytes() - 1);
            assertThat(b.busyCycles()).isCloseTo(BYTES / pci.bytesPerCycle(315) + b.switches() * pci.switchNs() * pci.clockMhz() / 1_000,
                    within(1e-6));
        }
    }

    @Test
    void theHostLibraryRefusesWhatGmWould() {
        try (MncEnv env = new MncEnv(RunConfig.of(1, 0), 2, MncEnvs.params(1), Platform.paper())) {
            assertThatThrownBy(() -> env.host(0).send(3, 1, new byte[8], null)).hasMessage(
                    "node 0: port 3 is not open (open it on every NIC first)");
            env.host(0).open(3);
            assertThatThrownBy(() -> env.host(0).send(3, 0, new byte[8], null)).hasMessage(
                    "node 0: no destination node 0 (nodes 0..1, not itself)");
            assertThatThrownBy(() -> env.host(0).send(3, 1, new byte[0], null)).hasMessage(
                    "message length must be in 1..1048576 bytes, got 0");
            assertThatThrownBy(() -> env.host(0).open(16)).hasMessage("GM port must be in 0..15, got 16");
        }
    }
}
