package org.flitkit.env.nic.mgmt;

import java.util.List;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.Target;
import org.flitkit.fabric.Fabric;
import org.flitkit.formats.core.Layout;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.rtl.nma.NmaRegisters;

/**
 * A link BIST run from the management server (spec 20-th2-management.md, function 6; docs/th2-link.md, "BIST") on a
 * link between two NRCs or an NRC and its NIC, one direction after the other: the sending end is started through BIST_CTRL (intensity and
 * duration set by register), the server polls its BIST_RESULT until done, then reads what the far end's checker
 * counted. One direction at a time, so each checker's count covers the whole run (a start clears the starting end's
 * checker, which would lose the frames the other end had sent before).
 */
public final class BistRun {
    /** One direction: frames the sender sent, and what the receiver's checker tested, found errored and the bit errors. */
    public record Direction(ChipType fromType, int fromChip, int fromPort, ChipType toType, int toChip, int toPort, boolean done, long sent,
            long checked, long erroredFrames, long bitErrors, String failure) {
        @Override
        public String toString() {
            String link = String.format("%s 0x%04x port %d -> %s 0x%04x port %d", fromType, fromChip, fromPort, toType, toChip, toPort);
            return failure != null ? link + ": " + failure
                    : String.format("%s: %s, sent %d, checked %d, errored frames %d, bit errors %d", link, done ? "done" : "not done in time", sent, checked,
                            erroredFrames, bitErrors);
        }
    }

    public record Result(Direction there, Direction back, long cycles) {
    }

    /** One end of the link: the chip as a request target and its port. */
    private record End(Target chip, int port) {
        int address(String portRegister) {
            return Discovery.address(chip, NmaRegisters.portReg(port, portRegister));
        }
    }

    private static final long POLL = 500;

    private BistRun() {
    }

    /**
     * Runs BIST on the link at port {@code port} of NRC {@code nrcId} (its neighbour an NRC or a NIC), both ways:
     * {@code frames} BIST frames each way, one every {@code interval} slots; a direction is given up after
     * {@code timeout} cycles.
     */
    public static Result run(RequestPipe pipe, Fabric fabric, Discovery.Result found, int nrcId, int port, long frames, int interval, long timeout) {
        Discovery.FoundNrc a = found.nrc(nrcId);
        Neighbour nb = a.ports()[port];
        if (nb == null || (nb.kind() != Neighbour.Kind.NRC && nb.kind() != Neighbour.Kind.NIC)) {
            throw new IllegalArgumentException(String.format("NRC 0x%04x port %d has no NRC or NIC neighbour (%s): BIST runs on a cable between two chips",
                    nrcId, port, nb));
        }
        if (frames < 1 || frames > 0xFFFF_FFFFL || interval < 0 || interval > 0xFF) {
            throw new IllegalArgumentException("BIST frames must be 1..2^32-1 and interval 0..255, got " + frames + " and " + interval);
        }
        Target far = nb.kind() == Neighbour.Kind.NRC ? found.nrc(nb.chipId()).target()
                : found.nicTarget(nb.chipId());
        End here = new End(a.target(), port);
        End there = new End(far, nb.port());
        long start = fabric.now();
        Direction out = direction(pipe, fabric, here, there, frames, interval, timeout);
        Direction back = direction(pipe, fabric, there, here, frames, interval, timeout);
        return new Result(out, back, fabric.now() - start);
    }

    private static Direction direction(RequestPipe pipe, Fabric fabric, End from, End to, long frames, int interval, long timeout) {
        Layout ctl = NmaRegisters.BIST_CTRL_FIELDS;
        long ctrl = 1L << ctl.field("start").lsb() | (long) interval << ctl.field("interval").lsb() | frames << ctl.field("duration").lsb();
        int ctrlAddr = from.address(NmaRegisters.PORT_BIST_CTRL);
        long start = fabric.now();
        // 0 then start: a 0 -> 1 edge starts a run whatever the register held
        Answer wrote = read(pipe, MgmtRequest.writeRegisters(from.chip(), List.of(ctrlAddr, ctrlAddr), List.of(0L, ctrl)));
        if (wrote.failure != null) {
            return failed(from, to, "BIST_CTRL write: " + wrote.failure);
        }
        Answer sender;
        while (true) {
            sender = read(pipe, MgmtRequest.readRegisters(from.chip(), List.of(from.address(NmaRegisters.PORT_BIST_RESULT),
                    from.address(NmaRegisters.PORT_BIST_FRAMES))));
            if (sender.failure != null) {
                return failed(from, to, "sender's BIST_RESULT read: " + sender.failure);
            }
            if (NmaRegisters.BIST_RESULT_FIELDS.field("done").get(sender.values.get(0)) != 0 || fabric.now() - start >= timeout) {
                break;
            }
            fabric.run(POLL);
        }
        boolean done = NmaRegisters.BIST_RESULT_FIELDS.field("done").get(sender.values.get(0)) != 0;
        Answer checker = read(pipe, MgmtRequest.readRegisters(to.chip(), List.of(to.address(NmaRegisters.PORT_BIST_RESULT),
                to.address(NmaRegisters.PORT_BIST_FRAMES))));
        Answer bits = checker.failure != null ? checker
                : read(pipe, MgmtRequest.readRegisters(to.chip(), List.of(to.address(NmaRegisters.PORT_BIST_BIT_ERRORS))));
        if (bits.failure != null) {
            return failed(from, to, "receiver's BIST results read: " + bits.failure);
        }
        return new Direction(from.chip().type(), from.chip().chipId(), from.port(), to.chip().type(), to.chip().chipId(), to.port(), done,
                NmaRegisters.BIST_FRAMES_FIELDS.field("sent").get(sender.values.get(1)),
                NmaRegisters.BIST_FRAMES_FIELDS.field("checked").get(checker.values.get(1)),
                NmaRegisters.BIST_RESULT_FIELDS.field("errored_frames").get(checker.values.get(0)),
                NmaRegisters.BIST_BIT_ERRORS_FIELDS.field("bit_errors").get(bits.values.get(0)), null);
    }

    private static Direction failed(End from, End to, String why) {
        return new Direction(from.chip().type(), from.chip().chipId(), from.port(), to.chip().type(), to.chip().chipId(), to.port(), false, 0, 0, 0, 0, why);
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
