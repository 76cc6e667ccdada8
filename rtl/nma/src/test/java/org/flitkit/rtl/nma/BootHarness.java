package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.rtl.nma.hw.RegBus;

/**
 * Test top for the power-up load: {@link BootLoader} and {@link EepAccess} sharing the I2C master, a
 * 24xx512 model, and the NMA {@link RegisterFile} (common NMRC registers) behind a {@link RegBusArbiter}
 * whose other master is a testbench port standing in for reg_access.
 */
final class BootHarness extends Module {
    static final int ADDR_BITS = ChipType.NRC.registerAddressBits();

    final Decoupled<UInt> req = input(PacketWords.packetStream());
    final Decoupled<UInt> rsp = output(PacketWords.packetStream());
    final RegBus mainBus = input(new RegBus(ADDR_BITS));
    final Bool sclStuck = input(Bool());
    final Bool eepromOff = input(Bool());
    final Bool booting = output(Bool());
    final Bool bootDone = output(Bool());
    final Bool bootError = output(Bool());
    final UInt bootStatus = output(UInt(3));
    final Bool mainBlocked = output(Bool());
    final UInt chipId = output(UInt(16));
    final Bool scl = wire(Bool());
    final Bool sda = wire(Bool());
    final EepAccess eep;
    final BootLoader boot;
    final I2cEeprom eeprom;
    final RegBusArbiter arb;
    final RegisterFile regs;
    final EepParams params;

    BootHarness(EepParams chip, EepParams board, byte[] mem, int imageBase, int maxRecords) {
        params = chip;
        eep = instance(new EepAccess(chip, ChipType.NRC));
        boot = instance(new BootLoader(chip, ADDR_BITS, imageBase, maxRecords));
        eeprom = instance(new I2cEeprom(board, mem));
        arb = instance(new RegBusArbiter(ADDR_BITS));
        regs = instance(new RegisterFile(ADDR_BITS, NmaRegisters.common(1)));
        for (String h : regs.hooked()) {
            regs.hw(h).assign(0);
        }
        UInt id = regs.value(NmaRegisters.CHIP_ID).bits(15, 0);
        chipId.assign(id);

        eep.req.connect(req);
        rsp.connect(eep.rsp);
        eep.chipId.assign(id);
        eep.bootActive.assign(boot.booting);
        eep.bootCmd.connect(boot.i2cCmd);
        boot.i2cRsp.connect(eep.bootRsp);
        eep.bootAbort.assign(boot.i2cAbort);

        arb.bootOwns.assign(boot.booting);
        arb.boot.connect(boot.reg);
        arb.main.connect(mainBus);
        regs.bus.connect(arb.out);
        mainBlocked.assign(arb.mainBlocked);

        booting.assign(boot.booting);
        bootDone.assign(boot.bootDone);
        bootError.assign(boot.bootError);
        bootStatus.assign(boot.bootStatus);

        scl.assign(eep.pins.sclOe.or(eeprom.pins.sclOe).or(sclStuck).not());
        sda.assign(eep.pins.sdaOe.or(eeprom.pins.sdaOe.and(eepromOff.not())).not());
        eep.pins.scl.assign(scl);
        eep.pins.sda.assign(sda);
        eeprom.pins.scl.assign(scl);
        eeprom.pins.sda.assign(sda);
    }
}
