package org.flitkit.formats.th2;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoutingFieldTest {

    @Test
    void encodesHopNumAndHops() {
        BitVector bits = RoutingField.of(3, 23, 0).encode();
        assertThat(bits.width()).isEqualTo(105);
        assertThat(bits.get(FlitLayouts.ROUTE.HOP_NUM)).isEqualTo(3);
        assertThat(bits.get(FlitLayouts.ROUTE.hop(0))).isEqualTo(3);
        assertThat(bits.get(FlitLayouts.ROUTE.hop(1))).isEqualTo(23);
        assertThat(bits.toBigInteger().longValue()).isEqualTo(3 | 3 << 5 | 23 << 10);
    }

    @Test
    void roundTripsAllLengths() {
        List<Integer> hops = new ArrayList<>();
        for (int n = 0; n <= 20; n++) {
            RoutingField r = new RoutingField(hops);
            assertThat(RoutingField.decode(r.encode())).isEqualTo(r);
            hops.add((n * 7) % 24);
        }
    }

    @Test
    void portsOutsideZeroTo23AreRejected() {
        assertThatThrownBy(() -> RoutingField.of(1, 24)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hop 1: port 24 outside 0..23");
        assertThatThrownBy(() -> RoutingField.of(31)).hasMessage("hop 0: port 31 outside 0..23");
        assertThatThrownBy(() -> RoutingField.of(-1)).hasMessage("hop 0: port -1 outside 0..23");
        assertThatThrownBy(() -> RoutingField.of(32)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void moreThanTwentyHopsAreRejected() {
        assertThatThrownBy(() -> new RoutingField(Collections.nCopies(21, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a route has at most 20 hops, got 21");
        assertThatThrownBy(() -> new RoutingField(Collections.nCopies(20, 1)).then(2))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badWireValuesAreRejected() {
        Field hopNum = FlitLayouts.ROUTE.HOP_NUM;
        assertThatThrownBy(() -> RoutingField.decode(FlitLayouts.ROUTE.zero().with(hopNum, 21)))
                .hasMessage("HopNum 21 outside 0..20");
        BitVector badPort = RoutingField.of(5).encode().with(FlitLayouts.ROUTE.hop(0), 30);
        assertThatThrownBy(() -> RoutingField.decode(badPort)).hasMessage("hop 0: port 30 outside 0..23");
        BitVector junk = RoutingField.of(5).encode().with(FlitLayouts.ROUTE.hop(3), 1);
        assertThatThrownBy(() -> RoutingField.decode(junk)).hasMessageContaining("unused hop slot Hop3");
    }

    @Test
    void thenExtendsTheRoute() {
        assertThat(RoutingField.EMPTY.then(4).then(9)).isEqualTo(RoutingField.of(4, 9));
        assertThat(RoutingField.of(4, 9).hop(1)).isEqualTo(9);
        assertThatThrownBy(() -> RoutingField.of(4).hop(1)).isInstanceOf(IllegalArgumentException.class);
    }
}
