package org.flitkit.rtl.nrc;

import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

class GenDump {
    @Test
    void dump() throws Exception {
        Simulator sim = Simulator.of(() -> new RelayStation(3));
        Files.writeString(Path.of("target/relay-gen.java"), sim.generatedSource());
        sim = Simulator.of(PortIngress::new);
        Files.writeString(Path.of("target/ingress-gen.java"), sim.generatedSource());
    }
}
