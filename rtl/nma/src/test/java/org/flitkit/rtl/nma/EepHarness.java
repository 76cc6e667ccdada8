package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.ChipType;

/**
 * Test top for {@link EepAccess}: the access block and a 24xx512 model on one wired-AND bus, with fault
 * injection (SCL/SDA stuck low, E2PROM disconnected from SDA) and the boot port idle.
 */
final class EepHarness extends Module {
    final Decoupled<UInt> req = input(PacketWords.packetStream());
    final Decoupled<UInt> rsp = output(PacketWords.packetStream());
    final UInt chipId = input(UInt(16));
    final Bool bootActive = input(Bool());
    final Bool sclStuck = input(Bool());
    final Bool sdaStuck = input(Bool());
    /** The E2PROM's SDA driver is cut off: it never acknowledges nor sends data. */
    final Bool eepromOff = input(Bool());
    final Bool scl = wire(Bool());
    final Bool sda = wire(Bool());
    final EepAccess eep;
    final I2cEeprom eeprom;
    final EepParams params;

    EepHarness(EepParams chipSide, EepParams board, byte[] image) {
        params = chipSide;
        eep = instance(new EepAccess(chipSide, ChipType.NRC));
        eeprom = instance(new I2cEeprom(board, image));
        eep.req.connect(req);
        rsp.connect(eep.rsp);
        eep.chipId.assign(chipId);
        eep.bootActive.assign(bootActive);
        eep.bootCmd.noenq();
        eep.bootRsp.nodeq();
        eep.bootAbort.assign(FALSE());
        scl.assign(eep.pins.sclOe.or(eeprom.pins.sclOe).or(sclStuck).not());
        sda.assign(eep.pins.sdaOe.or(eeprom.pins.sdaOe.and(eepromOff.not())).or(sdaStuck).not());
        eep.pins.scl.assign(scl);
        eep.pins.sda.assign(sda);
        eeprom.pins.scl.assign(scl);
        eeprom.pins.sda.assign(sda);
    }
}
