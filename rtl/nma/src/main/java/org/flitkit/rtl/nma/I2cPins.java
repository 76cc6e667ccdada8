package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;

/**
 * Open-drain pins of one I2C device (docs/th2-eeprom.md, "I2C bus"): {@code sclOe}/{@code sdaOe} = 1 pulls
 * the line low; {@code scl}/{@code sda} are the line levels. {@link #bus} builds the wired-AND with pull-ups.
 */
public final class I2cPins extends Bundle {
    /** 1 = pull SCL low. */
    public final Bool sclOe = Bool();
    /** 1 = pull SDA low. */
    public final Bool sdaOe = Bool();
    /** SCL line level at the pin. */
    public final Bool scl = flipped(Bool());
    /** SDA line level at the pin. */
    public final Bool sda = flipped(Bool());

    /**
     * Wired-AND with pull-ups: drives {@code sclLine}/{@code sdaLine} (wires of the current module) high
     * unless a device or an extra pull-down ({@code sclStuck}/{@code sdaStuck}, for fault injection; may be
     * null) pulls them low, and feeds the line levels back to every device.
     */
    public static void bus(Bool sclLine, Bool sdaLine, Bool sclStuck, Bool sdaStuck, I2cPins... devices) {
        Bool sclLow = sclStuck != null ? sclStuck : FALSE();
        Bool sdaLow = sdaStuck != null ? sdaStuck : FALSE();
        for (I2cPins d : devices) {
            sclLow = sclLow.or(d.sclOe);
            sdaLow = sdaLow.or(d.sdaOe);
        }
        sclLine.assign(sclLow.not());
        sdaLine.assign(sdaLow.not());
        for (I2cPins d : devices) {
            d.scl.assign(sclLine);
            d.sda.assign(sdaLine);
        }
    }
}
