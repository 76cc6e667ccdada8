package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.fabric.Fabric;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.switchcore.TableRegions;

/**
 * Path trace (spec 20-th2-management.md, function 4): from a source NIC to a destination NIC, the server reads each
 * NRC's table indexing (NRC_TABLE_REGION, NRC_TABLE_DEFAULT) and the entry the switch reads for the destination
 * through NRC_TABLE_ADDR / NRC_TABLE_READ, replays the switch's choice
 * ({@link RoutingTables#replay}), reads the link state of the output taken, and goes on at the NRC behind it; the
 * result is the path, each link's state and whether the destination is reached.
 */
public final class PathTrace {
    /** One traced hop and the state of the link it leaves by (LINK_STATUS, null when no output or unread). */
    public record Step(RoutingTables.Hop hop, Long linkStatus) {
        public boolean linkUp() {
            return linkStatus != null && NmaRegisters.LINK_STATUS_FIELDS.field("up").get(linkStatus) != 0;
        }

        @Override
        public String toString() {
            String link = linkStatus == null ? "" : linkUp()
                    ? String.format(", link up on %d lanes", NmaRegisters.LINK_STATUS_FIELDS.field("width").get(linkStatus)) : ", link down";
            return hop + link;
        }
    }

    /** The path from {@code from} to {@code to}; {@code reachable}: it ends on the destination's port over links that are up. */
    public record Result(int from, int to, List<Step> steps, boolean reachable, String failure, long cycles) {
        public List<RoutingTables.Hop> hops() {
            return steps.stream().map(Step::hop).toList();
        }
    }

    private PathTrace() {
    }

    /** Traces NIC {@code from} to NIC {@code to} over the tables the NRCs hold now. */
    public static Result trace(RequestPipe pipe, Fabric fabric, RoutingTables tables, int from, int to) {
        long start = fabric.now();
        String[] failure = {null};
        List<RoutingTables.Hop> hops = tables.replay(from, to, (nrc, in, dest) -> {
            if (failure[0] != null) {
                return 0;
            }
            Discovery.FoundNrc n = tables.nrc(nrc);
            // how the chip indexes its tables, then the entry the switch reads for this destination
            RequestPipe.Done c = pipe.call(MgmtRequest.readRegisters(n.target(),
                    List.of(NrcRegisters.address(NrcRegisters.TABLE_REGION), NrcRegisters.address(NrcRegisters.TABLE_DEFAULT))));
            List<Long> config = Discovery.values(c.result());
            if (config == null || config.size() != 2) {
                failure[0] = String.format("NRC 0x%04x table configuration read: %s", nrc, Discovery.describe(c.result()));
                return 0;
            }
            int localBits = (int) NrcRegisters.TABLE_REGION_FIELDS.field("local_bits").get(config.get(0));
            int region = (int) NrcRegisters.TABLE_REGION_FIELDS.field("region").get(config.get(0));
            int index = TableRegions.index(dest, localBits, region, RoutingTables.ENTRIES);
            long raw = 0;
            if (index >= 0) {
                long pointer = NrcRegisters.TABLE_POINTER.field("input_port").set(NrcRegisters.TABLE_POINTER.field("entry").set(0, index), in);
                RequestPipe.Done w = pipe.call(MgmtRequest.writeRegisters(n.target(), List.of(NrcRegisters.address(NrcRegisters.TABLE_ADDR)), List.of(pointer)));
                RequestPipe.Done r = Discovery.values(w.result()) == null ? w
                        : pipe.call(MgmtRequest.readRegisters(n.target(), List.of(NrcRegisters.address(NrcRegisters.TABLE_READ))));
                List<Long> v = Discovery.values(r.result());
                if (v == null || v.isEmpty()) {
                    failure[0] = String.format("NRC 0x%04x table read: %s", nrc, Discovery.describe(r.result()));
                    return 0;
                }
                raw = v.get(0);
            }
            return TableRegions.allowed(dest, localBits, region, (int) raw, (int) (long) config.get(1));
        });
        List<Step> steps = new ArrayList<>();
        boolean linksUp = true;
        for (RoutingTables.Hop h : hops) {
            Long status = null;
            if (h.out() >= 0 && failure[0] == null) {
                RequestPipe.Done d = pipe.call(MgmtRequest.readRegisters(tables.nrc(h.nrcId()).target(),
                        List.of(NrcRegisters.portAddress(h.out(), NmaRegisters.PORT_LINK_STATUS))));
                List<Long> v = Discovery.values(d.result());
                if (v == null) {
                    failure[0] = String.format("NRC 0x%04x LINK_STATUS read: %s", h.nrcId(), Discovery.describe(d.result()));
                } else {
                    status = v.get(0);
                }
            }
            Step s = new Step(h, status);
            linksUp &= s.linkUp();
            steps.add(s);
        }
        boolean reachable = failure[0] == null && linksUp && tables.reaches(hops, to);
        return new Result(from, to, List.copyOf(steps), reachable, failure[0], fabric.now() - start);
    }
}
