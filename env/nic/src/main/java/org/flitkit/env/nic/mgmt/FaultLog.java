package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.Target;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.rtl.nma.NmaRegisters;

/**
 * Fault event collection (spec 20-th2-management.md, function 3): every NRC and NIC found is told to report the faults
 * of {@link #REPORTED} along its backward route to the server's VP, and every report that arrives is logged with its
 * chip, fault, port and the cycle it was seen.
 */
public final class FaultLog {
    /** The fault codes the server asks every chip to report. */
    public static final List<FaultCode> REPORTED = List.of(FaultCode.LINK_DOWN, FaultCode.LINK_DEGRADED, FaultCode.RETRY_THRESHOLD,
            FaultCode.OVER_TEMPERATURE);

    /** One report as logged: who, what, where, the chip's timestamp, its sequence number and when the server saw it. */
    public record Entry(long seenAt, ChipType chipType, int chipId, int faultCode, int port, long status, long timestamp, int seq) {
        @Override
        public String toString() {
            return String.format("cycle %d: %s 0x%04x %s port %s (seq %d, chip time %d)", seenAt, chipType, chipId, FaultCode.console(faultCode),
                    port == FaultCode.CHIP_LEVEL_PORT ? "chip" : Integer.toString(port), seq, timestamp);
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Logs every fault report addressed to {@code endpoint}'s VP from now on. */
    public FaultLog(MgmtEndpoint endpoint) {
        endpoint.onReport(a -> {
            if (a.packet().payload() instanceof FaultPayload f) {
                entries.add(new Entry(a.cycle(), a.packet().srcType(), a.packet().srcId(), f.faultCode(), f.port(), f.status(), f.timestamp(), a.packet().transactionId()));
            }
        });
    }

    /**
     * Writes every chip's report route (its backward route), destination (the server's NIC and VP) and enable mask
     * ({@link #REPORTED}), the NRCs first, then the NICs; returns the requests that failed.
     */
    public static long configure(RequestPipe pipe, Discovery.Result found, int serverId, int vp) {
        long enable = 0;
        for (FaultCode c : REPORTED) {
            enable |= 1L << c.code();
        }
        List<Target> targets = new ArrayList<>();
        found.nrcs().forEach(n -> targets.add(n.target()));
        targets.addAll(found.nicTargets());
        long[] failed = {0};
        for (Target t : targets) {
            long[] route = t.backward().encode().limbs();
            // the route first, then the destination and the enable: a report never leaves without its route
            pipe.submit(MgmtRequest.writeRegisters(t, List.of(Discovery.address(t, NmaRegisters.REPORT_ROUTE_LO), Discovery.address(t, NmaRegisters.REPORT_ROUTE_HI)),
                    List.of(route[0], route.length > 1 ? route[1] : 0L)), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
            pipe.submit(MgmtRequest.writeRegisters(t, List.of(Discovery.address(t, NmaRegisters.REPORT_DEST), Discovery.address(t, NmaRegisters.REPORT_ENABLE)),
                    List.of((long) serverId | (long) vp << NmaRegisters.REPORT_DEST_VP_LSB, enable)), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
        }
        pipe.drain();
        return failed[0];
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }
}
