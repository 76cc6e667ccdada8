package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nic.NicRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;

/**
 * Topology discovery by breadth-first search from the server's NIC, from NEIGHBOUR reads only (the paper's section
 * on topology discovery; spec 20-th2-management.md, "Topology discovery (BFS)"): the NRC on the server's cable
 * first, then for each NRC found the neighbour identity of its 24 ports, two per request; an NRC not seen before is
 * queued with its route extended by one hop. Requests are pipelined ({@link RequestPipe}); a chip that does not
 * answer is listed, never waited for forever.
 */
public final class Discovery {
    /** An NRC as found: its CHIP_ID, the source routes there and back, the neighbour at each port (null: unread). */
    public record FoundNrc(int chipId, List<Integer> forward, List<Integer> backward, Neighbour[] ports) {
        /** NRCs crossed before this one on the way from the server (0: the server's own NRC). */
        public int distance() {
            return forward.size();
        }

        public Target target() {
            return new Target(ChipType.NRC, chipId, new RoutingField(forward), new RoutingField(backward));
        }
    }

    /** A NIC as found: its CHIP_ID and the NRC port it hangs on. */
    public record FoundNic(int chipId, int nrcId, int nrcPort) {
    }

    /** A chip discovery could not read (or read only in part), and why. */
    public record Unreached(int chipId, String what) {
    }

    /** What discovery found, in the order found, and what it cost. */
    public record Result(List<FoundNrc> nrcs, List<FoundNic> nics, List<Unreached> unreached, long cycles, long requests, long failures) {
        public FoundNrc nrc(int chipId) {
            return nrcs.stream().filter(n -> n.chipId == chipId).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(String.format("no NRC 0x%04x was found", chipId)));
        }

        /** Cable ends in each neighbour case, over every port of every NRC found. */
        public Map<Neighbour.Kind, Integer> portCounts() {
            Map<Neighbour.Kind, Integer> m = new LinkedHashMap<>();
            for (Neighbour.Kind k : Neighbour.Kind.values()) {
                m.put(k, 0);
            }
            for (FoundNrc n : nrcs) {
                for (Neighbour p : n.ports) {
                    if (p != null) {
                        m.merge(p.kind(), 1, Integer::sum);
                    }
                }
            }
            return m;
        }

        /**
         * Every NIC found, as a request target: forward, its NRC's route and then the NRC's port to the NIC; back, the
         * NRC's route (the NIC's packets enter its NRC, which forwards them as its own).
         */
        public List<Target> nicTargets() {
            Map<Integer, FoundNrc> byId = new HashMap<>();
            nrcs.forEach(n -> byId.put(n.chipId, n));
            return nics.stream().map(nic -> nicTarget(nic, byId.get(nic.nrcId))).toList();
        }

        /** The NIC {@code chipId} found, as a request target (as {@link #nicTargets}). */
        public Target nicTarget(int chipId) {
            FoundNic nic = nics.stream().filter(n -> n.chipId == chipId).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(String.format("no NIC 0x%04x was found", chipId)));
            return nicTarget(nic, nrc(nic.nrcId));
        }

        private static Target nicTarget(FoundNic nic, FoundNrc at) {
            List<Integer> forward = new ArrayList<>(at.forward);
            forward.add(nic.nrcPort);
            return new Target(ChipType.NIC, nic.chipId, new RoutingField(forward), new RoutingField(at.backward));
        }
    }

    /** The address of register {@code name} on {@code t}'s chip type (the NRC's map or the NIC's). */
    public static int address(Target t, String name) {
        return t.type() == ChipType.NRC ? NrcRegisters.address(name) : NicRegisters.address(name);
    }

    /** Called as the search goes: NRCs found so far and NRCs whose ports are all read; each NRC as it is found. */
    public interface Progress {
        void update(int found, int read);

        default void found(FoundNrc n) {
        }
    }

    private static final int NEIGHBOURS_PER_REQUEST = 2;

    private final RequestPipe pipe;
    private final int serverId;
    private final int serverPort;
    private final Progress progress;
    private final Map<Integer, FoundNrc> nrcs = new LinkedHashMap<>();
    private final Map<Integer, FoundNic> nics = new LinkedHashMap<>();
    private final Map<Integer, Integer> unreadPorts = new HashMap<>();
    private final List<Unreached> unreached = new ArrayList<>();
    private int read;

    /**
     * {@code serverId}: the server NIC's CHIP_ID; {@code serverPort}: the port of its NRC that the server's cable is
     * plugged into (the operator's cabling plan: the server's NIC cannot read its own registers through the network).
     */
    public Discovery(RequestPipe pipe, int serverId, int serverPort, Progress progress) {
        if (serverPort < 0 || serverPort >= Th2.NRC_PORTS) {
            throw new IllegalArgumentException("the server's NRC port must be 0.." + (Th2.NRC_PORTS - 1) + ", got " + serverPort);
        }
        this.pipe = pipe;
        this.serverId = serverId;
        this.serverPort = serverPort;
        this.progress = progress;
    }

    /** Runs the search to its end: every reachable NRC read, every request ended. */
    public Result run(org.flitkit.fabric.Fabric fabric) {
        long start = fabric.now();
        long sent0 = pipe.sent();
        long failed0 = pipe.failures();
        // the server's own NRC answers whatever its CHIP_ID (0xFFFF), on the port the request came in by
        Target first = new Target(ChipType.NRC, Th2.CHIP_ID_ANY, new RoutingField(List.of()), new RoutingField(List.of(serverPort)));
        pipe.submit(MgmtRequest.readRegisters(first, List.of(NrcRegisters.address(NmaRegisters.CHIP_ID), NrcRegisters.portAddress(serverPort, NmaRegisters.PORT_NEIGHBOUR))), d -> {
            List<Long> v = values(d.result());
            if (v == null) {
                unreached.add(new Unreached(Th2.CHIP_ID_ANY, "the server's NRC (port " + serverPort + "): " + describe(d.result())));
                return;
            }
            Neighbour server = Neighbour.fromWord(v.get(1));
            if (server == null || server.kind() != Neighbour.Kind.NIC || server.chipId() != serverId) {
                unreached.add(new Unreached((int) (long) v.get(0), "the server's NRC port " + serverPort + " sees " + (server == null ? "no neighbour" : server)
                        + ", not the server's NIC 0x" + Integer.toHexString(serverId) + ": wrong cabling plan"));
                return;
            }
            found((int) (long) v.get(0), List.of(), List.of(serverPort));
        });
        pipe.drain();
        return new Result(List.copyOf(nrcs.values()), List.copyOf(nics.values()), List.copyOf(unreached), fabric.now() - start,
                pipe.sent() - sent0, pipe.failures() - failed0);
    }

    private void found(int chipId, List<Integer> forward, List<Integer> backward) {
        FoundNrc n = new FoundNrc(chipId, forward, backward, new Neighbour[Th2.NRC_PORTS]);
        nrcs.put(chipId, n);
        unreadPorts.put(chipId, Th2.NRC_PORTS);
        for (int p = 0; p < Th2.NRC_PORTS; p += NEIGHBOURS_PER_REQUEST) {
            int first = p;
            List<Integer> addrs = new ArrayList<>();
            for (int q = p; q < p + NEIGHBOURS_PER_REQUEST; q++) {
                addrs.add(NrcRegisters.portAddress(q, NmaRegisters.PORT_NEIGHBOUR));
            }
            pipe.submit(MgmtRequest.readRegisters(n.target(), addrs), d -> {
                List<Long> v = Discovery.values(d.result());
                if (v == null) {
                    unreached.add(new Unreached(chipId, "ports " + first + ".." + (first + NEIGHBOURS_PER_REQUEST - 1) + ": " + describe(d.result())));
                    for (int i = 0; i < NEIGHBOURS_PER_REQUEST; i++) {
                        portRead(n, first + i, null);
                    }
                    return;
                }
                List<Integer> unknown = new ArrayList<>();
                for (int i = 0; i < NEIGHBOURS_PER_REQUEST; i++) {
                    if (!neighbour(n, first + i, v.get(i))) {
                        unknown.add(first + i);
                    }
                }
                if (!unknown.isEmpty()) {
                    linkDowns(n, unknown);
                }
            });
        }
        progress.found(n);
        progress.update(nrcs.size(), read);
    }

    /**
     * Records port {@code p}'s neighbour from its NEIGHBOUR word and queues an NRC not seen before; false if the word
     * names no neighbour (the link's counters then tell none from down).
     */
    private boolean neighbour(FoundNrc n, int p, long word) {
        Neighbour nb = Neighbour.fromWord(word);
        if (nb == null) {
            return false;
        }
        if (nb.kind() == Neighbour.Kind.NIC) {
            nics.putIfAbsent(nb.chipId(), new FoundNic(nb.chipId(), n.chipId, p));
        } else if (!nrcs.containsKey(nb.chipId())) {
            if (n.forward.size() + 1 > Th2.MAX_HOPS) {
                unreached.add(new Unreached(nb.chipId(), "beyond the " + Th2.MAX_HOPS + " hops a route can hold"));
            } else {
                List<Integer> fwd = new ArrayList<>(n.forward);
                fwd.add(p);
                List<Integer> bwd = new ArrayList<>();
                bwd.add(nb.port());
                bwd.addAll(n.backward);
                found(nb.chipId(), List.copyOf(fwd), List.copyOf(bwd));
            }
        }
        portRead(n, p, nb);
        return true;
    }

    /** Ports without a neighbour: a link that went down counted it in LINK_DOWNS; one that never came up did not. */
    private void linkDowns(FoundNrc n, List<Integer> ports) {
        List<Integer> addrs = ports.stream().map(p -> NrcRegisters.portAddress(p, NmaRegisters.PORT_LINK_DOWNS)).toList();
        pipe.submit(MgmtRequest.readRegisters(n.target(), addrs), d -> {
            List<Long> v = values(d.result());
            if (v == null) {
                unreached.add(new Unreached(n.chipId, "ports " + ports + " link counters: " + describe(d.result())));
            }
            for (int i = 0; i < ports.size(); i++) {
                portRead(n, ports.get(i), v == null ? null : v.get(i) > 0 ? Neighbour.DOWN : Neighbour.NONE);
            }
        });
    }

    private void portRead(FoundNrc n, int p, Neighbour nb) {
        n.ports[p] = nb;
        if (unreadPorts.merge(n.chipId, -1, Integer::sum) == 0) {
            read++;
            progress.update(nrcs.size(), read);
        }
    }

    /** The register values of an ok answer, null for anything else. */
    public static List<Long> values(MgmtResult r) {
        return r instanceof MgmtResult.Ok ok && ok.response().payload() instanceof RegisterPayload p ? p.data() : null;
    }

    public static String describe(MgmtResult r) {
        if (r instanceof MgmtResult.Error e) {
            return "error response " + e.code() + " (access " + e.index() + ")";
        } else if (r instanceof MgmtResult.Refused f) {
            return "refused by the NIC: " + f.reason();
        } else if (r instanceof MgmtResult.Dropped) {
            return "answer dropped at the full MPQ";
        } else if (r instanceof MgmtResult.Timeout t) {
            return "no answer in " + t.waited() + " cycles";
        }
        return "ok";
    }
}
