package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.PortStatus;

/**
 * How a port's {@link LinkLayer} meets the NMA's existing per-port registers ({@link NmaRegisters#portTemplate()}):
 * the five {@link PortStatus} words from {@link LinkStatus} and {@link BistResult}, and {@link BistControl} from
 * the BIST_CTRL register (start [0], intensity [15:8], duration [47:16]). Builds logic in the calling module.
 * Spec: 20-th2-management.md, functions 2 and 6; docs/th2-link.md, "Registers".
 */
public final class LinkRegisters {
    private LinkRegisters() {
    }

    /**
     * Drives {@code ps}: NEIGHBOUR = the neighbour word; LINK_STATUS = up [0], width [11:8]; RETRY_COUNT =
     * retransmitted FLIT frames; HANDSHAKE_COUNT = handshakes; BIST_RESULT = done [0], running [1], errored-frame
     * seen [2], payload bit errors [63:32].
     */
    public static void portStatus(PortStatus ps, LinkStatus ls, BistResult br) {
        ps.neighbour.assign(ls.neighbour);
        ps.linkStatus.assign(cat(ls.width, lit(0, 7), ls.up).pad(64));
        ps.retryCount.assign(ls.retransmitted.pad(64));
        ps.handshakeCount.assign(ls.handshakes.pad(64));
        ps.bistResult.assign(cat(br.bitErrors, lit(0, 29), br.firstErrorValid, br.running, br.done));
    }

    /**
     * Drives {@code ctl} from the BIST_CTRL register's value: writing start [0] = 1 starts a run (the rising edge
     * is the start pulse, with intensity [15:8] and duration [47:16]); writing it back to 0 stops it.
     */
    public static void bistControl(BistControl ctl, UInt bistCtrl) {
        if (bistCtrl.width() != 64) {
            throw new IllegalArgumentException("BIST_CTRL is a 64-bit register, got " + bistCtrl.width() + " bits");
        }
        Bool run = bistCtrl.bit(0);
        Bool was = regNext(run, 0).named("bistCtrlStartWas");
        ctl.start.assign(run.and(was.not()));
        ctl.stop.assign(run.not().and(was));
        ctl.interval.assign(bistCtrl.bits(15, 8));
        ctl.duration.assign(bistCtrl.bits(47, 16));
    }
}
