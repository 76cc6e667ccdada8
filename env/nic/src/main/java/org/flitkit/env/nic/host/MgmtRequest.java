package org.flitkit.env.nic.host;

import java.util.List;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementDescriptor;
import org.flitkit.formats.th2.NmpPayload;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;

/**
 * One management request as host software states it (the analogue of the arguments of GLEX's
 * {@code glex_send_mgmt_req}): target, request type and payload (1-2 registers, 1-6 E2PROM bytes), and the
 * descriptor flags Fen, Lint and Rint. The payload is checked when the request is built.
 * Spec: 20-th2-management.md, "Management packets and descriptors".
 */
public record MgmtRequest(Target target, NmpType type, NmpPayload payload, boolean fence, boolean lint, boolean rint) {
    public MgmtRequest {
        if (target == null || type == null || payload == null) {
            throw new IllegalArgumentException("a request needs a target, a type and a payload");
        }
        if (!type.isRequest()) {
            throw new IllegalArgumentException("not a request type: " + type);
        }
        payload.checkFits(type, target.type());
    }

    public static MgmtRequest readRegisters(Target t, List<Integer> addrs) {
        return new MgmtRequest(t, NmpType.REG_READ_REQ, new RegisterPayload(addrs, List.of()), false, false, false);
    }

    public static MgmtRequest writeRegisters(Target t, List<Integer> addrs, List<Long> values) {
        return new MgmtRequest(t, NmpType.REG_WRITE_REQ, new RegisterPayload(addrs, values), false, false, false);
    }

    public static MgmtRequest eepromRead(Target t, List<Integer> addrs) {
        return new MgmtRequest(t, NmpType.EEP_READ_REQ, new EepromPayload(addrs, List.of()), false, false, false);
    }

    public static MgmtRequest eepromWrite(Target t, List<Integer> addrs, List<Integer> bytes) {
        return new MgmtRequest(t, NmpType.EEP_WRITE_REQ, new EepromPayload(addrs, bytes), false, false, false);
    }

    /** The 512-bit descriptor software posts for this request on VP {@code vp} (SrcVP = DestVP = vp) under {@code tid}. */
    public ManagementDescriptor descriptor(int tid, int vp) {
        return ManagementDescriptor.builder().fen(fence).lint(lint).rint(rint)
                .destType(target.type()).destId(target.chipId())
                .transactionId(tid).destVp(vp).srcVp(vp)
                .forwardRoute(target.forward()).backwardRoute(target.backward())
                .request(type, payload).build();
    }

    /** This request with Fen set: the NIC sends it only after every earlier request of the VP is answered. */
    public MgmtRequest fenced() {
        return new MgmtRequest(target, type, payload, true, lint, rint);
    }

    public MgmtRequest withInterrupts(boolean lintFlag, boolean rintFlag) {
        return new MgmtRequest(target, type, payload, fence, lintFlag, rintFlag);
    }
}
