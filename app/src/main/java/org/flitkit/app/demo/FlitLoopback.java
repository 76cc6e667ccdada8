package org.flitkit.app.demo;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;

/**
 * The demo design: TH-2-sized 198-bit flits in, over a 20-bit {@link SerialLink} (serializer, 8-beat FIFO,
 * deserializer), and out again unchanged. Hierarchy: {@code flitLoopback.link.{ser, fifo, deser}},
 * with the FIFO's pointer counters one level further down.
 */
public final class FlitLoopback extends Module {
    public static final int FLIT_WIDTH = 198;
    public static final int BEAT_WIDTH = 20;
    public static final int FIFO_DEPTH = 8;

    public final Decoupled<UInt> in = input(Decoupled.of(UInt(FLIT_WIDTH)));
    public final Decoupled<UInt> out = output(Decoupled.of(UInt(FLIT_WIDTH)));
    public final SerialLink link = instance(new SerialLink(FLIT_WIDTH, BEAT_WIDTH, FIFO_DEPTH));

    public FlitLoopback() {
        link.in.connect(in);
        out.connect(link.out);
    }
}
