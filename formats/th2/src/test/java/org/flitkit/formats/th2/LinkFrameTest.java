package org.flitkit.formats.th2;

import org.flitkit.formats.core.Layout;
import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The link frame: field table, type codes, CRC, clock. docs/th2-link.md, "Frame". */
class LinkFrameTest {

    @Test
    void fieldsCoverTheWholeFrame() {
        Layout l = LinkFrame.FRAME.layout();
        assertThat(l.width()).isEqualTo(264).isEqualTo(LinkFrame.LANES * 33);
        assertThat(l.reserved()).isEmpty();
        assertThat(LinkFrame.FRAME.CRC.lsb()).isEqualTo(LinkFrame.CRC_COVERED_BITS);
        assertThat(LinkFrame.FRAME.PAYLOAD.width()).isEqualTo(Th2.FLIT_BITS);
    }

    @Test
    void typeCodesAreThreeBitsApartAndFarFromZero() {
        LinkFrame.Type[] ts = LinkFrame.Type.values();
        for (int i = 0; i < ts.length; i++) {
            assertThat(Integer.bitCount(ts[i].code())).as("%s from all-zero", ts[i]).isGreaterThanOrEqualTo(3);
            for (int j = i + 1; j < ts.length; j++) {
                assertThat(Integer.bitCount(ts[i].code() ^ ts[j].code())).as("%s vs %s", ts[i], ts[j]).isGreaterThanOrEqualTo(3);
            }
            for (int b = 0; b < LinkFrame.TYPE_BITS; b++) {
                assertThat(LinkFrame.Type.nearest(ts[i].code() ^ 1 << b)).isEqualTo(ts[i]);
                assertThat(LinkFrame.Type.exact(ts[i].code() ^ 1 << b)).isNull();
            }
        }
        assertThat(LinkFrame.Type.nearest(0)).isNull();
    }

    @Test
    void crcCatchesAZeroFrameAndEveryOneBitError() {
        assertThat(LinkFrame.crcGood(BitVector.zero(LinkFrame.BITS))).isFalse();
        BitVector f = LinkFrame.withCrc(BitVector.zero(LinkFrame.BITS)
                .with(LinkFrame.FRAME.TYPE, LinkFrame.Type.IDLE.code()).with(LinkFrame.FRAME.ACK, 17));
        assertThat(LinkFrame.crcGood(f)).isTrue();
        for (int i = 0; i < LinkFrame.BITS; i++) {
            assertThat(LinkFrame.crcGood(f.flip(i))).as("bit %d flipped", i).isFalse();
        }
        assertThatThrownBy(() -> LinkFrame.crcOf(BitVector.zero(256))).hasMessageContaining("264 bits");
    }

    @Test
    void oneFramePerCycleOverEightLanesAt14GbpsIs424MHz() {
        assertThat(LinkFrame.clockHz()).isEqualTo(8 * 14e9 / 264);
        assertThat(LinkFrame.clockHz() / 1e6).isBetween(424.24, 424.25);
    }
}
