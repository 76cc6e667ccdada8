package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;

/**
 * Bit-level I2C master of {@code eep_access} (spec 20-th2-management.md, "NMA submodules"; timing in
 * docs/th2-eeprom.md): START/STOP/WRITE/READ commands over valid/ready, one response each, 5 ticks of a
 * clock-enable divider per SCL period, open-drain pins, clock stretching and abort.
 */
public final class I2cMaster extends Module {
    public static final int OP_START = 0;
    public static final int OP_STOP = 1;
    public static final int OP_WRITE = 2;
    public static final int OP_READ = 3;

    /** A command: START (repeated START when the bus is held), STOP, WRITE {@code data}, READ a byte. */
    public static final class Cmd extends Bundle {
        public final UInt op = UInt(2);
        /** WRITE: the byte to send, MSB first. */
        public final UInt data = UInt(8);
        /** READ: 1 = acknowledge the byte (more will be read), 0 = NACK it (last byte). */
        public final Bool ack = Bool();
    }

    /** The response to every command. */
    public static final class Rsp extends Bundle {
        /** READ: the byte received. */
        public final UInt data = UInt(8);
        /** WRITE: the slave acknowledged (pulled SDA low during the 9th clock). */
        public final Bool ack = Bool();
    }

    enum State { IDLE, RUN, RESP }

    public final Decoupled<Cmd> cmd = input(Decoupled.of(Cmd::new));
    public final Decoupled<Rsp> rsp = output(Decoupled.of(Rsp::new));
    /** Drops any command in progress and releases both lines at once. */
    public final Bool abort = input(Bool());
    public final I2cPins pins = output(new I2cPins());
    /** The master owns the bus: between a START and its STOP. */
    public final Bool held = output(Bool());
    /** A command is in progress or its response is waiting. */
    public final Bool busy = output(Bool());

    public final int tickCycles;

    private final Fsm<State> fsm = new Fsm<>(State.class);
    private final UInt op = regInit(UInt(2), 0);
    private final UInt shift = regInit(UInt(8), 0);
    private final Bool sendAck = regInit(Bool(), 0);
    private final Bool ackIn = regInit(Bool(), 0);
    /** phase (tick) inside the current bit, START or STOP */
    private final UInt ph = regInit(UInt(3), 0);
    /** bit of a byte command: 0..7 data, 8 acknowledge */
    private final UInt bitIdx = regInit(UInt(4), 0);
    private final UInt div;
    private final Bool holding = regInit(Bool(), 0);
    /** SDA level the master drove in the last phase (1 = released) */
    private final Bool sdaLast = regInit(Bool(), 1);
    private final Bool sclRel;
    private final Bool sdaRel;
    private final Bool stretch;
    private final Bool tick;

    public I2cMaster(EepParams p) {
        this(p.tickCycles());
    }

    public I2cMaster(int tickCycles) {
        if (tickCycles < 1) {
            throw new HdlException("I2cMaster tickCycles must be at least 1, got " + tickCycles);
        }
        this.tickCycles = tickCycles;
        div = regInit(UInt(Bitwise.log2Up(tickCycles)), 0);
        Bool running = fsm.is(State.RUN);
        Bool isStart = op.eq(OP_START);
        Bool isStop = op.eq(OP_STOP);
        Bool isWrite = op.eq(OP_WRITE);
        Bool isData = op.bit(1);
        Bool ackSlot = bitIdx.eq(8);
        // the SDA value of the current data bit (1 = released)
        Bool dataBit = mux(ackSlot, mux(isWrite, TRUE(), sendAck.not()), mux(isWrite, shift.bit(7), TRUE()));
        Bool sdaStart = mux(ph.eq(0), sdaLast, ph.le(3));
        Bool sdaStop = mux(ph.eq(0), sdaLast, ph.eq(5));
        Bool sdaData = mux(ph.eq(0), sdaLast, dataBit);
        Bool sclRun = mux(isStart, ph.ge(2).or(holding.not()), mux(isStop, ph.ge(3), ph.ge(3)));
        Bool sdaRun = mux(isStart, sdaStart, mux(isStop, sdaStop, sdaData));
        sclRel = wireDefault(Bool(), holding.not());
        sdaRel = wireDefault(Bool(), sdaLast);
        when(running, () -> {
            sclRel.assign(sclRun);
            sdaRel.assign(sdaRun);
        });
        pins.sclOe.assign(sclRel.not());
        pins.sdaOe.assign(sdaRel.not());
        held.assign(holding);
        busy.assign(fsm.is(State.IDLE).not());

        stretch = sclRel.and(pins.scl.not());
        tick = running.and(stretch.not()).and(div.eq(tickCycles - 1));
        when(running.and(stretch.not()), () -> div.assign(mux(tick, lit(0, div.width()), div.add(1))));
        UInt lastPh = mux(isData, lit(4, 3), lit(5, 3));

        cmd.ready.assign(fsm.is(State.IDLE));
        rsp.valid.assign(fsm.is(State.RESP));
        rsp.bits.data.assign(shift);
        rsp.bits.ack.assign(ackIn);

        when(cmd.fire(), () -> {
            op.assign(cmd.bits.op);
            shift.assign(cmd.bits.data);
            sendAck.assign(cmd.bits.ack);
            ph.assign(0);
            bitIdx.assign(0);
            div.assign(0);
            fsm.goTo(State.RUN);
        });
        when(tick, () -> {
            // sample in the middle of the high part of the clock
            when(ph.eq(3).and(isData), () -> {
                when(ackSlot.and(isWrite), () -> ackIn.assign(pins.sda.not()));
                when(ackSlot.not().and(isWrite.not()), () -> shift.assign(cat(shift.bits(6, 0), pins.sda)));
            });
            when(ph.eq(lastPh), () -> {
                sdaLast.assign(sdaRun);
                ph.assign(0);
                when(isData.and(ackSlot.not()), () -> {
                    bitIdx.assign(bitIdx.add(1));
                    when(isWrite, () -> shift.assign(cat(shift.bits(6, 0), lit(0, 1))));
                }).otherwise(() -> {
                    holding.assign(isStop.not());
                    fsm.goTo(State.RESP);
                });
            }).otherwise(() -> ph.assign(ph.add(1)));
        });
        when(rsp.fire(), () -> fsm.goTo(State.IDLE));
        when(abort, () -> {
            fsm.goTo(State.IDLE);
            holding.assign(FALSE());
            sdaLast.assign(TRUE());
        });
    }
}
