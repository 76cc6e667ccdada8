package org.flitkit.tools.difftest;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs emitted Verilog under another simulator with a per-cycle stimulus and returns every output on
 * every cycle. Protocol per cycle: set inputs (reset high in cycle 0 only), settle, sample outputs,
 * then one rising clock edge. Our simulator follows the same protocol in {@link DiffRunner}.
 */
public interface ReferenceSim {
    /** Tool name as used on the command line ({@code verilator}, {@code iverilog}). */
    String name();

    /**
     * @param dir work directory (Verilog files already written there)
     * @param files Verilog sources
     * @param top top module, with {@code clk} and {@code reset} when clocked
     * @param stimulus per cycle, one value per input port in {@code ports} order
     * @return per cycle, one value per output port in {@code ports} order
     */
    List<BigInteger[]> run(Path dir, List<Path> files, String top, boolean clocked, List<Port> ports, List<BigInteger[]> stimulus);

    static ReferenceSim byName(String name) {
        return switch (name) {
            case "verilator" -> new VerilatorSim();
            case "iverilog", "icarus" -> new IcarusSim();
            default -> throw new IllegalArgumentException("unknown reference simulator '" + name + "' (use verilator or iverilog)");
        };
    }
}
