package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.formats.th2.Crc32c;
import org.flitkit.rtl.nma.hw.RegBus;

/**
 * Power-up configuration load from the E2PROM (spec 20-th2-management.md, "NMA submodules"; image format
 * in docs/th2-eeprom.md, "Boot image"): a checking pass (magic, count, addresses, CRC-32C), then a pass that
 * writes the records over the {@link RegBus}, so a bad image leaves every register at its reset value.
 */
public final class BootLoader extends Module {
    /** Image magic, bytes 0..3: "TH2C". */
    public static final byte[] MAGIC = {'T', 'H', '2', 'C'};
    public static final int HEADER_BYTES = 6;
    public static final int RECORD_BYTES = 10;
    public static final int CRC_BYTES = 4;
    /** Most records a 64 KB E2PROM holds: (65536 - 10) / 10. */
    public static final int MAX_RECORDS = (I2cEeprom.SIZE - HEADER_BYTES - CRC_BYTES) / RECORD_BYTES;

    /** {@code bootStatus} codes. */
    public static final int OK = 0;
    public static final int ERR_NACK = 1;
    public static final int ERR_TIMEOUT = 2;
    public static final int ERR_MAGIC = 3;
    public static final int ERR_COUNT = 4;
    public static final int ERR_ADDRESS = 5;
    public static final int ERR_CRC = 6;
    public static final int ERR_REGISTER = 7;

    enum State { SETUP_CMD, SETUP_WAIT, READ_CMD, READ_WAIT, REG_WRITE, DRAIN_CMD, DRAIN_WAIT, STOP_CMD, STOP_WAIT, FINISH, DONE }

    /** I2C commands to the master in {@link EepAccess} (its boot port). */
    public final Decoupled<I2cMaster.Cmd> i2cCmd = output(Decoupled.of(I2cMaster.Cmd::new));
    public final Decoupled<I2cMaster.Rsp> i2cRsp = input(Decoupled.of(I2cMaster.Rsp::new));
    public final Bool i2cAbort = output(Bool());
    /** Register writes (master side; through a {@link RegBusArbiter} to the register file). */
    public final RegBus reg;
    /** High from reset until the load ends: the boot loader owns the I2C master and the register bus. */
    public final Bool booting = output(Bool());
    public final Bool bootDone = output(Bool());
    public final Bool bootError = output(Bool());
    /** Why the load failed (0 = OK, see the ERR_ constants). */
    public final UInt bootStatus = output(UInt(3));
    /** Registers written so far (for testbenches and status). */
    public final UInt written = output(UInt(16));

    public final EepParams params;
    public final int addrBits;
    public final int imageBase;
    public final int maxRecords;

    private final Fsm<State> fsm = new Fsm<>(State.class);
    /** 0 = check pass, 1 = load pass */
    private final Bool pass = regInit(Bool(), 0);
    private final UInt step = regInit(UInt(3), 0);
    private final UInt pos = regInit(UInt(17), 0);
    private final UInt recPos = regInit(UInt(4), 0);
    private final UInt count = regInit(UInt(16), 0);
    private final Bool magicOk = regInit(Bool(), 1);
    private final UInt crc = regInit(UInt(32), 0xFFFFFFFFL);
    private final UInt storedCrc = regInit(UInt(32), 0);
    private final UInt rec = regInit(UInt(80), 0);
    private final Bool lastRead = regInit(Bool(), 0);
    private final UInt status = regInit(UInt(3), 0);
    private final UInt writtenCount = regInit(UInt(16), 0);
    private final UInt watchdog;

    public BootLoader(EepParams p, int addrBits) {
        this(p, addrBits, 0, MAX_RECORDS);
    }

    /**
     * @param imageBase  E2PROM byte address of the image
     * @param maxRecords largest record count accepted (at most what fits the E2PROM after the base)
     */
    public BootLoader(EepParams p, int addrBits, int imageBase, int maxRecords) {
        int fit = (I2cEeprom.SIZE - imageBase - HEADER_BYTES - CRC_BYTES) / RECORD_BYTES;
        if (imageBase < 0 || fit < 0 || maxRecords < 0 || maxRecords > fit) {
            throw new HdlException("boot image at 0x" + Integer.toHexString(imageBase) + " holds at most " + fit
                    + " records, asked for " + maxRecords);
        }
        if (addrBits < 1 || addrBits > 16) {
            throw new HdlException("register address width " + addrBits + " must be 1..16");
        }
        this.params = p;
        this.addrBits = addrBits;
        this.imageBase = imageBase;
        this.maxRecords = maxRecords;
        reg = output(new RegBus(addrBits));
        int dev = p.deviceAddress() << 1;

        // ---- image geometry: total bytes of the pass and the last one (read with NACK)
        UInt dataBytes = count.mul(lit(RECORD_BYTES, 4));
        UInt total = mux(pass, dataBytes, dataBytes.add(HEADER_BYTES + CRC_BYTES));
        UInt crcStart = dataBytes.add(HEADER_BYTES);
        Bool isLast = pos.add(1).eq(total).and(pass.or(pos.ge(HEADER_BYTES)));
        Bool inRecords = pass.or(pos.ge(HEADER_BYTES).and(pos.lt(crcStart)));
        Bool crcCovered = pass.not().and(pos.lt(crcStart));

        // ---- I2C commands
        UInt start = mux(pass, lit(imageBase + HEADER_BYTES, 16), lit(imageBase, 16));
        i2cCmd.valid.assign(FALSE());
        i2cCmd.bits.op.assign(I2cMaster.OP_STOP);
        i2cCmd.bits.data.assign(0);
        i2cCmd.bits.ack.assign(FALSE());
        i2cRsp.ready.assign(FALSE());
        i2cAbort.assign(FALSE());
        reg.read.assign(FALSE());
        reg.write.assign(FALSE());
        reg.addr.assign(rec.bits(addrBits - 1, 0));
        reg.wdata.assign(rec.bits(79, 16));

        Bool rspFire = i2cRsp.fire();
        UInt b = i2cRsp.bits.data;
        Bool nack = i2cRsp.bits.ack.not();

        fsm.on(State.SETUP_CMD, () -> {
            i2cCmd.valid.assign(TRUE());
            switchOn(step)
                .is(0, () -> i2cCmd.bits.op.assign(I2cMaster.OP_START))
                .is(1, () -> write(lit(dev, 8)))
                .is(2, () -> write(start.bits(15, 8)))
                .is(3, () -> write(start.bits(7, 0)))
                .is(4, () -> i2cCmd.bits.op.assign(I2cMaster.OP_START))
                .otherwise(() -> write(lit(dev | 1, 8)));
            when(i2cCmd.fire(), () -> fsm.goTo(State.SETUP_WAIT));
        }).on(State.SETUP_WAIT, () -> {
            i2cRsp.ready.assign(TRUE());
            Bool wasWrite = step.ne(0).and(step.ne(4));
            when(rspFire, () -> {
                when(wasWrite.and(nack), () -> {
                    status.assign(ERR_NACK);
                    fsm.goTo(State.STOP_CMD);
                }).elsewhen(step.eq(5), () -> {
                    pos.assign(0);
                    recPos.assign(0);
                    fsm.goTo(State.READ_CMD);
                }).otherwise(() -> {
                    step.assign(step.add(1));
                    fsm.goTo(State.SETUP_CMD);
                });
            });
        }).on(State.READ_CMD, () -> {
            i2cCmd.valid.assign(TRUE());
            i2cCmd.bits.op.assign(I2cMaster.OP_READ);
            i2cCmd.bits.ack.assign(isLast.not());
            when(i2cCmd.fire(), () -> {
                lastRead.assign(isLast);
                fsm.goTo(State.READ_WAIT);
            });
        }).on(State.READ_WAIT, () -> {
            i2cRsp.ready.assign(TRUE());
            when(rspFire, () -> {
                pos.assign(pos.add(1));
                Bool recordDone = inRecords.and(recPos.eq(RECORD_BYTES - 1));
                when(inRecords, () -> {
                    rec.assign(cat(b, rec.bits(79, 8)));
                    recPos.assign(mux(recordDone, lit(0, 4), recPos.add(1)));
                });
                UInt next = mux(lastRead, lit(Fsm.code(State.STOP_CMD), fsm.state.width()),
                        lit(Fsm.code(State.READ_CMD), fsm.state.width()));
                fsm.state.assign(next);
                when(pass.not(), () -> {
                    when(crcCovered, () -> crc.assign(crcByte(crc, b)));
                    for (int i = 0; i < MAGIC.length; i++) {
                        int k = i;
                        when(pos.eq(k).and(b.ne(MAGIC[k] & 0xFF)), () -> magicOk.assign(FALSE()));
                    }
                    when(pos.eq(4), () -> count.assign(cat(count.bits(15, 8), b)));
                    when(pos.eq(5), () -> {
                        UInt n = cat(b, count.bits(7, 0));
                        count.assign(n);
                        when(magicOk.not(), () -> fail(ERR_MAGIC))
                            .elsewhen(n.gt(maxRecords), () -> fail(ERR_COUNT));
                    });
                    // record bytes 0..1 are the register address (LE): no bits at or above addrBits
                    if (addrBits < 8) {
                        when(inRecords.and(recPos.eq(0)).and(b.bits(7, addrBits).orR()), () -> fail(ERR_ADDRESS));
                    }
                    if (addrBits <= 8) {
                        when(inRecords.and(recPos.eq(1)).and(b.orR()), () -> fail(ERR_ADDRESS));
                    } else if (addrBits < 16) {
                        when(inRecords.and(recPos.eq(1)).and(b.bits(7, addrBits - 8).orR()), () -> fail(ERR_ADDRESS));
                    }
                    when(crcCovered.not(), () -> storedCrc.assign(cat(b, storedCrc.bits(31, 8))));
                }).otherwise(() -> when(recordDone, () -> fsm.goTo(State.REG_WRITE)));
            });
        }).on(State.REG_WRITE, () -> {
            reg.write.assign(TRUE());
            when(reg.error, () -> fail(ERR_REGISTER))
                .otherwise(() -> {
                    writtenCount.assign(writtenCount.add(1));
                    fsm.goTo(State.READ_CMD);
                    when(lastRead, () -> fsm.goTo(State.STOP_CMD));
                });
        }).on(State.DRAIN_CMD, () -> {
            i2cCmd.valid.assign(TRUE());
            i2cCmd.bits.op.assign(I2cMaster.OP_READ);
            when(i2cCmd.fire(), () -> fsm.goTo(State.DRAIN_WAIT));
        }).on(State.DRAIN_WAIT, () -> {
            i2cRsp.ready.assign(TRUE());
            when(rspFire, () -> fsm.goTo(State.STOP_CMD));
        }).on(State.STOP_CMD, () -> {
            i2cCmd.valid.assign(TRUE());
            when(i2cCmd.fire(), () -> fsm.goTo(State.STOP_WAIT));
        }).on(State.STOP_WAIT, () -> {
            i2cRsp.ready.assign(TRUE());
            when(rspFire, () -> fsm.goTo(State.FINISH));
        }).on(State.FINISH, () -> {
            fsm.goTo(State.DONE);
            when(status.eq(OK).and(pass.not()), () -> {
                when(crc.not().ne(storedCrc), () -> status.assign(ERR_CRC))
                    .elsewhen(count.ne(0), () -> {
                        pass.assign(TRUE());
                        step.assign(0);
                        fsm.goTo(State.SETUP_CMD);
                    });
            });
        });

        // ---- watchdog per I2C command
        long limit = p.timeoutCycles();
        watchdog = regInit(UInt(Bitwise.log2Up(limit + 1)), 0);
        Bool active = fsm.is(State.DONE).not();
        when(active, () -> watchdog.assign(watchdog.add(1)));
        when(rspFire, () -> watchdog.assign(0));
        when(active.and(watchdog.ge(limit)), () -> {
            i2cAbort.assign(TRUE());
            status.assign(ERR_TIMEOUT);
            fsm.goTo(State.DONE);
        });

        Bool done = fsm.is(State.DONE);
        booting.assign(done.not());
        bootDone.assign(done);
        bootError.assign(done.and(status.ne(OK)));
        bootStatus.assign(status);
        written.assign(writtenCount);
    }

    /** Ends the load with {@code code}: a byte was just acknowledged, so read one more with NACK, then STOP. */
    private void fail(int code) {
        status.assign(code);
        fsm.goTo(State.DRAIN_CMD);
        when(lastRead, () -> fsm.goTo(State.STOP_CMD));
    }

    private void write(UInt value) {
        i2cCmd.bits.op.assign(I2cMaster.OP_WRITE);
        i2cCmd.bits.data.assign(value);
    }

    /** One byte of the reflected CRC-32C register update (the polynomial of {@link Crc32c}). */
    static UInt crcByte(UInt crc, UInt b) {
        UInt c = crc.xor(b.pad(32));
        for (int i = 0; i < 8; i++) {
            UInt shifted = c.bits(31, 1).pad(32);
            c = mux(c.bit(0), shifted.xor(lit(Integer.toUnsignedLong(Crc32c.POLY_REFLECTED), 32)), shifted);
        }
        return c;
    }
}
