package org.flitkit.env.nic.mgmt;

import java.util.List;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.fabric.Fabric;
import org.flitkit.formats.core.Layout;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;

/**
 * A link BIST run from the management server (spec 20-th2-management.md, function 6; docs/th2-link.md, "BIST") on a
 * link between two NRCs, one direction after the other: the sending end is started through BIST_CTRL (intensity and
 * duration set by register), the server polls its BIST_RESULT until done, then reads what the far end's checker
 * counted. One direction at a time, so each checker's count covers the whole run (a start clears the starting end's
 * checker, which would lose the frames the other end had sent before).
 */
public final class BistRun {
    /** One direction: frames the sender sent, and what the receiver's checker tested, found errored and the bit errors. */
    public record Direction(int fromChip, int fromPort, int toChip, int toPort, boolean done, long sent, long checked, long erroredFrames,
            long bitErrors, String failure) {
        @Override
        public String toString() {
            String link = String.format("NRC 0x%04x port %d -> NRC 0x%04x port %d", fromChip, fromPort, toChip, toPort);
            return failure != null ? link + ": " + failure
                    : String.format("%s: %s, sent %d, checked %d, errored frames %d, bit errors %d", link, done ? "done" : "not done in time", sent, checked,
                            erroredFrames, bitErrors);
        }
    }

    public record Result(Direction there, Direction back, long cycles) {
    }

    private static final long POLL = 500;

    private BistRun() {
    }

    /**
     * Runs BIST on the link at port {@code port} of NRC {@code nrcId} (its neighbour an NRC), both ways: {@code frames}
     * BIST frames each way, one every {@code interval} slots; a direction is given up after {@code timeout} cycles.
     */
    public static Result run(RequestPipe pipe, Fabric fabric, Discovery.Result found, int nrcId, int port, long frames, int interval, long timeout) {
        Discovery.FoundNrc a = found.nrc(nrcId);
        Neighbour nb = a.ports()[port];
        if (nb == null || nb.kind() != Neighbour.Kind.NRC) {
            throw new IllegalArgumentException(String.format("NRC 0x%04x port %d has no NRC neighbour (%s): BIST runs between two NRCs", nrcId, port, nb));
        }
        if (frames < 1 || frames > 0xFFFF_FFFFL || interval < 0 || interval > 0xFF) {
            throw new IllegalArgumentException("BIST frames must be 1..2^32-1 and interval 0..255, got " + frames + " and " + interval);
        }
        Discovery.FoundNrc b = found.nrc(nb.chipId());
        long start = fabric.now();
        Direction there = direction(pipe, fabric, a, port, b, nb.port(), frames, interval, timeout);
        Direction back = direction(pipe, fabric, b, nb.port(), a, port, frames, interval, timeout);
        return new Result(there, back, fabric.now() - start);
    }

    private static Direction direction(RequestPipe pipe, Fabric fabric, Discovery.FoundNrc from, int fromPort, Discovery.FoundNrc to, int toPort,
            long frames, int interval, long timeout) {
        Layout ctl = NmaRegisters.BIST_CTRL_FIELDS;
        long ctrl = 1L << ctl.field("start").lsb() | (long) interval << ctl.field("interval").lsb() | frames << ctl.field("duration").lsb();
        int ctrlAddr = NrcRegisters.portAddress(fromPort, NmaRegisters.PORT_BIST_CTRL);
        long start = fabric.now();
        // 0 then start: a 0 -> 1 edge starts a run whatever the register held
        Answer wrote = read(pipe, MgmtRequest.writeRegisters(from.target(), List.of(ctrlAddr, ctrlAddr), List.of(0L, ctrl)));
        if (wrote.failure != null) {
            return failed(from, fromPort, to, toPort, "BIST_CTRL write: " + wrote.failure);
        }
        Answer sender;
        while (true) {
            sender = read(pipe, MgmtRequest.readRegisters(from.target(), List.of(NrcRegisters.portAddress(fromPort, NmaRegisters.PORT_BIST_RESULT),
                    NrcRegisters.portAddress(fromPort, NmaRegisters.PORT_BIST_FRAMES))));
            if (sender.failure != null) {
                return failed(from, fromPort, to, toPort, "sender's BIST_RESULT read: " + sender.failure);
            }
            if (NmaRegisters.BIST_RESULT_FIELDS.field("done").get(sender.values.get(0)) != 0 || fabric.now() - start >= timeout) {
                break;
            }
            fabric.run(POLL);
        }
        boolean done = NmaRegisters.BIST_RESULT_FIELDS.field("done").get(sender.values.get(0)) != 0;
        Answer checker = read(pipe, MgmtRequest.readRegisters(to.target(), List.of(NrcRegisters.portAddress(toPort, NmaRegisters.PORT_BIST_RESULT),
                NrcRegisters.portAddress(toPort, NmaRegisters.PORT_BIST_FRAMES))));
        Answer bits = checker.failure != null ? checker
                : read(pipe, MgmtRequest.readRegisters(to.target(), List.of(NrcRegisters.portAddress(toPort, NmaRegisters.PORT_BIST_BIT_ERRORS))));
        if (bits.failure != null) {
            return failed(from, fromPort, to, toPort, "receiver's BIST results read: " + bits.failure);
        }
        return new Direction(from.chipId(), fromPort, to.chipId(), toPort, done, NmaRegisters.BIST_FRAMES_FIELDS.field("sent").get(sender.values.get(1)),
                NmaRegisters.BIST_FRAMES_FIELDS.field("checked").get(checker.values.get(1)),
                NmaRegisters.BIST_RESULT_FIELDS.field("errored_frames").get(checker.values.get(0)),
                NmaRegisters.BIST_BIT_ERRORS_FIELDS.field("bit_errors").get(bits.values.get(0)), null);
    }

    private static Direction failed(Discovery.FoundNrc from, int fromPort, Discovery.FoundNrc to, int toPort, String why) {
        return new Direction(from.chipId(), fromPort, to.chipId(), toPort, false, 0, 0, 0, 0, why);
    }

    /** One request, run to its end: the register values of an ok answer (empty for a write), or the failure. */
    private record Answer(List<Long> values, String failure) {
    }

    private static Answer read(RequestPipe pipe, MgmtRequest r) {
        RequestPipe.Done d = pipe.call(r);
        List<Long> v = Discovery.values(d.result());
        return new Answer(v, v == null ? Discovery.describe(d.result()) : null);
    }
}
