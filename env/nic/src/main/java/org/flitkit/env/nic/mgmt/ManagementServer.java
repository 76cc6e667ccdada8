package org.flitkit.env.nic.mgmt;

import org.flitkit.env.nic.fabric.ServerNic;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.testbench.RunConfig;

/**
 * The TH-2 management server on a machine of whole chips: a {@link Th2Machine} with the server's NIC
 * ({@link ServerNic}) on one node, its request pipeline, and the management functions on top (discovery, and the
 * others in this package). docs/th2-management.md.
 */
public final class ManagementServer implements AutoCloseable {
    /** requests in flight at once by default (the endpoint's rings hold 64) */
    public static final int WINDOW = 16;
    /** cycles after which a request is given up by default (a 9-hop round trip takes under 1,000) */
    public static final long TIMEOUT = 20_000;

    public final Th2Machine machine;
    public final ServerNic server;
    public final RequestPipe pipe;
    /** every fault report that reaches the server's VP, from the start */
    public final FaultLog faults;

    public ManagementServer(Th2FatTree tree, Th2Machine.Protos protos, int threads, int serverNode, int window, long timeout) {
        this(new Th2Machine(tree, protos, threads, false, serverNode), window, timeout);
    }

    /** The server on {@code machine}, whose {@code serverNode}'s cable is left for the server's NIC. */
    public ManagementServer(Th2Machine machine, int window, long timeout) {
        if (machine.serverNode < 0) {
            throw new IllegalArgumentException("the machine has no server node: build it with one");
        }
        this.machine = machine;
        server = new ServerNic(machine, RunConfig.of(1, 0));
        pipe = new RequestPipe(server, machine.fabric, window, timeout);
        faults = new FaultLog(server.endpoint);
    }

    /** Runs until every link has trained and gone idle; returns the cycles. */
    public long powerUp(long maxCycles) {
        return machine.runUntilSettled(maxCycles);
    }

    /** Breadth-first discovery from the server's NIC (NEIGHBOUR reads only). */
    public Discovery.Result discover(Discovery.Progress progress) {
        return new Discovery(pipe, server.chipId(), server.nrcPort(), progress).run(machine.fabric);
    }

    /** Tells every NRC and NIC found to report its faults to the server; returns the requests that failed. */
    public long enableFaultReports(Discovery.Result found) {
        return FaultLog.configure(pipe, found, server.chipId(), server.endpoint.vp);
    }

    /** One status scan of every NRC found: every port's status registers and the chip's temperature. */
    public StatusScan.Snapshot scan(Discovery.Result found, int perRequest) {
        return new StatusScan(pipe, perRequest, true).scan(found.nrcs(), machine.fabric);
    }

    /** Microseconds of {@code cycles} at the chips' clock (the link frame rate, docs/th2-link.md). */
    public static double micros(long cycles) {
        return cycles / LinkFrame.clockHz() * 1e6;
    }

    @Override
    public void close() {
        server.close();
        machine.close();
    }
}
