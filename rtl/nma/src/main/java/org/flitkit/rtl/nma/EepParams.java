package org.flitkit.rtl.nma;

/**
 * Timing of the E2PROM path in physical units, converted to core cycles once (docs/th2-eeprom.md, "Clock
 * and timing"; spec 20-th2-management.md, "Measured figures").
 *
 * @param coreHz       core clock of the NMA (default 100 MHz; the paper gives none)
 * @param sclHz        I2C SCL frequency (default 400 kHz, Fast-mode)
 * @param writeCycleNs E2PROM internal write cycle tWC of the board part, for {@link I2cEeprom} (default 3 ms)
 * @param timeoutNs    watchdog per byte access, acknowledge polling included (default 10 ms)
 * @param deviceSelect the E2PROM's A2..A0 pins (its I2C address is 0b1010_A2A1A0)
 */
public record EepParams(long coreHz, long sclHz, long writeCycleNs, long timeoutNs, int deviceSelect) {

    /** 100 MHz core, 400 kHz SCL, 3 ms write cycle, 10 ms watchdog, A2..A0 = 0. */
    public static final EepParams DEFAULT = new EepParams(100_000_000L, 400_000L, 3_000_000L, 10_000_000L, 0);

    /**
     * Fast unit-test timing: 10 MHz core and 1 MHz SCL (10 cycles per SCL period), 30 us write cycle
     * (300 cycles), 200 us watchdog (2000 cycles).
     */
    public static final EepParams FAST = new EepParams(10_000_000L, 1_000_000L, 30_000L, 200_000L, 0);

    /** Number of bus ticks (clock-enable pulses) in one SCL period: 3 low, 2 high. */
    public static final int TICKS_PER_BIT = 5;

    public EepParams {
        if (coreHz <= 0 || sclHz <= 0 || writeCycleNs <= 0 || timeoutNs <= 0) {
            throw new IllegalArgumentException("E2PROM timing parameters must be positive");
        }
        if (deviceSelect < 0 || deviceSelect > 7) {
            throw new IllegalArgumentException("deviceSelect (A2..A0) must be 0..7, got " + deviceSelect);
        }
    }

    /** Core cycles per bus tick, rounded up so that SCL never runs faster than {@link #sclHz}. */
    public int tickCycles() {
        long t = (coreHz + TICKS_PER_BIT * sclHz - 1) / (TICKS_PER_BIT * sclHz);
        if (t > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("SCL too slow for the core clock");
        }
        return (int) Math.max(1, t);
    }

    /** The SCL frequency actually produced. */
    public double actualSclHz() {
        return (double) coreHz / (TICKS_PER_BIT * tickCycles());
    }

    public long writeCycleCycles() {
        return cycles(writeCycleNs);
    }

    public long timeoutCycles() {
        return cycles(timeoutNs);
    }

    /** Core cycles in {@code ns} nanoseconds, rounded up. */
    public long cycles(long ns) {
        return (long) Math.ceil(ns * (double) coreHz / 1e9);
    }

    /** Microseconds taken by {@code cycles} core cycles. */
    public double micros(long cycles) {
        return cycles * 1e6 / coreHz;
    }

    /** The 7-bit I2C address of the E2PROM: 0b1010 then A2..A0. */
    public int deviceAddress() {
        return 0b1010_000 | deviceSelect;
    }

    public EepParams withWriteCycleNs(long ns) {
        return new EepParams(coreHz, sclHz, ns, timeoutNs, deviceSelect);
    }

    public EepParams withTimeoutNs(long ns) {
        return new EepParams(coreHz, sclHz, writeCycleNs, ns, deviceSelect);
    }

    public EepParams withDeviceSelect(int a) {
        return new EepParams(coreHz, sclHz, writeCycleNs, timeoutNs, a);
    }
}
