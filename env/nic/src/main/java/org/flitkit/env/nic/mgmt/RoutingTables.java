package org.flitkit.env.nic.mgmt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;

/**
 * Data routing tables for every NRC the server discovered (docs/th2-management.md, "Routing tables"): for each NIC
 * destination, the set of outputs on a shortest path to its NRC (on a fat tree, minimal up*{@literal /}down* routes with
 * every uplink of the way up allowed, so the switch chooses among them by load), the NIC's own port at its NRC.
 * Computed from the discovered adjacency, loaded in band through NRC_TABLE_ADDR and NRC_TABLE_DATA (every input
 * port's table at once), and replayed in software as a path trace does.
 */
public final class RoutingTables {
    /** entries of a port's table: DestID mod this picks the entry (docs/th2-nrc-switch.md) */
    public static final int ENTRIES = SwitchParams.TH2.tableEntries();

    private final Map<Integer, int[]> masks = new HashMap<>();
    private final Map<Integer, Discovery.FoundNrc> nrcs = new HashMap<>();
    private final Map<Integer, Discovery.FoundNic> nics = new HashMap<>();
    private final int entries;

    private RoutingTables(Discovery.Result found) {
        int maxNic = found.nics().stream().mapToInt(Discovery.FoundNic::chipId).max().orElse(-1);
        if (maxNic >= ENTRIES) {
            throw new IllegalArgumentException("NIC CHIP_ID 0x" + Integer.toHexString(maxNic) + " does not fit a table of " + ENTRIES
                    + " entries indexed by DestID mod " + ENTRIES + ": destinations would alias (tables by region are not modelled)");
        }
        entries = maxNic + 1;
        found.nrcs().forEach(n -> nrcs.put(n.chipId(), n));
        found.nics().forEach(n -> nics.put(n.chipId(), n));
    }

    /** Shortest-path tables to every NIC found, from the discovered links that are up (neighbour NRC). */
    public static RoutingTables shortestPaths(Discovery.Result found) {
        RoutingTables t = new RoutingTables(found);
        for (Discovery.FoundNrc n : found.nrcs()) {
            t.masks.put(n.chipId(), new int[t.entries]);
        }
        Map<Integer, List<Discovery.FoundNic>> byNrc = new HashMap<>();
        found.nics().forEach(nic -> byNrc.computeIfAbsent(nic.nrcId(), k -> new ArrayList<>()).add(nic));
        for (Map.Entry<Integer, List<Discovery.FoundNic>> e : byNrc.entrySet()) {
            Map<Integer, Integer> dist = t.distancesTo(e.getKey());
            for (Discovery.FoundNrc x : found.nrcs()) {
                Integer dx = dist.get(x.chipId());
                if (dx == null) {
                    continue;
                }
                int toward = 0;
                for (int p = 0; p < Th2.NRC_PORTS; p++) {
                    Neighbour nb = x.ports()[p];
                    if (nb != null && nb.kind() == Neighbour.Kind.NRC && Integer.valueOf(dx - 1).equals(dist.get(nb.chipId()))) {
                        toward |= 1 << p;
                    }
                }
                int[] row = t.masks.get(x.chipId());
                for (Discovery.FoundNic nic : e.getValue()) {
                    row[nic.chipId()] = x.chipId() == e.getKey() ? 1 << nic.nrcPort() : toward;
                }
            }
        }
        return t;
    }

    /** NRCs by hops to NRC {@code to}, over links up in both directions as discovery saw them. */
    private Map<Integer, Integer> distancesTo(int to) {
        Map<Integer, Integer> d = new HashMap<>();
        d.put(to, 0);
        ArrayDeque<Integer> q = new ArrayDeque<>(List.of(to));
        while (!q.isEmpty()) {
            Discovery.FoundNrc x = nrcs.get(q.poll());
            for (Neighbour nb : x.ports()) {
                if (nb != null && nb.kind() == Neighbour.Kind.NRC && nrcs.containsKey(nb.chipId()) && !d.containsKey(nb.chipId())) {
                    d.put(nb.chipId(), d.get(x.chipId()) + 1);
                    q.add(nb.chipId());
                }
            }
        }
        return d;
    }

    /** Allowed outputs (bit p = port p) at NRC {@code nrcId} for a packet to NIC {@code nicId}; 0: no route. */
    public int mask(int nrcId, int nicId) {
        int[] row = masks.get(nrcId);
        return row == null || nicId < 0 || nicId >= entries ? 0 : row[nicId];
    }

    /** The NRC with CHIP_ID {@code nrcId} as discovery found it. */
    public Discovery.FoundNrc nrc(int nrcId) {
        Discovery.FoundNrc n = nrcs.get(nrcId);
        if (n == null) {
            throw new IllegalArgumentException(String.format("no NRC 0x%04x was found", nrcId));
        }
        return n;
    }

    /** Table entries written per NRC: the NIC CHIP_IDs 0..entries-1. */
    public int entries() {
        return entries;
    }

    /** Writes every NRC's table (all input ports alike) in band; returns the requests that failed. */
    public long load(RequestPipe pipe) {
        long[] failed = {0};
        int addr = NrcRegisters.address(NrcRegisters.TABLE_ADDR);
        int data = NrcRegisters.address(NrcRegisters.TABLE_DATA);
        long allPorts = 1L << NrcRegisters.TABLE_POINTER.field("all_ports").lsb();
        for (Discovery.FoundNrc n : nrcs.values().stream().sorted((a, b) -> Integer.compare(a.chipId(), b.chipId())).toList()) {
            int[] row = masks.get(n.chipId());
            pipe.submit(MgmtRequest.writeRegisters(n.target(), List.of(addr), List.of(allPorts)), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
            // two entries per request: NRC_TABLE_DATA advances the entry on each write
            for (int i = 0; i < row.length; i += 2) {
                List<Integer> a = i + 1 < row.length ? List.of(data, data) : List.of(data);
                List<Long> v = i + 1 < row.length ? List.of((long) row[i], (long) row[i + 1]) : List.of((long) row[i]);
                pipe.submit(MgmtRequest.writeRegisters(n.target(), a, v), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
            }
        }
        pipe.drain();
        return failed[0];
    }

    /** One hop of a path: the NRC, the port the packet came in by, the allowed outputs, the one taken (-1: none). */
    public record Hop(int nrcId, int inPort, int allowed, int out) {
        @Override
        public String toString() {
            return String.format("NRC 0x%04x in %d allowed %s out %s", nrcId, inPort, ports(allowed), out < 0 ? "none" : Integer.toString(out));
        }
    }

    /** The ports set in {@code mask}, e.g. {@code {12,13,14}}. */
    public static String ports(int mask) {
        List<Integer> l = new ArrayList<>();
        for (int p = 0; p < Th2.NRC_PORTS; p++) {
            if ((mask >> p & 1) != 0) {
                l.add(p);
            }
        }
        return l.toString().replace(" ", "").replace('[', '{').replace(']', '}');
    }

    /**
     * Replays the switch's decision on an idle network from NIC {@code from} to NIC {@code to} over these tables: at
     * each NRC the lowest allowed output (equal credits tie to the lower port, docs/th2-nrc-switch.md) until the
     * packet leaves on the destination NIC's port; stops at an empty entry or after {@link Th2#MAX_HOPS} NRCs.
     */
    public List<Hop> replay(int from, int to) {
        return replay(from, to, (nrc, in, dest) -> mask(nrc, dest));
    }

    /** Where a replay reads an entry: these tables, or a chip's table read back (a path trace). */
    public interface Entries {
        int read(int nrcId, int inPort, int dest);
    }

    /** The replay over entries read from {@code entries}. */
    public List<Hop> replay(int from, int to, Entries entries) {
        Discovery.FoundNic src = nics.get(from);
        if (src == null || !nics.containsKey(to)) {
            throw new IllegalArgumentException("no NIC 0x" + Integer.toHexString(src == null ? from : to) + " was found");
        }
        List<Hop> path = new ArrayList<>();
        int nrc = src.nrcId();
        int in = src.nrcPort();
        while (path.size() < Th2.MAX_HOPS) {
            int allowed = entries.read(nrc, in, to);
            int out = allowed == 0 ? -1 : Integer.numberOfTrailingZeros(allowed);
            path.add(new Hop(nrc, in, allowed, out));
            Neighbour nb = out < 0 ? null : nrcs.get(nrc).ports()[out];
            if (nb == null || nb.kind() != Neighbour.Kind.NRC) {
                break;
            }
            nrc = nb.chipId();
            in = nb.port();
        }
        return path;
    }

    /** Whether {@code path} ends on NIC {@code to}'s port at its NRC. */
    public boolean reaches(List<Hop> path, int to) {
        Hop last = path.get(path.size() - 1);
        Discovery.FoundNic dst = nics.get(to);
        return dst != null && last.nrcId() == dst.nrcId() && last.out() == dst.nrcPort();
    }
}
