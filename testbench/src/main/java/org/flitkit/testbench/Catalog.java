package org.flitkit.testbench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.bench.RelayChain;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.testbench.demo.ClosedFlitLoopback;
import org.flitkit.testbench.demo.FlitLoopback;
import org.flitkit.testbench.demo.FlitLoopbackBench;
import org.flitkit.testbench.nrc.NrcBootBench;
import org.flitkit.testbench.nrc.NrcEepromBench;
import org.flitkit.testbench.nrc.NrcErrorsBench;
import org.flitkit.testbench.nrc.NrcFaultsBench;
import org.flitkit.testbench.nrc.NrcFiguresBench;
import org.flitkit.testbench.nrc.NrcPortsBench;
import org.flitkit.testbench.nrc.NrcRandomBench;

/**
 * Everything {@code ./hdl} can run or emit, by name. Adding a chip's testbench or design is one line in
 * {@link #standard()}.
 */
public final class Catalog {
    /** Stimulus cycles when {@code --cycles} is not given. */
    public static final long DEFAULT_CYCLES = 20_000;

    public record TestbenchEntry(String name, String description, long defaultCycles, Bench bench) {
    }

    public record DesignEntry(String name, String description, Supplier<? extends Module> top) {
    }

    /** A closed design (no inputs but clock and reset, a 64-bit {@code checksum} output) for {@code ./hdl bench}. */
    public record BenchEntry(String name, String description, Supplier<? extends Module> top, long defaultCycles) {
    }

    private final Map<String, TestbenchEntry> testbenches = new LinkedHashMap<>();
    private final Map<String, DesignEntry> designs = new LinkedHashMap<>();
    private final Map<String, BenchEntry> benches = new LinkedHashMap<>();

    /** The testbenches and designs shipped with FlitKit. */
    public static Catalog standard() {
        return new Catalog()
                .testbench("flit-loopback", "random 198-bit flits through serializer, FIFO and deserializer under random backpressure",
                        FlitLoopbackBench::run)
                .testbench("nrc-ports", "NRC: 1- and 2-register reads and writes from each of the 24 ports; latency by relay-station distance",
                        NrcPortsBench::run)
                .testbench("nrc-eeprom", "NRC: E2PROM writes and reads of 1 to 6 bytes through a port (fast E2PROM timing)",
                        NrcEepromBench::run)
                .testbench("nrc-errors", "NRC: every error path (unmapped, read-only, bad count/type/DestType, reserved, wrong DestID, bad CRC)",
                        NrcErrorsBench::run)
                .testbench("nrc-faults", "NRC: fault reports enabled, masked, disabled; responses before reports under load",
                        NrcFaultsBench::run)
                .testbench("nrc-boot", "NRC: power-up load from an E2PROM image, good and corrupted", NrcBootBench::run)
                .testbench("nrc-random", "NRC: random requests on all 24 ports at once, random timing and backpressure, scoreboarded",
                        5_000, NrcRandomBench::run)
                .testbench("nrc-figures", "NRC: print the figures (RS crossing, latency by port, E2PROM per address at 100 MHz, sim speed)",
                        NrcFiguresBench::run)
                .design("flit-loopback", "FlitLoopback: 198-bit flits over a 20-bit link (serializer, FIFO, deserializer)",
                        FlitLoopback::new)
                .design("nrc", "Nrc: the TH-2 routing chip's management plane (24 relay stations, NMA, E2PROM model)", Nrc::new)
                .design("relay-chain", "RelayChain: 96 two-entry skid buffers between an LFSR source and a summing sink",
                        () -> new RelayChain(96, 20))
                .bench("flit-loopback", "LFSR flits through the flit-loopback link, LFSR backpressure, folded checksum",
                        ClosedFlitLoopback::new, 2_000_000)
                .bench("relay-chain", "96 x 20-bit two-entry skid buffers, LFSR source and LFSR backpressure, summing sink",
                        () -> new RelayChain(96, 20), 2_000_000);
    }

    public Catalog testbench(String name, String description, Bench bench) {
        return testbench(name, description, DEFAULT_CYCLES, bench);
    }

    public Catalog testbench(String name, String description, long defaultCycles, Bench bench) {
        put(testbenches, name, new TestbenchEntry(name, description, defaultCycles, bench), "testbench");
        return this;
    }

    public Catalog design(String name, String description, Supplier<? extends Module> top) {
        put(designs, name, new DesignEntry(name, description, top), "design");
        return this;
    }

    public Catalog bench(String name, String description, Supplier<? extends Module> top, long defaultCycles) {
        put(benches, name, new BenchEntry(name, description, top, defaultCycles), "benchmark");
        return this;
    }

    public List<BenchEntry> benches() {
        return List.copyOf(benches.values());
    }

    public Optional<BenchEntry> bench(String name) {
        return Optional.ofNullable(benches.get(name));
    }

    public List<TestbenchEntry> testbenches() {
        return List.copyOf(testbenches.values());
    }

    public List<DesignEntry> designs() {
        return List.copyOf(designs.values());
    }

    public Optional<TestbenchEntry> testbench(String name) {
        return Optional.ofNullable(testbenches.get(name));
    }

    public Optional<DesignEntry> design(String name) {
        return Optional.ofNullable(designs.get(name));
    }

    private static <E> void put(Map<String, E> map, String name, E entry, String what) {
        if (!name.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException(what + " name '" + name + "' must be lower-case letters, digits and '-'");
        }
        if (map.putIfAbsent(name, entry) != null) {
            throw new IllegalArgumentException("two " + what + "s named '" + name + "'");
        }
    }
}
