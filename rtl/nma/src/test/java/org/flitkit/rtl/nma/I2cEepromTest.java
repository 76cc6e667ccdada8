package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The 24xx512 model driven through {@link I2cMaster}, checked on the wire by {@link I2cMonitor}. */
@ExtendWith(TestbenchExtension.class)
class I2cEepromTest {
    static final EepParams P = EepParams.FAST;

    static I2cDriver driver(RunConfig cfg, byte[] image) {
        return new I2cDriver(cfg, P, image);
    }

    static void address(I2cDriver d, int a) {
        d.start();
        assertThat(d.write(0xA0)).isTrue();
        assertThat(d.write(a >> 8)).isTrue();
        assertThat(d.write(a & 0xFF)).isTrue();
    }

    static int randomRead(I2cDriver d, int a) {
        address(d, a);
        d.start();
        assertThat(d.write(0xA1)).isTrue();
        int v = d.read(false);
        d.stop();
        return v;
    }

    /** Polls (repeated START + device address) until the device acknowledges; returns the number of NACKs. */
    static int pollUntilAck(I2cDriver d) {
        int nacks = 0;
        while (true) {
            d.start();
            if (d.write(0xA0)) {
                d.stop();
                return nacks;
            }
            nacks++;
            assertThat(nacks).as("poll count").isLessThan(1000);
        }
    }

    @Test
    void byteWriteAcknowledgePollingAndReadBack(RunConfig cfg) {
        try (I2cDriver d = driver(cfg, null)) {
            address(d, 0x1234);
            assertThat(d.write(0x5A)).isTrue();
            d.stop();
            long stopAt = d.mon.stopCycles.get(0);
            assertThat(d.sim.peekBool(d.dut.eeprom.busy)).isTrue();
            int nacks = pollUntilAck(d);
            long ackAt = d.sim.cycle();
            assertThat(nacks).as("device NACKs its address while writing").isGreaterThan(0);
            assertThat(ackAt - stopAt).isGreaterThanOrEqualTo(P.writeCycleCycles());
            // one poll is START (6 ticks) + 9 bits (45 ticks) = 102 cycles at FAST timing
            assertThat(ackAt - stopAt).isLessThan(P.writeCycleCycles() + 3 * 102L);
            assertThat(d.mon.line()).startsWith("S a0+ 12+ 34+ 5a+ P S a0- Sr a0- ");
            assertThat(randomRead(d, 0x1234)).isEqualTo(0x5A);
            assertThat(randomRead(d, 0x1235)).as("erased").isEqualTo(0xFF);
            assertThat(d.mon.sdaGlitches).isEmpty();
        }
    }

    @Test
    void pageWriteWrapsInsideTheSameHundredTwentyEightBytePage(RunConfig cfg) {
        try (I2cDriver d = driver(cfg, null)) {
            address(d, 0x107E);
            for (int v = 1; v <= 4; v++) {
                assertThat(d.write(v)).isTrue();
            }
            d.stop();
            pollUntilAck(d);
            assertThat(randomRead(d, 0x107E)).isEqualTo(1);
            assertThat(randomRead(d, 0x107F)).isEqualTo(2);
            assertThat(randomRead(d, 0x1000)).as("wrapped to the page start").isEqualTo(3);
            assertThat(randomRead(d, 0x1001)).isEqualTo(4);
            assertThat(randomRead(d, 0x1080)).as("next page untouched").isEqualTo(0xFF);
        }
    }

    @Test
    void aFullPagePlusOneOverwritesTheFirstByte(RunConfig cfg) {
        try (I2cDriver d = driver(cfg, null)) {
            address(d, 0x0200);
            for (int i = 0; i <= I2cEeprom.PAGE; i++) {
                assertThat(d.write(i & 0xFF)).isTrue();
            }
            d.stop();
            pollUntilAck(d);
            assertThat(randomRead(d, 0x0200)).isEqualTo(128);
            assertThat(randomRead(d, 0x0201)).isEqualTo(1);
            assertThat(randomRead(d, 0x027F)).isEqualTo(127);
        }
    }

    @Test
    void sequentialAndCurrentAddressReadsRollOverAtTheTop(RunConfig cfg) {
        byte[] img = new byte[I2cEeprom.SIZE];
        for (int i = 0; i < img.length; i++) {
            img[i] = (byte) (i * 7 + 3);
        }
        try (I2cDriver d = driver(cfg, img)) {
            address(d, 0xFFFE);
            d.start();
            d.write(0xA1);
            int a = d.read(true);
            int b = d.read(true);
            int c = d.read(false);
            d.stop();
            assertThat(new int[] {a, b, c}).containsExactly(img[0xFFFE] & 0xFF, img[0xFFFF] & 0xFF, img[0] & 0xFF);
            // current-address read continues after the last byte read
            d.start();
            assertThat(d.write(0xA1)).isTrue();
            assertThat(d.read(false)).isEqualTo(img[1] & 0xFF);
            d.stop();
            assertThat(d.sim.peek(d.dut.eeprom.pointer)).isEqualTo(2);
        }
    }

    @Test
    void repeatedStartBeforeStopDiscardsTheWrite(RunConfig cfg) {
        try (I2cDriver d = driver(cfg, new byte[] {0x11})) {
            address(d, 0x0000);
            assertThat(d.write(0x99)).isTrue();
            d.start();
            assertThat(d.write(0xA1)).isTrue();
            assertThat(d.read(false)).as("pointer advanced past the written byte").isEqualTo(0xFF);
            d.stop();
            assertThat(d.sim.peekBool(d.dut.eeprom.busy)).isFalse();
            assertThat(randomRead(d, 0)).isEqualTo(0x11);
        }
    }

    @Test
    void otherDeviceSelectIsIgnoredAndAddressOnlyWriteStartsNoCycle(RunConfig cfg) {
        try (I2cDriver d = driver(cfg, null)) {
            d.start();
            assertThat(d.write(0xA4)).isFalse();
            d.stop();
            address(d, 0x0042);
            d.stop();
            assertThat(d.sim.peekBool(d.dut.eeprom.busy)).isFalse();
            d.start();
            assertThat(d.write(0xA0)).as("no write cycle after an address-only write").isTrue();
            d.stop();
        }
    }

    @Test
    void deviceSelectPinsChangeTheAddress(RunConfig cfg) {
        EepParams p = P.withDeviceSelect(5);
        try (I2cDriver d = new I2cDriver(cfg, p, new byte[] {0x42})) {
            d.start();
            assertThat(d.write(0xA0)).isFalse();
            d.stop();
            d.start();
            assertThat(d.write(0xAA)).isTrue();
            d.stop();
        }
    }
}
