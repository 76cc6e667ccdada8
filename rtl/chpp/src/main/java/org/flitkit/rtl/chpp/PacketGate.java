package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.lib.Decoupled;

/**
 * A stream passed on whole packets at a time, where a packet may only start while a condition holds (room for
 * all of it downstream, a free stage): its later beats always pass, so a packet once started is never held
 * mid-way. Used by the send and receive engines to keep GETs from blocking the stages they share with PUTs
 * (docs/chpp-network.md).
 */
public final class PacketGate {
    private PacketGate() {
    }

    /**
     * Connects {@code in} to {@code out}, a packet's first beat passing only while {@code mayStart}; {@code last}
     * marks a packet's final beat on {@code in}. {@code name} names the register that remembers a packet under way.
     */
    public static <T extends Data> void connect(Decoupled<T> out, Decoupled<T> in, Bool mayStart, Bool last, String name) {
        Bool mid = regInit(Bool(), 0).named(name);
        Bool pass = mid.or(mayStart);
        out.valid.assign(in.valid.and(pass));
        out.bits.assign(in.bits);
        in.ready.assign(out.ready.and(pass));
        when(in.fire(), () -> mid.assign(last.not()));
    }
}
