package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.Arrays;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Fsm;

/**
 * Behavioural RTL model of the board's 24xx512 E2PROM (spec 20-th2-management.md: 64 KB, 16-bit byte
 * address; details in docs/th2-eeprom.md, "I2cEeprom"): byte/page write with in-page wrap, random and
 * sequential read, no ACK during its write cycle, optional initial contents, on the wired-AND bus.
 */
public final class I2cEeprom extends Module {
    /** 24xx512: 64 KB. */
    public static final int SIZE = 65536;
    /** 24xx512 page size. */
    public static final int PAGE = 128;

    enum Mode { IDLE, DEV, ADDR_HI, ADDR_LO, WDATA, READ }

    public final I2cPins pins = output(new I2cPins());
    /** Internal write cycle in progress (the device ignores its address). */
    public final Bool busy = output(Bool());
    /** The internal address pointer (for testbenches). */
    public final UInt pointer = output(UInt(16));

    public final long writeCycleCycles;
    public final int deviceAddress;

    private final Mem<UInt> array;
    private final Mem<UInt> pageBuf;
    private final Fsm<Mode> fsm = new Fsm<>(Mode.class);
    private final Bool sclQ = regInit(Bool(), 1);
    private final Bool sdaQ = regInit(Bool(), 1);
    private final Bool startCond;
    private final Bool stopCond;
    private final Bool rise;
    private final Bool fall;
    private final UInt cnt = regInit(UInt(4), 0);
    private final UInt shift = regInit(UInt(8), 0);
    private final Bool drive = regInit(Bool(), 0);
    private final Bool masterAck = regInit(Bool(), 0);
    private final UInt addrHi = regInit(UInt(8), 0);
    private final UInt ptr = regInit(UInt(16), 0);
    private final UInt pageBase = regInit(UInt(9), 0);
    private final UInt pending = regInit(UInt(PAGE), 0);
    private final UInt busyCnt;
    private final UInt commitIdx = regInit(UInt(8), PAGE);

    /**
     * @param p     timing (core clock, write cycle) and the A2..A0 pins
     * @param image initial contents from address 0 (may be null); the rest reads 0xFF, as an erased part
     */
    public I2cEeprom(EepParams p, byte[] image) {
        this(Math.max(p.writeCycleCycles(), PAGE + 2), p.deviceAddress(), image);
    }

    public I2cEeprom(long writeCycleCycles, int deviceAddress, byte[] image) {
        if (writeCycleCycles < PAGE + 2) {
            throw new HdlException("E2PROM write cycle must be at least " + (PAGE + 2) + " cycles (page commit), got "
                    + writeCycleCycles);
        }
        if (image != null && image.length > SIZE) {
            throw new HdlException("E2PROM image of " + image.length + " bytes exceeds " + SIZE);
        }
        this.writeCycleCycles = writeCycleCycles;
        this.deviceAddress = deviceAddress;
        array = mem(SIZE, UInt(8)).init(contents(image));
        pageBuf = mem(PAGE, UInt(8));
        busyCnt = regInit(UInt(Bitwise.log2Up(writeCycleCycles + 1)), 0);

        Bool scl = pins.scl;
        Bool sda = pins.sda;
        sclQ.assign(scl);
        sdaQ.assign(sda);
        startCond = sclQ.and(scl).and(sdaQ).and(sda.not());
        stopCond = sclQ.and(scl).and(sdaQ.not()).and(sda);
        rise = sclQ.not().and(scl);
        fall = sclQ.and(scl.not());
        Bool inBusy = busyCnt.ne(0);
        busy.assign(inBusy);
        pointer.assign(ptr);
        pins.sclOe.assign(FALSE());
        pins.sdaOe.assign(drive);

        Bool receiving = fsm.is(Mode.DEV).or(fsm.is(Mode.ADDR_HI)).or(fsm.is(Mode.ADDR_LO)).or(fsm.is(Mode.WDATA));
        Bool reading = fsm.is(Mode.READ);
        UInt stored = array.read(ptr);

        when(rise, () -> {
            when(receiving.and(cnt.lt(8)), () -> {
                shift.assign(cat(shift.bits(6, 0), sda));
                cnt.assign(cnt.add(1));
            });
            when(reading, () -> {
                when(cnt.lt(8), () -> cnt.assign(cnt.add(1)));
                when(cnt.eq(8), () -> {
                    masterAck.assign(sda.not());
                    ptr.assign(ptr.add(1));
                    cnt.assign(9);
                });
            });
        });
        when(fall, () -> {
            when(receiving, () -> {
                when(cnt.eq(8), () -> {
                    cnt.assign(9);
                    drive.assign(TRUE());
                    fsm.on(Mode.DEV, () -> {
                        when(shift.bits(7, 1).eq(deviceAddress).and(inBusy.not()), () -> {
                            when(shift.bit(0), () -> {
                                masterAck.assign(TRUE());
                                fsm.goTo(Mode.READ);
                            }).otherwise(() -> fsm.goTo(Mode.ADDR_HI));
                        }).otherwise(() -> {
                            drive.assign(FALSE());
                            fsm.goTo(Mode.IDLE);
                        });
                    }).on(Mode.ADDR_HI, () -> {
                        addrHi.assign(shift);
                        fsm.goTo(Mode.ADDR_LO);
                    }).on(Mode.ADDR_LO, () -> {
                        ptr.assign(cat(addrHi, shift));
                        pageBase.assign(cat(addrHi, shift.bit(7)));
                        pending.assign(0);
                        fsm.goTo(Mode.WDATA);
                    }).on(Mode.WDATA, () -> {
                        UInt off = ptr.bits(6, 0);
                        pageBuf.write(off, shift);
                        pending.assign(pending.or(lit(1, PAGE).shlTrunc(off)));
                        ptr.assign(cat(ptr.bits(15, 7), off.add(1)));
                    });
                });
                when(cnt.eq(9), () -> {
                    drive.assign(FALSE());
                    cnt.assign(0);
                });
            });
            when(reading, () -> {
                when(cnt.eq(9), () -> {
                    when(masterAck, () -> {
                        shift.assign(stored);
                        drive.assign(stored.bit(7).not());
                        cnt.assign(0);
                    }).otherwise(() -> {
                        drive.assign(FALSE());
                        fsm.goTo(Mode.IDLE);
                    });
                });
                when(cnt.ge(1).and(cnt.le(7)), () -> {
                    shift.assign(cat(shift.bits(6, 0), lit(0, 1)));
                    drive.assign(shift.bit(6).not());
                });
                when(cnt.eq(8), () -> drive.assign(FALSE()));
            });
        });
        when(startCond, () -> {
            fsm.goTo(Mode.DEV);
            cnt.assign(0);
            drive.assign(FALSE());
        });
        when(stopCond, () -> {
            fsm.goTo(Mode.IDLE);
            drive.assign(FALSE());
            when(fsm.is(Mode.WDATA).and(pending.orR()).and(inBusy.not()), () -> {
                busyCnt.assign(writeCycleCycles);
                commitIdx.assign(0);
            });
        });
        // write cycle: commit the page buffer, one byte per cycle, then wait out tWC
        when(inBusy, () -> busyCnt.assign(busyCnt.sub(1)));
        when(commitIdx.lt(PAGE), () -> {
            UInt off = commitIdx.bits(6, 0);
            when(pending.bit(off), () -> array.write(cat(pageBase, off), pageBuf.read(off)));
            commitIdx.assign(commitIdx.add(1));
            when(commitIdx.eq(PAGE - 1), () -> pending.assign(0));
        });
    }

    private static BigInteger[] contents(byte[] image) {
        BigInteger[] v = new BigInteger[SIZE];
        Arrays.fill(v, BigInteger.valueOf(0xFF));
        if (image != null) {
            for (int i = 0; i < image.length; i++) {
                v[i] = BigInteger.valueOf(image[i] & 0xFF);
            }
        }
        return v;
    }
}
