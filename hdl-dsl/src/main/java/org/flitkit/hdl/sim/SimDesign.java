package org.flitkit.hdl.sim;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;

/**
 * What every instance of one compiled design shares: the circuit, the slot maps, the model class
 * and the initial contents of its state; an instance adds only its own state arrays (memories only once written).
 */
final class SimDesign {
    final Circuit circuit;
    final SimCompiler.Result compiled;
    final Map<String, Bits> byPath = new HashMap<>();
    /** top-level inputs and their slots: poke checks and stores with one lookup */
    final Map<Bits, Integer> inputs = new IdentityHashMap<>();
    /** chunks that read each top-level input: woken when a poke changes it */
    final Map<Bits, long[]> readers = new IdentityHashMap<>();
    /** slot of each signal peeked so far (resolving a wire to its driver's storage is done once) */
    final Map<Bits, Integer> slots = new java.util.concurrent.ConcurrentHashMap<>();
    /** per flag word, the chunks that may be raised while the design is quiet (counter steps) */
    final long[] quietMask;
    final long[][] counterSteps;
    final long[][] counterMatches;
    final boolean sleepable;

    /** initial memory contents (declared images, else zeros), built once; every new instance shares its arrays */
    private Memories memoryImages;

    synchronized Memories memoryImages() {
        if (memoryImages == null) {
            memoryImages = Memories.initialImages(circuit.netlist().mems());
        }
        return memoryImages;
    }

    SimDesign(Circuit circuit, SimCompiler.Result compiled) {
        this.circuit = circuit;
        this.compiled = compiled;
        SimPlan plan = compiled.plan();
        for (Bits b : circuit.netlist().namedSignals()) {
            byPath.put(b.path(), b);
        }
        for (Bits b : circuit.netlist().inputs()) {
            inputs.put(b, plan.slots().slot(b));
            readers.put(b, plan.inputReaders().get(b));
        }
        quietMask = plan.quietMask();
        counterSteps = plan.counterSteps();
        counterMatches = plan.counterMatches();
        sleepable = plan.sleepable();
    }
}
