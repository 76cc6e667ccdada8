package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/**
 * How a port's {@link LinkLayer} meets the NMA's existing per-port registers ({@code NmaRegisters.portTemplate()}):
 * every {@link PortStatus} word from {@link LinkStatus} and {@link BistResult}, and {@link BistControl} from
 * the BIST_CTRL register (start [0], intensity [15:8], duration [47:16]). Builds logic in the calling module.
 * Spec: 20-th2-management.md, functions 2 and 6; docs/th2-link.md, "Registers".
 */
public final class LinkRegisters {
    /** The faults a port raises, in fault-input order within a port (the NRC's 24 ports and the NIC's one alike). */
    public static final List<FaultCode> PORT_FAULTS = List.of(FaultCode.LINK_DOWN, FaultCode.LINK_DEGRADED, FaultCode.RETRY_THRESHOLD);
    /** A chip's over-temperature limit at reset, degrees C (assumption: a common junction limit for network ASICs). */
    public static final int DEFAULT_TEMPERATURE_LIMIT = 85;

    private LinkRegisters() {
    }

    /** The degraded-width fault level: the link is up on fewer than its 8 lanes. */
    public static Bool degraded(LinkStatus ls) {
        return ls.up.and(ls.width.ne(LinkFrame.LANES));
    }

    /** The retry-threshold fault level: the port's retransmissions (RETRY_COUNT) at or above {@code threshold}; 0 never. */
    public static Bool retriesOver(LinkStatus ls, UInt threshold) {
        return threshold.ne(0).and(ls.retransmitted.ge(threshold));
    }

    /**
     * Drives every word of {@code ps} (the port bank's read-only registers, layouts in their descriptions):
     * LINK_STATUS = up [0], width [11:8], lanes received well [23:16], lanes the peer receives well [31:24]; RETRY_COUNT = retransmitted FLIT frames; BIST_RESULT = done [0],
     * running [1], an errored frame seen [2], checker synced [3], errored frames [63:32]; the other counters as they are.
     */
    public static void portStatus(PortStatus ps, LinkStatus ls, BistResult br) {
        ps.neighbour.assign(ls.neighbour);
        ps.linkStatus.assign(cat(ls.txLanes, ls.rxLanes, lit(0, 4), ls.width, lit(0, 7), ls.up).pad(64));
        ps.retryCount.assign(ls.retransmitted.pad(64));
        ps.handshakeCount.assign(ls.handshakes.pad(64));
        ps.framesSent.assign(ls.framesSent.pad(64));
        ps.crcErrors.assign(ls.crcErrors.pad(64));
        ps.linkDowns.assign(ls.linkDownEvents.pad(64));
        ps.bistResult.assign(cat(br.erroredFrames, lit(0, 28), br.synced, br.firstErrorValid, br.running, br.done));
        ps.bistFrames.assign(cat(br.framesSent, br.framesTested));
        ps.bistBitErrors.assign(cat(br.resyncs, br.bitErrors).pad(64));
        ps.bistFirstError.assign(br.firstErrorFrame.pad(64));
        ps.replays.assign(ls.replays.pad(64));
        ps.flitsReceived.assign(ls.flitsReceived.pad(64));
        ps.protocolErrors.assign(ls.protocolErrors.pad(64));
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
        Bool bistCtrlStartWas = regNext(run, 0).named("bistCtrlStartWas");
        ctl.start.assign(run.and(bistCtrlStartWas.not()));
        ctl.stop.assign(run.not().and(bistCtrlStartWas));
        ctl.interval.assign(bistCtrl.bits(15, 8));
        ctl.duration.assign(bistCtrl.bits(47, 16));
    }
}
