package org.flitkit.env.nrc.chip;

import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.sw.SwitchParams;
import org.junit.jupiter.api.Test;

class SpeedProbeTest {
    @Test
    void probe() {
        long t0 = System.nanoTime();
        Simulator s = Simulator.of(() -> new NrcPeerBoard(EepParams.FAST, null, SwitchParams.TH2, LinkParams.defaults(), 4));
        System.out.printf("build %.1f s%n", (System.nanoTime() - t0) / 1e9);
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/probe-src.java"), s.generatedSource());
        } catch (java.io.IOException e) {
            throw new RuntimeException(e);
        }
        s.reset(4);
        s.step(2000);
        long t1 = System.nanoTime();
        s.step(3000);
        System.out.printf("idle: %.0f cycles/s%n", 3000 / ((System.nanoTime() - t1) / 1e9));
        s.setActivitySkipping(false);
        long t2 = System.nanoTime();
        s.step(3000);
        System.out.printf("no skipping: %.0f cycles/s%n", 3000 / ((System.nanoTime() - t2) / 1e9));
        s.setActivitySkipping(true);
        long t3 = System.nanoTime();
        s.step(3000);
        System.out.printf("skipping again: %.0f cycles/s%n", 3000 / ((System.nanoTime() - t3) / 1e9));
        var prof = s.profileChunks(300);
        System.out.println(prof.size() + " chunks; running per cycle: " + prof.stream().mapToDouble(x -> x.runsPerCycle()).sum());
        System.out.println("source chars of chunks running every cycle: " + prof.stream().filter(x -> x.runsPerCycle() > 0.99).mapToInt(x -> x.sourceChars()).sum());
    }
}
