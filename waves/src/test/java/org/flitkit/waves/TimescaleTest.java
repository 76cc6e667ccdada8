package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimescaleTest {

    @Test
    void clockPeriodGivesATimescaleWithWholeHalfPeriods() {
        assertThat(Timescale.forPeriod(10, "ns")).isEqualTo(new Timescale(1, "ns"));
        assertThat(Timescale.forPeriod(2, "us")).isEqualTo(new Timescale(1, "us"));
        assertThat(Timescale.forPeriod(7, "ns")).isEqualTo(new Timescale(1, "ps"));
        assertThat(Timescale.forPeriod(1, "ns").ticks(1, "ns")).isEqualTo(1000);
    }

    @Test
    void periodsWithoutWholeHalfPeriodsAreRejected() {
        assertThatThrownBy(() -> Timescale.forPeriod(1, "fs")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Timescale.forPeriod(0, "ns")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void convertsDurationsToTicksExactly() {
        Timescale ts = new Timescale(10, "ps");

        assertThat(ts.ticks(5, "ns")).isEqualTo(500);
        assertThat(ts.toString()).isEqualTo("10ps");
        assertThatThrownBy(() -> ts.ticks(5, "ps")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parsesHeaderText() {
        assertThat(Timescale.parse("1ns")).isEqualTo(new Timescale(1, "ns"));
        assertThat(Timescale.parse(" 100 ps ")).isEqualTo(new Timescale(100, "ps"));
        assertThatThrownBy(() -> Timescale.parse("ns")).hasMessageContaining("not a timescale: 'ns'");
        assertThatThrownBy(() -> Timescale.parse("5ns")).hasMessageContaining("1, 10 or 100");
        assertThatThrownBy(() -> Timescale.parse("1 parsec")).hasMessageContaining("'parsec'");
    }
}
