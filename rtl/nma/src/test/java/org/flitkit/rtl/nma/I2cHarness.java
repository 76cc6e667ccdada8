package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;

/** Test top: an {@link I2cMaster} and an {@link I2cEeprom} on one wired-AND bus, with fault pull-downs. */
final class I2cHarness extends Module {
    final Decoupled<I2cMaster.Cmd> cmd = input(Decoupled.of(I2cMaster.Cmd::new));
    final Decoupled<I2cMaster.Rsp> rsp = output(Decoupled.of(I2cMaster.Rsp::new));
    final Bool abort = input(Bool());
    final Bool sclStuck = input(Bool());
    final Bool sdaStuck = input(Bool());
    final Bool scl = wire(Bool());
    final Bool sda = wire(Bool());
    final I2cMaster master;
    final I2cEeprom eeprom;
    final EepParams params;

    I2cHarness(EepParams p, byte[] image) {
        params = p;
        master = instance(new I2cMaster(p));
        eeprom = instance(new I2cEeprom(p, image));
        master.cmd.connect(cmd);
        rsp.connect(master.rsp);
        master.abort.assign(abort);
        I2cPins.bus(scl, sda, sclStuck, sdaStuck, master.pins, eeprom.pins);
    }
}
