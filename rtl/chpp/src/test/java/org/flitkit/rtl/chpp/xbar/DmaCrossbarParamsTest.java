package org.flitkit.rtl.chpp.xbar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * The crossbar's parameter rules, each with its message, and where the destination port is read from the header
 * (DST_ID's processor field, widened downward only beyond 8 ports). docs/chpp-dma.md, "Intra-DMA crossbar".
 */
class DmaCrossbarParamsTest {
    @Test
    void rulesWithMessages() {
        assertThatThrownBy(() -> new DmaCrossbar(1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DmaCrossbar: ports must be 2..256 (the destination comes from the 8-bit DST_ID), got 1");
        assertThatThrownBy(() -> new DmaCrossbar(257, 2)).hasMessageContaining("ports must be 2..256").hasMessageEndingWith("got 257");
        assertThatThrownBy(() -> new DmaCrossbar(4, 0)).hasMessage("DmaCrossbar: vcs must be 1..ports (4); with Dest-Mod "
                + "(destination mod vcs) a VC beyond the port count would never be used, got 0");
        assertThatThrownBy(() -> new DmaCrossbar(4, 5)).hasMessageEndingWith("would never be used, got 5");
        assertThatThrownBy(() -> new DmaCrossbar(4, 2, 0, 6)).hasMessage("DmaCrossbar: vcDepth must be 1..1024 beats, got 0");
        assertThatThrownBy(() -> new DmaCrossbar(4, 2, 1025, 6)).hasMessage("DmaCrossbar: vcDepth must be 1..1024 beats, got 1025");
        assertThatThrownBy(() -> new DmaCrossbar(4, 2, 18, 0)).hasMessage("DmaCrossbar: getDepth must be 1..1024 beats, got 0");
    }

    @Test
    void destinationField() {
        // DST_ID is header bits 55:48 with the processor in its top 3 bits
        assertThat(DmaCrossbar.destinationField(2).lsb()).isEqualTo(53);
        assertThat(DmaCrossbar.destinationField(8).width()).isEqualTo(3);
        assertThat(DmaCrossbar.destinationField(8).lsb()).isEqualTo(53);
        assertThat(DmaCrossbar.destinationField(16).width()).isEqualTo(4);
        assertThat(DmaCrossbar.destinationField(16).lsb()).isEqualTo(52);
        assertThat(DmaCrossbar.destinationField(256).lsb()).isEqualTo(48);
    }

    @Test
    void elaboratesOddSizes() {
        // a VC count that is not a power of two takes the lookup path of Dest-Mod
        Simulator.of(() -> new DmaCrossbar(5, 3));
        Simulator.of(() -> new DmaCrossbar(2, 1, 1, 1));
    }
}
