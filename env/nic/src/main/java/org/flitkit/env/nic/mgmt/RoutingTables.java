package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nrc.chip.TableImage;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.rtl.nrc.switchcore.TableRegions;

/**
 * Data routing tables for every NRC the server discovered (docs/th2-management.md, "Routing tables"): for each NIC
 * destination, the set of outputs on a shortest path to its NRC (on a fat tree, minimal up*{@literal /}down* routes with
 * every uplink of the way up allowed, so the switch chooses among them by load), the NIC's own port at its NRC.
 * Each NRC's sets are held as the hardware holds them, a table by region ({@link TableRegions}): the generator
 * picks per NRC the coarsest regions that keep every set exact and the fewest entries. Loaded in band through
 * NRC_TABLE_REGION, NRC_TABLE_DEFAULT, NRC_TABLE_ADDR and NRC_TABLE_DATA (every input port's table at once), written
 * as E2PROM images for power-up, and replayed in software as a path trace does.
 */
public final class RoutingTables {
    /** entries of a port's table (docs/th2-nrc-switch.md) */
    public static final int ENTRIES = SwitchParams.TH2.tableEntries();
    /** region sizes the generator tries: 2^1 .. 2^9 DestIDs (2^10 would leave no room for region entries) */
    static final int MAX_LOCAL_BITS = Integer.numberOfTrailingZeros(ENTRIES) - 1;

    /**
     * One NRC's table as loaded: how it is indexed ({@code localBits} 0: flat), its own region, the fallback of
     * empty region entries, and the entries written (index to allowed outputs; every other entry stays 0).
     */
    public record Table(int localBits, int region, int fallback, SortedMap<Integer, Integer> entries) {
        /** The outputs this table allows a packet to {@code dest}, as the switch reads it. */
        public int allowed(int dest) {
            int i = TableRegions.index(dest, localBits, region, ENTRIES);
            return TableRegions.allowed(dest, localBits, region, i < 0 ? 0 : entries.getOrDefault(i, 0), fallback);
        }

        /** NRC_TABLE_REGION's value. */
        public long regionRegister() {
            return NrcRegisters.TABLE_REGION_FIELDS.field("local_bits").set(0, localBits)
                    | NrcRegisters.TABLE_REGION_FIELDS.field("region").set(0, region);
        }

        /** The register writes that load this table: NRC_TABLE_REGION, NRC_TABLE_DEFAULT, then the entries (all ports). */
        public List<BootImage.Record> records() {
            List<BootImage.Record> l = new ArrayList<>(List.of(
                    new BootImage.Record(NrcRegisters.address(NrcRegisters.TABLE_REGION), regionRegister()),
                    new BootImage.Record(NrcRegisters.address(NrcRegisters.TABLE_DEFAULT), fallback)));
            TableImage image = new TableImage();
            entries.forEach(image::allPorts);
            l.addAll(image.records());
            return l;
        }
    }

    private final Map<Integer, Table> tables = new HashMap<>();
    private final Map<Integer, Discovery.FoundNrc> nrcs = new HashMap<>();
    private final Map<Integer, Discovery.FoundNic> nics = new HashMap<>();

    private RoutingTables(Discovery.Result found) {
        found.nrcs().forEach(n -> nrcs.put(n.chipId(), n));
        found.nics().forEach(n -> nics.put(n.chipId(), n));
    }

    /**
     * Shortest-path tables to every NIC found, over the discovered links that are up (neighbour NRC), each NRC's as a
     * table by region. Fails when an NRC's sets fit no region size, or when following fallbacks could go round a
     * cycle (a packet to a DestID nobody has must end at a chip without a fallback, dropped and counted).
     */
    public static RoutingTables shortestPaths(Discovery.Result found) {
        RoutingTables t = new RoutingTables(found);
        List<Discovery.FoundNrc> order = found.nrcs();
        Map<Integer, Integer> index = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            index.put(order.get(i).chipId(), i);
        }
        int[][] next = new int[order.size()][Th2.NRC_PORTS];
        for (int i = 0; i < order.size(); i++) {
            Neighbour[] ports = order.get(i).ports();
            for (int p = 0; p < Th2.NRC_PORTS; p++) {
                Neighbour nb = ports[p];
                next[i][p] = nb != null && nb.kind() == Neighbour.Kind.NRC && index.containsKey(nb.chipId()) ? index.get(nb.chipId()) : -1;
            }
        }
        // hops from every NRC to each NRC that has NICs
        List<Integer> targets = found.nics().stream().map(n -> index.get(n.nrcId())).distinct().sorted().toList();
        Map<Integer, Integer> targetOf = new HashMap<>();
        short[][] dist = new short[targets.size()][];
        for (int k = 0; k < targets.size(); k++) {
            targetOf.put(targets.get(k), k);
            dist[k] = distances(next, targets.get(k));
        }
        int maxNic = found.nics().stream().mapToInt(Discovery.FoundNic::chipId).max().orElse(-1);
        int[] nicNrc = new int[maxNic + 1];
        int[] nicPort = new int[maxNic + 1];
        java.util.Arrays.fill(nicNrc, -1);
        for (Discovery.FoundNic n : found.nics()) {
            nicNrc[n.chipId()] = targetOf.get(index.get(n.nrcId()));
            nicPort[n.chipId()] = n.nrcPort();
        }
        for (int x = 0; x < order.size(); x++) {
            int[] toward = new int[targets.size()];
            for (int k = 0; k < targets.size(); k++) {
                int dx = dist[k][x];
                for (int p = 0; p < Th2.NRC_PORTS; p++) {
                    if (dx > 0 && next[x][p] >= 0 && dist[k][next[x][p]] == dx - 1) {
                        toward[k] |= 1 << p;
                    }
                }
            }
            // the set per NIC CHIP_ID (-1: no such NIC)
            int[] sets = new int[maxNic + 1];
            for (int d = 0; d <= maxNic; d++) {
                int k = nicNrc[d];
                sets[d] = k < 0 ? -1 : targets.get(k) == x ? 1 << nicPort[d] : toward[k];
            }
            t.tables.put(order.get(x).chipId(), byRegion(order.get(x).chipId(), sets));
        }
        t.checkFallbacksEnd(order, index);
        return t;
    }

    /** Hops from every NRC to NRC {@code to} (-1: unreachable), over {@code next}. */
    private static short[] distances(int[][] next, int to) {
        short[] d = new short[next.length];
        java.util.Arrays.fill(d, (short) -1);
        d[to] = 0;
        int[] queue = new int[next.length];
        int head = 0;
        int tail = 0;
        queue[tail++] = to;
        while (head < tail) {
            int x = queue[head++];
            for (int y : next[x]) {
                if (y >= 0 && d[y] < 0) {
                    d[y] = (short) (d[x] + 1);
                    queue[tail++] = y;
                }
            }
        }
        return d;
    }

    /**
     * NRC {@code nrcId}'s sets ({@code sets[d]} for NIC d, -1: no such NIC) as the table by region with the fewest
     * entries that gives every NIC exactly its set; regions whose set is the majority's take the fallback. A region
     * entry is only written for a region every DestID of which is a NIC found: a DestID nobody has then only ever
     * follows fallbacks (which end, {@link #checkFallbacksEnd}) or meets an empty local entry, and is dropped.
     */
    static Table byRegion(int nrcId, int[] sets) {
        Table best = null;
        if (sets.length <= ENTRIES) {
            SortedMap<Integer, Integer> flat = new TreeMap<>();
            for (int d = 0; d < sets.length; d++) {
                if (sets[d] > 0) {
                    flat.put(d, sets[d]);
                }
            }
            best = new Table(0, 0, 0, flat);
        }
        for (int lb = 1; lb <= MAX_LOCAL_BITS; lb++) {
            Table t = withRegions(sets, lb);
            if (t != null && (best == null || t.entries().size() < best.entries().size())) {
                best = t;
            }
        }
        if (best == null) {
            throw new IllegalStateException(String.format("NRC 0x%04x: its routes fit no table by region of %d entries", nrcId, ENTRIES));
        }
        for (int d = 0; d < sets.length; d++) {
            if (sets[d] >= 0 && best.allowed(d) != sets[d]) {
                throw new IllegalStateException(String.format("NRC 0x%04x: the table gives NIC 0x%x outputs %s, not %s", nrcId, d,
                        ports(best.allowed(d)), ports(sets[d])));
            }
        }
        return best;
    }

    /** The table with regions of 2^lb DestIDs, or null when the sets need more than one region's entries per DestID. */
    private static Table withRegions(int[] sets, int lb) {
        int regions = (sets.length + (1 << lb) - 1) >> lb;
        int[] set = new int[regions];
        boolean[] uniform = new boolean[regions];
        boolean[] any = new boolean[regions];
        int[] nics = new int[regions];
        for (int d = 0; d < sets.length; d++) {
            if (sets[d] < 0) {
                continue;
            }
            int r = d >> lb;
            nics[r]++;
            if (!any[r]) {
                any[r] = true;
                uniform[r] = true;
                set[r] = sets[d];
            } else if (set[r] != sets[d]) {
                uniform[r] = false;
            }
        }
        int own = TableRegions.NO_REGION;
        for (int r = 0; r < regions; r++) {
            if (any[r] && !uniform[r]) {
                if (own != TableRegions.NO_REGION) {
                    return null;
                }
                own = r;
            }
        }
        // the fallback: the set of more than half the regions that have NICs (on a tree, the way up)
        Map<Integer, Integer> votes = new HashMap<>();
        int counted = 0;
        for (int r = 0; r < regions; r++) {
            if (any[r] && r != own && set[r] != 0) {
                votes.merge(set[r], 1, Integer::sum);
                counted++;
            }
        }
        int fallback = 0;
        for (Map.Entry<Integer, Integer> e : votes.entrySet()) {
            if (2 * e.getValue() > counted) {
                fallback = e.getKey();
            }
        }
        SortedMap<Integer, Integer> entries = new TreeMap<>();
        for (int d = 0; own != TableRegions.NO_REGION && d < sets.length; d++) {
            if (d >> lb == own && sets[d] > 0) {
                entries.put(d & ((1 << lb) - 1), sets[d]);
            }
        }
        for (int r = 0; r < regions; r++) {
            if (!any[r] || r == own || set[r] == fallback) {
                continue;
            }
            int i = (1 << lb) + r;
            if (i >= ENTRIES || set[r] == 0 || nics[r] != 1 << lb) {
                // past the table it could only fall back, an empty entry falls back too; and a region entry must not
                // send DestIDs nobody has away from their fallback: they could come back by a fallback, round and round
                return null;
            }
            entries.put(i, set[r]);
        }
        return new Table(lb, own, fallback, entries);
    }

    /** Following fallback outputs from any NRC never comes back to it. */
    private void checkFallbacksEnd(List<Discovery.FoundNrc> order, Map<Integer, Integer> index) {
        int[] state = new int[order.size()]; // 0 new, 1 on the path, 2 done
        for (int s = 0; s < order.size(); s++) {
            if (state[s] == 0) {
                visitFallbacks(s, order, index, state);
            }
        }
    }

    private void visitFallbacks(int x, List<Discovery.FoundNrc> order, Map<Integer, Integer> index, int[] state) {
        state[x] = 1;
        Discovery.FoundNrc n = order.get(x);
        int fb = tables.get(n.chipId()).fallback();
        for (int p = 0; p < Th2.NRC_PORTS; p++) {
            Neighbour nb = n.ports()[p];
            if ((fb >> p & 1) == 0 || nb == null || nb.kind() != Neighbour.Kind.NRC || !index.containsKey(nb.chipId())) {
                continue;
            }
            int y = index.get(nb.chipId());
            if (state[y] == 1) {
                throw new IllegalStateException(String.format("the fallbacks of NRC 0x%04x and 0x%04x form a cycle", n.chipId(), nb.chipId()));
            }
            if (state[y] == 0) {
                visitFallbacks(y, order, index, state);
            }
        }
        state[x] = 2;
    }

    /** Allowed outputs (bit p = port p) at NRC {@code nrcId} for a packet to NIC {@code nicId}, as its table gives them. */
    public int mask(int nrcId, int nicId) {
        Table t = tables.get(nrcId);
        return t == null ? 0 : t.allowed(nicId);
    }

    /** NRC {@code nrcId}'s table. */
    public Table table(int nrcId) {
        nrc(nrcId);
        return tables.get(nrcId);
    }

    /** The NRC with CHIP_ID {@code nrcId} as discovery found it. */
    public Discovery.FoundNrc nrc(int nrcId) {
        Discovery.FoundNrc n = nrcs.get(nrcId);
        if (n == null) {
            throw new IllegalArgumentException(String.format("no NRC 0x%04x was found", nrcId));
        }
        return n;
    }

    /** Entries written over all NRCs. */
    public long entries() {
        return tables.values().stream().mapToLong(t -> t.entries().size()).sum();
    }

    /** NRC CHIP_IDs in order. */
    public List<Integer> nrcIds() {
        return tables.keySet().stream().sorted().toList();
    }

    /**
     * NRC {@code nrcId}'s E2PROM image for power-up: its CHIP_ID, then its table ({@link Table#records}); fails when
     * it does not fit the E2PROM.
     */
    public byte[] eepromImage(int nrcId) {
        List<BootImage.Record> records = new ArrayList<>();
        records.add(new BootImage.Record(NrcRegisters.address(NmaRegisters.CHIP_ID), nrcId));
        records.addAll(table(nrcId).records());
        return BootImage.at(0, BootImage.build(records));
    }

    /**
     * Writes every NRC's table (all input ports alike) in band, two register writes per request, in the order of
     * {@link Table#records}; returns the requests that failed. The tables are expected at their reset contents.
     */
    public long load(RequestPipe pipe) {
        long[] failed = {0};
        for (int id : nrcIds()) {
            Discovery.FoundNrc n = nrcs.get(id);
            List<BootImage.Record> r = tables.get(id).records();
            for (int i = 0; i < r.size(); i += 2) {
                List<BootImage.Record> two = r.subList(i, Math.min(i + 2, r.size()));
                pipe.submit(MgmtRequest.writeRegisters(n.target(), two.stream().map(BootImage.Record::address).toList(),
                        two.stream().map(BootImage.Record::value).toList()), d -> failed[0] += Discovery.values(d.result()) == null ? 1 : 0);
            }
        }
        pipe.drain();
        return failed[0];
    }

    /**
     * One line: the NRCs by region size (flat, or 2^L DestIDs), the entries written, the largest table, the load's
     * requests; e.g. {@code 6 NRCs (regions of 8: 4, of 32: 2), 192 entries (at most 32 per NRC), 102 requests}.
     */
    public String summary() {
        SortedMap<Integer, Integer> byBits = new TreeMap<>();
        tables.values().forEach(t -> byBits.merge(t.localBits(), 1, Integer::sum));
        List<String> kinds = new ArrayList<>();
        byBits.forEach((lb, n) -> kinds.add(String.format(java.util.Locale.ROOT, "%s: %,d", lb == 0 ? "flat" : "of " + (1 << lb), n)));
        int most = tables.values().stream().mapToInt(t -> t.entries().size()).max().orElse(0);
        return String.format(java.util.Locale.ROOT, "%,d NRCs (regions %s), %,d entries (at most %,d per NRC), %,d requests to load",
                tables.size(), String.join(", ", kinds), entries(), most, loadRequests());
    }

    /** Requests {@link #load} sends. */
    public long loadRequests() {
        return tables.values().stream().mapToLong(t -> (t.records().size() + 1) / 2).sum();
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
