package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;

/**
 * Two-entry valid/ready skid buffer: {@code in.ready} is a register (no combinational path from
 * {@code out.ready}), and the second entry catches the beat accepted while the output stalled. A pipeline
 * stage that cuts both the valid and the ready path (what SpinalHDL's s2mPipe and m2sPipe do together).
 */
public final class SkidBuffer extends Module {
    public final Decoupled<UInt> in;
    public final Decoupled<UInt> out;
    final Bool mainValid = regInit(Bool(), 0);
    final Bool skidValid = regInit(Bool(), 0);
    final UInt mainData;
    final UInt skidData;

    public SkidBuffer(int width) {
        in = input(Decoupled.of(UInt(width)));
        out = output(Decoupled.of(UInt(width)));
        mainData = reg(UInt(width));
        skidData = reg(UInt(width));
        in.ready.assign(skidValid.not());
        out.valid.assign(mainValid);
        out.bits.assign(mainData);
        Bool mainFree = out.ready.or(mainValid.not());
        when(mainFree, () -> {
            when(skidValid, () -> {
                mainValid.assign(1);
                mainData.assign(skidData);
                skidValid.assign(0);
            }).otherwise(() -> {
                mainValid.assign(in.valid);
                mainData.assign(in.bits);
            });
        }).elsewhen(in.valid.and(in.ready), () -> {
            skidValid.assign(1);
            skidData.assign(in.bits);
        });
    }
}
