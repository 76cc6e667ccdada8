package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FsmTest {
    enum Rx { IDLE, HEADER, PAYLOAD, DONE, ERROR }

    /** Receives a header beat, {@code len} payload beats, then reports done; a stray start is an error. */
    static final class Receiver extends Module {
        final Bool start = input(Bool());
        final Bool beat = input(Bool());
        final UInt len = input(UInt(4));
        final Bool busy = output(Bool());
        final Bool done = output(Bool());
        final Fsm<Rx> fsm = new Fsm<>(Rx.class).named("rx");
        final UInt left = regInit(UInt(4), 0);

        Receiver() {
            fsm.on(Rx.IDLE, () -> when(start, () -> fsm.goTo(Rx.HEADER)))
                    .on(Rx.HEADER, () -> when(beat, () -> {
                        left.assign(len);
                        fsm.goTo(Rx.PAYLOAD);
                    }))
                    .on(Rx.PAYLOAD, () -> {
                        when(start, () -> fsm.goTo(Rx.ERROR))
                                .elsewhen(beat, () -> {
                                    left.assign(left.sub(1));
                                    when(left.eq(1), () -> fsm.goTo(Rx.DONE));
                                });
                    })
                    .otherwise(() -> fsm.goTo(Rx.IDLE));
            busy.assign(fsm.is(Rx.HEADER).or(fsm.is(Rx.PAYLOAD)));
            done.assign(fsm.is(Rx.DONE));
        }
    }

    @Test
    void transitionsCycleByCycle(@TempDir Path dir) {
        Simulator sim = Simulator.of(Receiver::new);
        Receiver r = (Receiver) sim.circuit().top();
        Path vcd = dir.resolve("fsm.vcd");
        sim.startVcd(vcd);
        sim.reset();
        List<String> trace = new ArrayList<>();
        // cycle inputs: start, beat, len
        int[][] stim = {
            {0, 0, 0}, {1, 0, 0}, {0, 0, 0}, {0, 1, 3}, {0, 1, 0}, {0, 0, 0}, {0, 1, 0}, {0, 1, 0}, {0, 0, 0},
            {1, 0, 0}, {0, 1, 5}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}, {0, 0, 0},
        };
        for (int[] s : stim) {
            sim.poke(r.start, s[0]);
            sim.poke(r.beat, s[1]);
            sim.poke(r.len, s[2]);
            trace.add(r.fsm.nameOf(sim.peek(r.fsm.state)));
            assertThat(sim.peekBool(r.busy)).isEqualTo(trace.get(trace.size() - 1).matches("HEADER|PAYLOAD"));
            assertThat(sim.peekBool(r.done)).isEqualTo(trace.get(trace.size() - 1).equals("DONE"));
            sim.step();
        }
        sim.stopVcd();
        assertThat(trace).containsExactly("IDLE", "IDLE", "HEADER", "HEADER", "PAYLOAD", "PAYLOAD", "PAYLOAD",
                "PAYLOAD", "DONE", "IDLE", "HEADER", "PAYLOAD", "PAYLOAD", "ERROR", "IDLE");
        // the state register is in the dump under its name, with the ordinal encoding
        VcdReader.Signal st = VcdReader.read(vcd).signal("receiver.rx");
        assertThat(st.width()).isEqualTo(3);
        assertThat(r.fsm.decode(st.valueAt(sim.cycle() * 10_000 - 20_000).longValue())).isEqualTo(Rx.ERROR);
    }

    @Test
    void encodingIsTheOrdinalAndFilterNamesEveryState(@TempDir Path dir) throws Exception {
        Simulator sim = Simulator.of(Receiver::new);
        Receiver r = (Receiver) sim.circuit().top();
        assertThat(r.fsm.state.path()).isEqualTo("receiver.rx");
        assertThat(Fsm.code(Rx.PAYLOAD)).isEqualTo(2);
        assertThat(r.fsm.decode(4)).isEqualTo(Rx.ERROR);
        assertThat(r.fsm.nameOf(7)).isEqualTo("?7");
        assertThat(r.fsm.gtkwaveFilter()).isEqualTo("0 IDLE\n1 HEADER\n2 PAYLOAD\n3 DONE\n4 ERROR\n");
        Path f = dir.resolve("rx.txt");
        r.fsm.writeGtkwaveFilter(f);
        assertThat(java.nio.file.Files.readAllLines(f)).hasSize(5).contains("2 PAYLOAD");
    }

    enum Two { OFF, ON }

    static final class Toggle extends Module {
        final Bool flip = input(Bool());
        final Bool on = output(Bool());
        final Fsm<Two> fsm = new Fsm<>(Two.class, Two.ON);

        Toggle() {
            when(flip, () -> {
                when(fsm.is(Two.ON), () -> fsm.goTo(Two.OFF)).otherwise(() -> fsm.goTo(Two.ON));
            });
            on.assign(fsm.is(Two.ON));
        }
    }

    @Test
    void explicitInitialStateAndPlainWhenTransitions() {
        Simulator sim = Simulator.of(Toggle::new);
        Toggle t = (Toggle) sim.circuit().top();
        sim.reset();
        assertThat(sim.peek("toggle.state")).isEqualTo(1);
        assertThat(sim.peekBool(t.on)).isTrue();
        sim.poke(t.flip, 1);
        sim.step();
        assertThat(sim.peekBool(t.on)).isFalse();
        sim.step();
        assertThat(sim.peekBool(t.on)).isTrue();
        sim.poke(t.flip, 0);
        sim.step(3);
        assertThat(sim.peekBool(t.on)).isTrue();
    }
}
