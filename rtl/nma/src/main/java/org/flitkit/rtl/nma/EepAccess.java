package org.flitkit.rtl.nma;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.BODY2;
import static org.flitkit.hdl.Hdl.*;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Responses;

/**
 * {@code eep_access} (spec 20-th2-management.md, "NMA submodules"; docs/th2-eeprom.md, "EepAccess"): runs
 * the 1..6 byte accesses of an E2PROM request through its {@link I2cMaster} (random read; byte write plus
 * acknowledge polling) and answers via {@link Responses}; lends the master to the {@link BootLoader} at boot.
 */
public final class EepAccess extends Module {
    private static final PayloadLayouts.EepromAccess L = PayloadLayouts.EEPROM;

    enum State { IDLE, CHECK, CMD, WAIT, STOPPING, RESPOND }

    public final Decoupled<UInt> req = input(PacketWords.packetStream());
    public final Decoupled<UInt> rsp = output(PacketWords.packetStream());
    /** This chip's ID (the SrcID of responses). */
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    /** The I2C pins to the E2PROM. */
    public final I2cPins pins = output(new I2cPins());
    /** The boot loader owns the I2C master. */
    public final Bool bootActive = input(Bool());
    public final Decoupled<I2cMaster.Cmd> bootCmd = input(Decoupled.of(I2cMaster.Cmd::new));
    public final Decoupled<I2cMaster.Rsp> bootRsp = output(Decoupled.of(I2cMaster.Rsp::new));
    public final Bool bootAbort = input(Bool());
    /** A request is being executed. */
    public final Bool busy = output(Bool());

    public final EepParams params;
    public final ChipType chip;

    private final I2cMaster i2c;
    private final Fsm<State> fsm = new Fsm<>(State.class);
    private final UInt request = regInit(UInt(Th2.PACKET_BITS), 0);
    /** current access 0..5 and its step in the I2C sequence */
    private final UInt idx = regInit(UInt(3), 0);
    private final UInt step = regInit(UInt(4), 0);
    private final UInt readBytes = regInit(UInt(48), 0);
    private final Bool isError = regInit(Bool(), 0);
    private final UInt errCode = regInit(UInt(ErrorCode.BITS), 0);
    private final UInt errIndex = regInit(UInt(3), 0);
    private final UInt watchdog;
    private final Bool timedOut;
    private final Bool cmdValid = wireDefault(Bool(), 0);
    private final UInt cmdOp = wireDefault(UInt(2), 0);
    private final UInt cmdData = wireDefault(UInt(8), 0);
    private final Bool cmdAck = wireDefault(Bool(), 0);
    private final Bool rspReady = wireDefault(Bool(), 0);
    private final Bool abortOwn = wireDefault(Bool(), 0);

    public EepAccess(EepParams p, ChipType chip) {
        this.params = p;
        this.chip = chip;
        i2c = instance(new I2cMaster(p));
        pins.sclOe.assign(i2c.pins.sclOe);
        pins.sdaOe.assign(i2c.pins.sdaOe);
        i2c.pins.scl.assign(pins.scl);
        i2c.pins.sda.assign(pins.sda);

        // ---- the I2C master: the boot loader's while bootActive, ours afterwards
        i2c.cmd.valid.assign(mux(bootActive, bootCmd.valid, cmdValid));
        i2c.cmd.bits.op.assign(mux(bootActive, bootCmd.bits.op, cmdOp));
        i2c.cmd.bits.data.assign(mux(bootActive, bootCmd.bits.data, cmdData));
        i2c.cmd.bits.ack.assign(mux(bootActive, bootCmd.bits.ack, cmdAck));
        bootCmd.ready.assign(bootActive.and(i2c.cmd.ready));
        i2c.rsp.ready.assign(mux(bootActive, bootRsp.ready, rspReady));
        bootRsp.valid.assign(bootActive.and(i2c.rsp.valid));
        bootRsp.bits.data.assign(i2c.rsp.bits.data);
        bootRsp.bits.ack.assign(i2c.rsp.bits.ack);
        i2c.abort.assign(mux(bootActive, bootAbort, abortOwn));
        Bool ownCmdFire = cmdValid.and(i2c.cmd.ready).and(bootActive.not());
        Bool ownRspFire = rspReady.and(i2c.rsp.valid).and(bootActive.not());

        // ---- request decoding (from the latched packet)
        UInt nmp = LayoutBits.get(request, BODY2.NMP_DATA);
        UInt rawType = LayoutBits.get(request, BODY1.NMP_TYPE);
        Bool isRead = rawType.eq(NmpType.EEP_READ_REQ.code());
        Bool isWrite = rawType.eq(NmpType.EEP_WRITE_REQ.code());
        UInt count = LayoutBits.get(nmp, L.COUNT);
        Bool badCount = count.eq(0).or(count.gt(Th2.MAX_EEPROM_BYTES));
        Bool resv = LayoutBits.reservedSet(nmp, L.layout());
        List<UInt> addrs = new ArrayList<>();
        List<UInt> bytes = new ArrayList<>();
        for (int i = 0; i < Th2.MAX_EEPROM_BYTES; i++) {
            UInt a = LayoutBits.get(nmp, L.addr(i));
            UInt b = LayoutBits.get(nmp, L.data(i));
            Bool used = count.gt(i);
            resv = resv.or(used.not().and(a.orR())).or(used.not().or(isRead).and(b.orR()));
            addrs.add(a);
            bytes.add(b);
        }
        Bool reserved = resv;
        UInt addr = vecOf(addrs).at(idx);
        UInt wbyte = vecOf(bytes).at(idx);
        Bool lastAccess = idx.add(1).eq(count);

        // ---- the I2C sequence of one byte access
        int dev = p.deviceAddress() << 1;
        Bool lastStep = mux(isWrite, step.eq(8), step.eq(7));
        when(isWrite, () -> switchOn(step)
                .is(0, () -> cmdOp.assign(I2cMaster.OP_START))
                .is(1, () -> write(dev))
                .is(2, () -> write(addr.bits(15, 8)))
                .is(3, () -> write(addr.bits(7, 0)))
                .is(4, () -> write(wbyte))
                .is(5, () -> cmdOp.assign(I2cMaster.OP_STOP))
                .is(6, () -> cmdOp.assign(I2cMaster.OP_START))
                .is(7, () -> write(dev))
                .otherwise(() -> cmdOp.assign(I2cMaster.OP_STOP)))
            .otherwise(() -> switchOn(step)
                .is(0, () -> cmdOp.assign(I2cMaster.OP_START))
                .is(1, () -> write(dev))
                .is(2, () -> write(addr.bits(15, 8)))
                .is(3, () -> write(addr.bits(7, 0)))
                .is(4, () -> cmdOp.assign(I2cMaster.OP_START))
                .is(5, () -> write(dev | 1))
                .is(6, () -> cmdOp.assign(I2cMaster.OP_READ))
                .otherwise(() -> cmdOp.assign(I2cMaster.OP_STOP)));
        when(fsm.is(State.STOPPING), () -> cmdOp.assign(I2cMaster.OP_STOP));

        // ---- watchdog per byte access
        long limit = p.timeoutCycles();
        watchdog = regInit(UInt(Bitwise.log2Up(limit + 1)), 0);
        Bool running = fsm.is(State.CMD).or(fsm.is(State.WAIT)).or(fsm.is(State.STOPPING));
        timedOut = running.and(watchdog.ge(limit));
        when(running, () -> watchdog.assign(watchdog.add(1)));

        // ---- control
        req.ready.assign(fsm.is(State.IDLE));
        busy.assign(fsm.is(State.IDLE).not());
        fsm.on(State.IDLE, () -> when(req.fire(), () -> {
            request.assign(req.bits);
            fsm.goTo(State.CHECK);
        })).on(State.CHECK, () -> {
            idx.assign(0);
            step.assign(0);
            readBytes.assign(0);
            watchdog.assign(0);
            isError.assign(TRUE());
            errIndex.assign(PayloadLayouts.WHOLE_REQUEST);
            fsm.goTo(State.RESPOND);
            when(isRead.or(isWrite).not(), () -> errCode.assign(ErrorCode.BAD_TYPE.code()))
                .elsewhen(badCount, () -> errCode.assign(ErrorCode.BAD_COUNT.code()))
                .elsewhen(reserved, () -> errCode.assign(ErrorCode.RESERVED_NOT_ZERO.code()))
                .elsewhen(bootActive, () -> errCode.assign(ErrorCode.EEPROM_BUSY.code()))
                .otherwise(() -> {
                    isError.assign(FALSE());
                    fsm.goTo(State.CMD);
                });
        }).on(State.CMD, () -> {
            cmdValid.assign(TRUE());
            when(ownCmdFire, () -> fsm.goTo(State.WAIT));
        }).on(State.WAIT, () -> {
            rspReady.assign(TRUE());
            when(ownRspFire, () -> {
                Bool nack = cmdOp.eq(I2cMaster.OP_WRITE).and(i2c.rsp.bits.ack.not());
                Bool polling = isWrite.and(step.eq(7));
                fsm.goTo(State.CMD);
                when(nack.and(polling), () -> step.assign(6))
                    .elsewhen(nack, () -> {
                        isError.assign(TRUE());
                        errCode.assign(ErrorCode.EEPROM_NACK.code());
                        errIndex.assign(idx);
                        fsm.goTo(State.STOPPING);
                    })
                    .elsewhen(lastStep, () -> {
                        step.assign(0);
                        watchdog.assign(0);
                        idx.assign(idx.add(1));
                        when(lastAccess, () -> fsm.goTo(State.RESPOND));
                    })
                    .otherwise(() -> step.assign(step.add(1)));
                when(cmdOp.eq(I2cMaster.OP_READ), () -> readBytes.assign(readBytes.or(
                        i2c.rsp.bits.data.pad(48).shlTrunc(cat(idx, lit(0, 3))))));
            });
        }).on(State.STOPPING, () -> {
            cmdValid.assign(TRUE());
            rspReady.assign(TRUE());
            when(ownRspFire, () -> fsm.goTo(State.RESPOND));
        });
        when(timedOut, () -> {
            abortOwn.assign(TRUE());
            isError.assign(TRUE());
            errCode.assign(ErrorCode.EEPROM_TIMEOUT.code());
            errIndex.assign(idx);
            fsm.goTo(State.RESPOND);
        });

        // ---- the response: request NMPData with the data bytes replaced (read) or cleared (write)
        UInt okData = cat(nmp.bits(191, 48), mux(isRead, readBytes, lit(0, 48)));
        UInt type = mux(isError, Responses.errorType(rawType), Responses.responseType(request));
        UInt data = mux(isError, Responses.errorData(request, errCode, errIndex), okData);
        rsp.valid.assign(fsm.is(State.RESPOND));
        rsp.bits.assign(Responses.response(request, chip, chipId, type, data));
        when(rsp.fire(), () -> fsm.goTo(State.IDLE));
    }

    private void write(long value) {
        write(lit(value, 8));
    }

    private void write(UInt value) {
        cmdOp.assign(I2cMaster.OP_WRITE);
        cmdData.assign(value);
    }
}
