package org.flitkit.env.nic.mgmt;

/**
 * Discovery on a loaded machine (the paper's evaluation: 472,822 us idle, 490,885 us under AlltoAll, +3.8 %;
 * docs/th2-management.md, "Discovery under AlltoAll traffic"): the machine discovered idle, its routing tables
 * loaded in band, every node's NIC sending AlltoAll data ({@link org.flitkit.env.nic.fabric.Th2Machine#alltoall}),
 * a warm-up, then the same discovery again while the data flows; at the end the traffic stops and the fabric
 * drains, so every data packet sent can be counted as received.
 */
public final class TrafficDiscovery {
    /**
     * Both discoveries, the requests that loaded the tables, the data packets sent and received while the loaded
     * discovery ran, and all sent and received once drained.
     */
    public record Result(Discovery.Result idle, Discovery.Result loaded, long loadRequests, long sentDuring, long receivedDuring,
                         long sent, long received) {
        /** The loaded discovery's time against the idle one's, in percent. */
        public double increasePercent() {
            return 100.0 * (loaded.cycles() - idle.cycles()) / idle.cycles();
        }
    }

    private TrafficDiscovery() {
    }

    /**
     * Runs it on {@code ms} (powered up): AlltoAll with a packet every {@code interval} cycles per node, {@code warmup}
     * cycles before the loaded discovery; waits at most {@code drainCycles} for the fabric to empty at the end.
     */
    public static Result run(ManagementServer ms, int interval, long warmup, long drainCycles, Discovery.Progress progress) {
        return run(ms, interval, warmup, drainCycles, () -> ms.discover(progress));
    }

    /** As above, each discovery run by {@code discover} (a command line's, which reports as it goes). */
    public static Result run(ManagementServer ms, int interval, long warmup, long drainCycles, java.util.function.Supplier<Discovery.Result> discover) {
        Discovery.Result idle = discover.get();
        RoutingTables tables = RoutingTables.shortestPaths(idle);
        long failed = tables.load(ms.pipe);
        if (failed != 0) {
            throw new IllegalStateException(failed + " requests loading the routing tables failed");
        }
        ms.machine.alltoall(interval);
        ms.machine.fabric.run(warmup);
        long[] before = packets(ms);
        Discovery.Result loaded = discover.get();
        long[] after = packets(ms);
        ms.machine.alltoall(0);
        // drained when every packet sent has arrived: counted every 1,000 cycles, not every cycle (a peek of every NIC)
        long limit = ms.machine.fabric.now() + drainCycles;
        long[] end = packets(ms);
        while (end[0] != end[1] && ms.machine.fabric.now() < limit) {
            ms.machine.fabric.run(Math.min(1_000, limit - ms.machine.fabric.now()));
            end = packets(ms);
        }
        return new Result(idle, loaded, tables.loadRequests(), after[0] - before[0], after[1] - before[1], end[0], end[1]);
    }

    /** Data packets sent and received, the server's NIC (which receives its share) included. */
    private static long[] packets(ManagementServer ms) {
        long[] p = ms.machine.dataPackets();
        p[1] += ms.server.dataReceived();
        return p;
    }
}
