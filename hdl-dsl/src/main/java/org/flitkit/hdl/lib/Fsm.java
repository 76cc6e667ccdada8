package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Hdl;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * A finite state machine over a Java enum: one state register, named {@code state} unless
 * {@link #named} says otherwise, reset to the initial state and binary-encoded by the constants'
 * ordinals (stable as long as the enum's order is). Write transitions with {@link #goTo} inside
 * {@code when} blocks or {@link #on}; read the state with {@link #is}. {@link #nameOf} and
 * {@link #gtkwaveFilter()} turn register values back into state names for testbenches and waveforms;
 * the filter is registered with the module ({@code Hdl.waveFilter}), so GTKWave save files written by the
 * testbench show state names without further code.
 */
public final class Fsm<S extends Enum<S>> {
    /** The state register. */
    public final UInt state;
    private final S[] states;

    /** A machine starting in the first constant of {@code type}. */
    public Fsm(Class<S> type) {
        this(type, type.getEnumConstants()[0]);
    }

    public Fsm(Class<S> type, S initial) {
        states = type.getEnumConstants();
        state = regInit(UInt(Bitwise.log2Up(states.length)), code(initial)).named("state");
        // save files written for a dump of this design show the state names
        waveFilter(state, gtkwaveFilter());
    }

    /** The encoding of {@code s}: its ordinal. */
    public static long code(Enum<?> s) {
        return s.ordinal();
    }

    /** High while the machine is in {@code s}. */
    public Bool is(S s) {
        return state.eq(code(s));
    }

    /** Moves to {@code s} on the next clock edge (under the enclosing when conditions; last call wins). */
    public void goTo(S s) {
        state.assign(lit(code(s), state.width()));
    }

    /** Runs {@code body} as the logic of state {@code s}; continue with further {@code on(...)} calls. */
    public Cases on(S s, Runnable body) {
        return new Cases(switchOn(state)).on(s, body);
    }

    /** A chain of per-state blocks (Chisel's {@code switch(state) { is(...) }}). */
    public final class Cases {
        private final Hdl.Switch sw;

        private Cases(Hdl.Switch sw) {
            this.sw = sw;
        }

        public Cases on(S s, Runnable body) {
            sw.is(code(s), body);
            return this;
        }

        /** Logic for every state not listed. */
        public void otherwise(Runnable body) {
            sw.otherwise(body);
        }
    }

    /** The state a register value stands for (e.g. from {@code sim.peek(fsm.state)}). */
    public S decode(long value) {
        if (value < 0 || value >= states.length) {
            throw new HdlException("state value " + value + " is not one of " + Arrays.toString(states));
        }
        return states[(int) value];
    }

    public String nameOf(long value) {
        return value >= 0 && value < states.length ? states[(int) value].name() : "?" + value;
    }

    /**
     * A GTKWave translate filter (Edit > Data Format > Translate Filter File) that shows state names:
     * one line per state, the value in GTKWave's default hex display, then the name.
     */
    public String gtkwaveFilter() {
        int digits = (state.width() + 3) / 4;
        StringBuilder sb = new StringBuilder();
        for (S s : states) {
            String hex = Long.toHexString(code(s)).toUpperCase();
            sb.append("0".repeat(digits - hex.length())).append(hex).append(' ').append(s.name()).append('\n');
        }
        return sb.toString();
    }

    public void writeGtkwaveFilter(Path file) {
        try {
            Files.writeString(file, gtkwaveFilter());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Names the state register for waveforms and Verilog. */
    public Fsm<S> named(String name) {
        state.named(name);
        return this;
    }
}
