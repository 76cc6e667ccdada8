package org.flitkit.rtl.nrc;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.EepParams;
import org.junit.jupiter.api.Test;

class SpeedProbe {
    static void speed(String name, java.util.function.Supplier<? extends Module> top) {
        Simulator sim = Simulator.of(top);
        sim.reset(2);
        sim.step(150_000);
        long t1 = System.nanoTime();
        sim.step(50_000);
        System.out.printf("%s: %.0f cycles/s%n", name, 50_000 / ((System.nanoTime() - t1) / 1e9));
    }

    @Test
    void probe() {
        speed("relay", () -> new RelayStation(3)); speed("ingress", PortIngress::new);
        speed("mesh", RsMesh::new);
        speed("unpacker", NmpUnpacker::new);
        speed("packer", NmpPacker::new);
        speed("plane", NrcPlane::new);
        speed("nrc", () -> new Nrc(EepParams.FAST, null));
    }
}
