package org.flitkit.fabric;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.sim.Simulator;

/**
 * One top-level chip instance of a {@link Fabric}: its simulator, the channel ends on its ports, and
 * whether it sleeps. A chip sleeps from the cycle after a step that left it {@link Simulator#quiet()};
 * whatever changes one of its inputs wakes it, after it caught up with {@link Simulator#skipQuiet}, and so does
 * its alarm: the next tick of one of its timers ({@link Simulator#quietFor()}).
 */
public final class Chip {
    final Fabric fabric;
    final int index;
    final String name;
    final Simulator sim;
    final List<ChipOutput> outputs = new ArrayList<>();
    final List<ChipInput> inputs = new ArrayList<>();
    final List<Channel> channels = new ArrayList<>();
    /** wires leaving this chip: sampled whenever it is evaluated */
    final List<WireChannel> wireOuts = new ArrayList<>();
    /** inputs a channel drives: hosts may not poke them */
    final Set<Bits> driven = Collections.newSetFromMap(new IdentityHashMap<>());
    /** the last value a host poked into each input, so that an unchanged poke does not wake the chip */
    final Map<Bits, Long> hostPokes = new IdentityHashMap<>();
    final Map<Bits, long[]> hostWidePokes = new IdentityHashMap<>();
    boolean awake = true;
    /** dumping waves: never sleeps */
    boolean keepAwake;
    /** set by {@link #evaluate}: the step left the chip quiet */
    boolean quietAfterStep;
    /** set with {@link #quietAfterStep}: the cycle a timer's tick wakes the sleeping chip ({@link Simulator#quietFor()}) */
    long alarm = Host.NEVER;
    long evaluations;

    Chip(Fabric fabric, int index, String name, Simulator sim) {
        this.fabric = fabric;
        this.index = index;
        this.name = name;
        this.sim = sim;
    }

    public String name() {
        return name;
    }

    public int index() {
        return index;
    }

    /**
     * The chip's simulator, for reading handles and, after {@link Fabric#sync()}, its state. Pokes and
     * steps must go through the fabric, which would not see them otherwise.
     */
    public Simulator sim() {
        return sim;
    }

    /** Cycles this chip was evaluated in (the others it slept through). */
    public long evaluations() {
        return evaluations;
    }

    public boolean sleeping() {
        return !awake;
    }

    /** Its inputs are about to change: catch up with the cycles slept through and evaluate from now on. */
    void wake() {
        if (!awake) {
            sim.skipQuiet(fabric.inputCycle - sim.cycle());
            awake = true;
            fabric.awake.set(index);
        }
    }

    /** One cycle: sample every port a channel watches (this settles the chip), then the clock edge. */
    void evaluate(boolean maySleep) {
        for (ChipOutput o : outputs) {
            o.sample();
        }
        for (ChipInput i : inputs) {
            i.sample();
        }
        for (WireChannel w : wireOuts) {
            w.sample(sim.cycle());
        }
        sim.step();
        evaluations++;
        long cycles = maySleep && !keepAwake ? sim.quietFor() : 0;
        quietAfterStep = cycles > 0;
        if (quietAfterStep) {
            alarm = cycles >= Host.NEVER - sim.cycle() ? Host.NEVER : sim.cycle() + cycles;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
