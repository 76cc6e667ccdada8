package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Arbiter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.Th2;

/**
 * {@code nmp_collector}: merges the packets of reg_access, eep_access, the distributor's error path and
 * active_report into one stream, whole packets (one beat = 4 flits) with FIXED priority: responses
 * (register, E2PROM, error) above fault reports. Spec: 20-th2-management.md, "NMA submodules" (nmp_collector).
 */
public final class NmpCollector extends Module {
    /** Priority order: 0 = highest. */
    public static final int REG = 0;
    public static final int EEP = 1;
    public static final int ERR = 2;
    public static final int REPORT = 3;

    public final Decoupled<UInt> reg = input(PacketWords.packetStream());
    public final Decoupled<UInt> eep = input(PacketWords.packetStream());
    public final Decoupled<UInt> err = input(PacketWords.packetStream());
    public final Decoupled<UInt> report = input(PacketWords.packetStream());
    public final Decoupled<UInt> out = output(PacketWords.packetStream());
    /** Which input the packet on {@link #out} comes from (REG, EEP, ERR, REPORT). */
    public final UInt chosen = output(UInt(2));

    private final Arbiter<UInt> arb = instance(new Arbiter<>(() -> UInt(Th2.PACKET_BITS), 4));

    public NmpCollector() {
        arb.in.get(REG).connect(reg);
        arb.in.get(EEP).connect(eep);
        arb.in.get(ERR).connect(err);
        arb.in.get(REPORT).connect(report);
        out.connect(arb.out);
        chosen.assign(arb.chosen);
    }
}
