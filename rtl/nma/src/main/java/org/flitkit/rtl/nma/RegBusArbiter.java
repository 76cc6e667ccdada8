package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.rtl.nma.hw.RegBus;

/**
 * Two masters on one {@link RegBus} (docs/th2-eeprom.md, "Register bus during boot"): the
 * {@link BootLoader} owns the bus while {@code bootOwns} is high, {@code reg_access} afterwards. The bus has
 * no wait state, so an access from the other master during boot is not performed: it sees {@code error}
 * and {@code mainBlocked} tells the NMA to hold (or answer BUSY to) register requests until boot ends.
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
