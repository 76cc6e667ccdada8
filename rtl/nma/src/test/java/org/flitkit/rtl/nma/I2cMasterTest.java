package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Waveform-level checks of {@link I2cMaster} against the independent {@link I2cMonitor}. */
@ExtendWith(TestbenchExtension.class)
class I2cMasterTest {
    static final EepParams P = EepParams.FAST;
    /** FAST: 2 cycles per tick, 10 cycles per SCL period. */
    static final int TICK = P.tickCycles();

    static I2cDriver driver(RunConfig cfg) {
        return new I2cDriver(cfg, P, null);
    }

    @Test
    void fastParametersGiveTenCyclePeriod() {
        assertThat(TICK).isEqualTo(2);
        assertThat(EepParams.DEFAULT.tickCycles()).isEqualTo(50);
        assertThat(EepParams.DEFAULT.actualSclHz()).isEqualTo(400_000.0);
    }

    @Test
    void startBytesAckAndStopOnTheWire(RunConfig cfg) {
        try (I2cDriver d = driver(cfg)) {
            d.start();
            assertThat(d.write(0xA0)).isTrue();
            assertThat(d.write(0x12)).isTrue();
            assertThat(d.write(0x34)).isTrue();
            d.stop();
            d.steps(20);
            assertThat(d.mon.line()).isEqualTo("S a0+ 12+ 34+ P");
            assertThat(d.mon.sdaGlitches).isEmpty();
        }
    }

    @Test
    void sclTimingMatchesTheConfiguredPeriod(RunConfig cfg) {
        try (I2cDriver d = driver(cfg)) {
            d.start();
            long t0 = d.sim.cycle();
            d.write(0xA0);
            d.write(0x55);
            d.stop();
            d.steps(10);
            I2cMonitor m = d.mon;
            List<Long> rises = m.sclRises;
            List<Long> falls = m.sclFalls;
            // 18 clocks for two bytes, plus the rise inside STOP
            assertThat(rises).hasSize(19);
            // inside a byte every SCL period is exactly 5 ticks
            for (int i = 1; i < 9; i++) {
                assertThat(rises.get(i) - rises.get(i - 1)).as("period of bit %d", i).isEqualTo(5L * TICK);
            }
            // high for 2 ticks, low for at least 3 ticks
            for (int i = 0; i < 18; i++) {
                long rise = rises.get(i);
                long fallAfter = falls.stream().filter(f -> f > rise).findFirst().orElseThrow();
                assertThat(fallAfter - rise).as("high time of clock %d", i).isEqualTo(2L * TICK);
            }
            for (int i = 1; i < 18; i++) {
                long rise = rises.get(i);
                long fallBefore = falls.stream().filter(f -> f < rise).reduce((a, b) -> b).orElseThrow();
                assertThat(rise - fallBefore).as("low time before clock %d", i).isGreaterThanOrEqualTo(3L * TICK);
            }
            // START: SDA falls with SCL high, then SCL falls 2 ticks later (hold time)
            long s = m.startCycles.get(0);
            assertThat(falls.get(0) - s).isEqualTo(2L * TICK);
            assertThat(s).isGreaterThan(t0 - 10L * TICK);
            // STOP: SDA rises 2 ticks after the last SCL rise (setup time)
            long p = m.stopCycles.get(0);
            assertThat(p - rises.get(18)).isEqualTo(2L * TICK);
            assertThat(m.sdaGlitches).isEmpty();
        }
    }

    @Test
    void defaultTimingIs400kHzAt100MHz(RunConfig cfg) {
        EepParams p = EepParams.DEFAULT;
        try (I2cDriver d = new I2cDriver(cfg, p, null)) {
            d.budget = 1_000_000;
            d.start();
            d.write(0xA0);
            d.stop();
            List<Long> r = d.mon.sclRises;
            assertThat(r.get(5) - r.get(4)).isEqualTo(250L); // 2.5 us at 100 MHz = 400 kHz
            long rise = r.get(3);
            long fall = d.mon.sclFalls.stream().filter(f -> f > rise).findFirst().orElseThrow();
            assertThat(fall - rise).isEqualTo(100L); // tHIGH = 1.0 us >= 0.6 us
            assertThat(r.get(4) - fall).isEqualTo(150L); // tLOW = 1.5 us >= 1.3 us
        }
    }

    @Test
    void vcdDumpShowsStartAndTheSclPeriodAtTheCoreClock(RunConfig cfg, @TempDir Path dir) {
        Path vcd = dir.resolve("i2c.vcd");
        String scl;
        String sda;
        String state;
        try (I2cDriver d = new I2cDriver(cfg.withVcd(vcd), P, null)) {
            d.start();
            d.write(0xA0);
            d.stop();
            scl = d.dut.scl.path();
            sda = d.dut.sda.path();
            state = d.dut.master.path() + ".state";
        }
        VcdReader r = VcdReader.read(vcd);
        List<VcdReader.Change> sclChanges = r.signal(scl).changes();
        List<VcdReader.Change> sdaChanges = r.signal(sda).changes();
        // START: the first SDA fall comes while SCL is still high
        long sdaFall = sdaChanges.stream().filter(c -> c.value().signum() == 0).findFirst().orElseThrow().time();
        assertThat(r.signal(scl).valueAt(sdaFall).intValue()).isEqualTo(1);
        // 9 clocks of the address byte, 1 us apart in VCD time (FAST: 10 MHz core, 1 MHz SCL)
        List<Long> rises = sclChanges.stream().filter(c -> c.value().signum() != 0).map(VcdReader.Change::time).toList();
        assertThat(rises.size()).isGreaterThanOrEqualTo(10);
        for (int i = 2; i < 9; i++) {
            assertThat(rises.get(i) - rises.get(i - 1)).isEqualTo(1_000_000L); // ps
        }
        assertThat(r.signal(state)).isNotNull();
    }

    @Test
    void nackFromAbsentDevice(RunConfig cfg) {
        try (I2cDriver d = driver(cfg)) {
            d.start();
            assertThat(d.write(0xA2)).as("no device at 0x51").isFalse();
            d.stop();
            d.steps(10);
            assertThat(d.mon.line()).isEqualTo("S a2- P");
        }
    }

    @Test
    void readGeneratesAckThenNackAndRepeatedStart(RunConfig cfg) {
        byte[] img = {0x11, 0x22, 0x33};
        try (I2cDriver d = new I2cDriver(cfg, P, img)) {
            d.start();
            d.write(0xA0);
            d.write(0x00);
            d.write(0x00);
            d.start();
            d.write(0xA1);
            int a = d.read(true);
            int b = d.read(false);
            d.stop();
            d.steps(10);
            assertThat(a).isEqualTo(0x11);
            assertThat(b).isEqualTo(0x22);
            assertThat(d.mon.line()).isEqualTo("S a0+ 00+ 00+ Sr a1+ 11+ 22- P");
            assertThat(d.mon.sdaGlitches).isEmpty();
        }
    }

    @Test
    void stretchedClockPausesTheMasterAndAbortReleasesTheBus(RunConfig cfg) {
        try (I2cDriver d = driver(cfg)) {
            d.start();
            d.sim.poke(d.dut.sclStuck, 1);
            d.sim.poke(d.dut.cmd.valid, 1);
            d.sim.poke(d.dut.cmd.bits.op, I2cMaster.OP_WRITE);
            d.sim.poke(d.dut.cmd.bits.data, 0xA0);
            d.step();
            d.sim.poke(d.dut.cmd.valid, 0);
            d.sim.poke(d.dut.rsp.ready, 1);
            d.steps(200);
            assertThat(d.sim.peekBool(d.dut.rsp.valid)).as("no response while SCL is held low").isFalse();
            assertThat(d.sim.peekBool(d.dut.master.busy)).isTrue();
            List<Long> risesBefore = new ArrayList<>(d.mon.sclRises);
            // the slave lets go: the byte completes
            d.sim.poke(d.dut.sclStuck, 0);
            d.until("the byte to complete", () -> d.sim.peekBool(d.dut.rsp.valid));
            assertThat(d.sim.peekBool(d.dut.rsp.bits.ack)).isTrue();
            d.step();
            assertThat(d.mon.sclRises.size() - risesBefore.size()).isEqualTo(9);
            // abort in the middle of a byte releases both lines
            d.sim.poke(d.dut.cmd.valid, 1);
            d.sim.poke(d.dut.cmd.bits.data, 0x00);
            d.step();
            d.sim.poke(d.dut.cmd.valid, 0);
            d.steps(13);
            d.sim.poke(d.dut.abort, 1);
            d.step();
            d.sim.poke(d.dut.abort, 0);
            d.step();
            assertThat(d.sim.peekBool(d.dut.master.busy)).isFalse();
            assertThat(d.sim.peekBool(d.dut.master.held)).isFalse();
            assertThat(d.sim.peekBool(d.dut.master.pins.sclOe)).isFalse();
            assertThat(d.sim.peekBool(d.dut.master.pins.sdaOe)).isFalse();
        }
    }
}
