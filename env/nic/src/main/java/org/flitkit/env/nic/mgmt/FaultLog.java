package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;

/**
 * Fault event collection (spec 20-th2-management.md, function 3): every NRC found is told to report the faults of
 * {@link #REPORTED} along its backward route to the server's VP, and every report that arrives is logged with its
 * chip, fault, port and the cycle it was seen.
 */
public final class FaultLog {
    /** The fault codes the server asks every NRC to report. */
    public static final List<FaultCode> REPORTED = List.of(FaultCode.LINK_DOWN, FaultCode.LINK_DEGRADED, FaultCode.RETRY_THRESHOLD,
            FaultCode.OVER_TEMPERATURE);

    /** One report as logged: who, what, where, the chip's timestamp, its sequence number and when the server saw it. */
    public record Entry(long seenAt, int chipId, int faultCode, int port, long status, long timestamp, int seq) {
        @Override
        public String toString() {
            return String.format("cycle %d: NRC 0x%04x %s port %s (seq %d, chip time %d)", seenAt, chipId, FaultCode.console(faultCode),
                    port == FaultCode.CHIP_LEVEL_PORT ? "chip" : Integer.toString(port), seq, timestamp);
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Logs every fault report addressed to {@code endpoint}'s VP from now on. */
    public FaultLog(MgmtEndpoint endpoint) {
        endpoint.onReport(a -> {
            if (a.packet().payload() instanceof FaultPayload f) {
                entries.add(new Entry(a.cycle(), a.packet().srcId(), f.faultCode(), f.port(), f.status(), f.timestamp(), a.packet().transactionId()));
            }
        });
    }

    /**
     * Writes every NRC's report route (its backward route), destination (the server's NIC and VP) and enable mask
     * ({@link #REPORTED}); returns the requests that failed.
     */
    public static long configure(RequestPipe pipe, List<Discovery.FoundNrc> nrcs, int serverId, int vp) {
        long enable = 0;
        for (FaultCode c : REPORTED) {
            enable |= 1L << c.code();
        }
        long[] failed = {0};
        for (Discovery.FoundNrc n : nrcs) {
            long[] route = new RoutingField(n.backward()).encode().limbs();
            // the route first, then the destination and the enable: a report never leaves without its route
            pipe.submit(MgmtRequest.writeRegisters(n.target(), List.of(NrcRegisters.address(NmaRegisters.REPORT_ROUTE_LO), NrcRegisters.address(NmaRegisters.REPORT_ROUTE_HI)),
                    List.of(route[0], route.length > 1 ? route[1] : 0L)), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
            pipe.submit(MgmtRequest.writeRegisters(n.target(), List.of(NrcRegisters.address(NmaRegisters.REPORT_DEST), NrcRegisters.address(NmaRegisters.REPORT_ENABLE)),
                    List.of((long) serverId | (long) vp << NmaRegisters.REPORT_DEST_VP_LSB, enable)), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
        }
        pipe.drain();
        return failed[0];
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }
}
