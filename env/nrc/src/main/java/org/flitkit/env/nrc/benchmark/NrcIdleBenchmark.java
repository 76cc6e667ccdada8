package org.flitkit.env.nrc.benchmark;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.tools.benchmark.Checksum;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;

/**
 * The {@code nrc-idle} benchmark: an NRC with board E2PROM timing and an erased E2PROM, every output
 * ready and every input idle (no flits, links and faults all zero). After the power-up load fails on the
 * erased E2PROM, the NMA's free-running cycle counter is the only state that changes. {@code checksum}
 * folds every output of the NRC on every cycle.
 */
public final class NrcIdleBenchmark extends Module {
    public final UInt checksum = output(UInt(Checksum.WIDTH));
    public final Nrc nrc = instance(new Nrc());

    public NrcIdleBenchmark() {
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            nrc.portIn.get(p).noenq();
            nrc.portOut.get(p).deq();
            nrc.toSwitch.get(p).deq();
            for (Bits b : nrc.link.get(p).leaves()) {
                b.assign(0);
            }
        }
        nrc.faults.assign(0);
        checksum.assign(Checksum.accumulate(Checksum.fold(outputsOf(nrc))));
    }

    /** Every output port of {@code m}, in declaration order. */
    static List<Bits> outputsOf(Module m) {
        List<Bits> out = new ArrayList<>();
        for (Bits b : m.ports()) {
            if (b.kind() == Kind.OUTPUT) {
                out.add(b);
            }
        }
        return out;
    }
}
