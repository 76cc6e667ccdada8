package org.flitkit.rtl.nrc.sw;

import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

class ElabProbe {
    @Test
    void build() {
        for (SwitchParams p : new SwitchParams[] {new SwitchParams(4, 2, 2, 4, 4, 4, 4, 16), SwitchParams.TH2}) {
            long t0 = System.nanoTime();
            Simulator sim = Simulator.of(() -> new SwitchCore(p));
            System.out.println(p + " built in " + (System.nanoTime() - t0) / 1e9 + " s " + sim.stats());
            sim.reset(2);
            t0 = System.nanoTime();
            sim.step(2000);
            System.out.println("idle 2000 cycles " + (System.nanoTime() - t0) / 1e9 + " s");
        }
    }
}
