package org.flitkit.rtl.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Pcie}: the beat widths, field widths and status codes of docs/host-pcie.md, and the beat-width helpers. */
class PcieTest {
    @Test
    void beatWidthsOfTheThreeSupportedBuses() {
        assertThat(Pcie.checkBeatBytes(16)).isEqualTo(16);
        assertThat(Pcie.checkBeatBytes(32)).isEqualTo(32);
        assertThat(Pcie.checkBeatBytes(64)).isEqualTo(64);
        assertThat(Pcie.beatBits(16)).isEqualTo(128);
        assertThat(Pcie.beatBits(32)).isEqualTo(256);
        assertThat(Pcie.beatBits(64)).isEqualTo(512).isEqualTo(Pcie.BEAT_BITS);
        // a completion's byte count holds 0..B: log2(B) + 1 bits
        assertThat(Pcie.beatCountBits(16)).isEqualTo(5);
        assertThat(Pcie.beatCountBits(32)).isEqualTo(6);
        assertThat(Pcie.beatCountBits(64)).isEqualTo(7);
        assertThat(Pcie.CHPP_BEAT_BYTES).isEqualTo(16);
        assertThat(Pcie.BEAT_BYTES).isEqualTo(64);
    }

    @Test
    void aWriteTakesCeilLenOverBBeats() {
        assertThat(Pcie.beatsOf(1, 64)).isEqualTo(1);
        assertThat(Pcie.beatsOf(64, 64)).isEqualTo(1);
        assertThat(Pcie.beatsOf(65, 64)).isEqualTo(2);
        assertThat(Pcie.beatsOf(4096, 64)).isEqualTo(64);
        assertThat(Pcie.beatsOf(4096, 16)).isEqualTo(256);
        assertThat(Pcie.beatsOf(17, 16)).isEqualTo(2);
        assertThat(Pcie.beatsOf(33, 32)).isEqualTo(2);
    }

    @Test
    void fieldWidthsHoldTheirRangesAndStatusCodesAreThePcieOnes() {
        // len: 1..4096 bytes
        assertThat(4096).isLessThan(1 << Pcie.LEN_BITS).isGreaterThanOrEqualTo(1 << (Pcie.LEN_BITS - 1));
        assertThat(Pcie.TAG_BITS).isEqualTo(8);
        assertThat(Pcie.ADDR_BITS).isEqualTo(64);
        assertThat(Pcie.MMIO_ADDR_BITS).isEqualTo(24);
        // the Completion Status field: 000 SC, 001 UR, 100 CA in 3 bits
        assertThat(Pcie.STATUS_BITS).isEqualTo(3);
        assertThat(new int[] {Pcie.SC, Pcie.UR, Pcie.CA}).containsExactly(0b000, 0b001, 0b100);
    }

    @Test
    void anyOtherBeatIsRefusedNamingTheSizes() {
        for (int b : new int[] {0, 8, 48, 128, -64}) {
            assertThatThrownBy(() -> Pcie.checkBeatBytes(b)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("PCIe data beat must be 16, 32 or 64 bytes (a 128-, 256- or 512-bit bus), got " + b);
        }
        assertThatThrownBy(() -> Pcie.beatBits(24)).hasMessageEndingWith("got 24");
        assertThatThrownBy(() -> Pcie.beatCountBits(128)).hasMessageEndingWith("got 128");
        assertThatThrownBy(() -> Pcie.beatsOf(100, 8)).hasMessageEndingWith("got 8");
    }
}
