package org.flitkit.env.nic.mgmt;

import java.util.HashMap;
import java.util.Map;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.rtl.nrc.NrcRegisters;

/** Register addresses of the NRC's map by name ({@code ./hdl regmap nrc}): the one map the RTL decodes. */
final class NrcAddresses {
    private static final Map<String, Integer> BY_NAME = new HashMap<>();

    static {
        for (RegDef d : NrcRegisters.map()) {
            BY_NAME.put(d.name(), d.addr());
        }
    }

    private NrcAddresses() {
    }

    static int of(String name) {
        Integer a = BY_NAME.get(name);
        if (a == null) {
            throw new IllegalArgumentException("the NRC has no register " + name);
        }
        return a;
    }

    /** Port {@code p}'s register {@code name} (a {@code NmaRegisters.PORT_*} name). */
    static int port(int p, String name) {
        return of(NmaRegisters.portReg(p, name));
    }
}
