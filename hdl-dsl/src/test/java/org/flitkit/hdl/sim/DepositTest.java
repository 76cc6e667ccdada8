package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/** A deposit sets a register's value for this cycle's logic; the register then follows its own next-state logic. */
class DepositTest {
    static final class Configured extends Module {
        final UInt step = input(UInt(4));
        final UInt id = regInit(UInt(16), 0xFFFF).named("id");
        final UInt sum = regInit(UInt(16), 0).named("sum");
        final UInt idPlusOne = output(UInt(16));
        final UInt wide = regInit(UInt(100), 0).named("wide");

        Configured() {
            sum.assign(sum.add(step.pad(16)).trunc(16));
            idPlusOne.assign(id.add(1).trunc(16));
            wide.assign(wide);
        }
    }

    @Test
    void aDepositedValueIsSeenAtOnceAndKeptByTheRegistersOwnLogic() {
        Simulator booted = Simulator.of(Configured::new);
        booted.reset();
        booted.step(5);
        Configured c = (Configured) booted.circuit().top();
        Simulator a = booted.fork();
        Simulator b = booted.fork();
        a.deposit(c.id, 0x0042);
        b.deposit(c.id, 0x1234);
        assertThat(a.peek(c.idPlusOne)).isEqualTo(0x43);
        assertThat(b.peek(c.idPlusOne)).isEqualTo(0x1235);
        assertThat(booted.peek(c.idPlusOne)).as("the fork it came from keeps 0xFFFF (plus one wraps)").isZero();
        // sum follows its logic from the deposited value
        a.poke(c.step, 3);
        a.deposit(c.sum, 100);
        a.step(2);
        assertThat(a.peek(c.sum)).isEqualTo(106);
        assertThat(a.peek(c.id)).isEqualTo(0x42);
        assertThatThrownBy(() -> a.deposit(c.step, 1)).hasMessageContaining("step is not a narrow register (INPUT");
        assertThatThrownBy(() -> a.deposit(c.wide, 1)).hasMessageContaining("wide is not a narrow register (REG, 100 bits)");
        assertThatThrownBy(() -> a.deposit(c.id, 0x10000)).hasMessageContaining("value 65536 does not fit 16-bit register");
    }
}
