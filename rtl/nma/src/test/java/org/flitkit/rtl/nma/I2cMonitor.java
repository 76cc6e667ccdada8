package org.flitkit.rtl.nma;

import java.util.ArrayList;
import java.util.List;

/**
 * A passive I2C bus analyser for testbenches, written from the I2C specification and independent of the
 * RTL: fed one (SCL, SDA) sample per core cycle, it decodes START ("S"), repeated START ("Sr"), STOP ("P")
 * and bytes with their 9th bit ("a0+" = ACK, "a0-" = NACK), and keeps the timing of every line edge.
 */
final class I2cMonitor {
    final List<String> events = new ArrayList<>();
    /** Cycles of SCL rising and falling edges. */
    final List<Long> sclRises = new ArrayList<>();
    final List<Long> sclFalls = new ArrayList<>();
    /** Cycles where SDA changed in the same cycle as SCL (zero setup or hold time). */
    final List<Long> sdaGlitches = new ArrayList<>();
    final List<Long> startCycles = new ArrayList<>();
    final List<Long> stopCycles = new ArrayList<>();
    private boolean scl = true;
    private boolean sda = true;
    private boolean inFrame;
    private int bits;
    private int value;
    private boolean first = true;

    void sample(long cycle, boolean nscl, boolean nsda) {
        if (!first) {
            if (scl != nscl && sda != nsda) {
                sdaGlitches.add(cycle);
            }
            if (scl && nscl && sda && !nsda) {
                events.add(inFrame ? "Sr" : "S");
                startCycles.add(cycle);
                inFrame = true;
                bits = 0;
                value = 0;
            } else if (scl && nscl && !sda && nsda) {
                events.add("P");
                stopCycles.add(cycle);
                inFrame = false;
                bits = 0;
            } else if (!scl && nscl) {
                sclRises.add(cycle);
                if (inFrame) {
                    if (bits < 8) {
                        value = (value << 1) | (nsda ? 1 : 0);
                        bits++;
                    } else {
                        events.add(String.format("%02x%s", value, nsda ? "-" : "+"));
                        bits = 0;
                        value = 0;
                    }
                }
            } else if (scl && !nscl) {
                sclFalls.add(cycle);
            }
        }
        first = false;
        scl = nscl;
        sda = nsda;
    }

    /** Events as one line, e.g. {@code "S a0+ 12+ P"}. */
    String line() {
        return String.join(" ", events);
    }
}
