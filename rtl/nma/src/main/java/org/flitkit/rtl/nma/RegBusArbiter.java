package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.rtl.nma.hw.RegBus;

/**
 * Gives the {@link RegBus} to the {@link BootLoader} while it boots, to {@code reg_access} afterwards
 * (docs/th2-eeprom.md, "Register bus during boot"); the bus has no wait state, so accesses from
 * reg_access during boot are not performed, see {@code error}, and {@code mainBlocked} is high.
 */
public final class RegBusArbiter extends Module {
    /** From the boot loader (slave side of its bus). */
    public final RegBus boot;
    /** From reg_access (slave side of its bus). */
    public final RegBus main;
    /** To the register file. */
    public final RegBus out;
    public final Bool bootOwns = input(Bool());
    /** reg_access accesses are dropped this cycle. */
    public final Bool mainBlocked = output(Bool());

    public RegBusArbiter(int addrBits) {
        boot = input(new RegBus(addrBits));
        main = input(new RegBus(addrBits));
        out = output(new RegBus(addrBits));
        out.read.assign(mux(bootOwns, boot.read, main.read));
        out.write.assign(mux(bootOwns, boot.write, main.write));
        out.addr.assign(mux(bootOwns, boot.addr, main.addr));
        out.wdata.assign(mux(bootOwns, boot.wdata, main.wdata));
        boot.rdata.assign(mux(bootOwns, out.rdata, lit(0, 64)));
        boot.error.assign(bootOwns.not().or(out.error));
        boot.readOnly.assign(bootOwns.and(out.readOnly));
        main.rdata.assign(mux(bootOwns, lit(0, 64), out.rdata));
        main.error.assign(bootOwns.or(out.error));
        main.readOnly.assign(bootOwns.not().and(out.readOnly));
        mainBlocked.assign(bootOwns);
    }
}
