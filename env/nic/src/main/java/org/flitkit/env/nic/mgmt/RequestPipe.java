package org.flitkit.env.nic.mgmt;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.flitkit.env.nic.fabric.ServerNic;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.fabric.Fabric;

/**
 * The management server's requests in flight: up to {@code window} at once on its endpoint, the rest queued in
 * order; the fabric runs while any is out, each answer (or timeout) goes to its callback, which may submit more.
 * Every request ends: ok, an error response, a refusal, a drop or a timeout (docs/th2-management.md).
 */
public final class RequestPipe {
    /** How a request ended, with its doorbell and answer cycles. */
    public record Done(MgmtRequest request, MgmtResult result, long sentAt, long endedAt) {
        public long cycles() {
            return endedAt - sentAt;
        }
    }

    private record Queued(MgmtRequest request, Consumer<Done> then) {
    }

    private record Flying(MgmtRequest request, Consumer<Done> then, long sentAt) {
    }

    private final ServerNic server;
    private final Fabric fabric;
    private final int window;
    private final long timeout;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private final Map<Integer, Flying> flying = new LinkedHashMap<>();
    private long sent;
    private long timeouts;
    private long failures;

    /**
     * {@code window}: requests in flight at most (below the endpoint's ring size); {@code timeout}: cycles from the
     * doorbell after which a request is abandoned.
     */
    public RequestPipe(ServerNic server, Fabric fabric, int window, long timeout) {
        if (window < 1 || window > 1 << server.endpointLog2() - 1) {
            throw new IllegalArgumentException("window must be 1.." + (1 << server.endpointLog2() - 1) + " (half the endpoint's ring), got " + window);
        }
        if (timeout < 1) {
            throw new IllegalArgumentException("timeout must be at least 1 cycle, got " + timeout);
        }
        this.server = server;
        this.fabric = fabric;
        this.window = window;
        this.timeout = timeout;
    }

    /** Queues {@code r}; {@code then} gets its end during a later {@link #drain}. */
    public void submit(MgmtRequest r, Consumer<Done> then) {
        queue.add(new Queued(r, then));
    }

    /** Runs the fabric until every submitted request (and every one its callbacks submit) has ended. */
    public void drain() {
        fill();
        while (!flying.isEmpty()) {
            fabric.run(1);
            long now = fabric.now();
            // one read of the MPQ and EQ per cycle, then each request takes its answer if it came
            server.endpoint.poll();
            for (Iterator<Map.Entry<Integer, Flying>> it = flying.entrySet().iterator(); it.hasNext();) {
                Map.Entry<Integer, Flying> e = it.next();
                Flying f = e.getValue();
                Optional<MgmtResult> got = server.endpoint.take(e.getKey());
                MgmtResult r;
                if (got.isPresent()) {
                    r = got.get();
                } else if (now - f.sentAt >= timeout) {
                    server.endpoint.abandon(e.getKey());
                    r = new MgmtResult.Timeout(e.getKey(), now - f.sentAt);
                    timeouts++;
                } else {
                    continue;
                }
                if (!(r instanceof MgmtResult.Ok)) {
                    failures++;
                }
                it.remove();
                f.then.accept(new Done(f.request, r, f.sentAt, now));
            }
            fill();
        }
    }

    /** Submits {@code r} and runs until it (and everything queued before it) has ended; returns how it ended. */
    public Done call(MgmtRequest r) {
        Done[] out = new Done[1];
        submit(r, d -> out[0] = d);
        drain();
        return out[0];
    }

    private void fill() {
        while (flying.size() < window && !queue.isEmpty()) {
            Queued q = queue.poll();
            long at = fabric.now();
            int tid = server.endpoint.send(q.request);
            sent++;
            flying.put(tid, new Flying(q.request, q.then, at));
        }
    }

    /** Requests sent so far. */
    public long sent() {
        return sent;
    }

    /** Requests that ended in a timeout. */
    public long timeouts() {
        return timeouts;
    }

    /** Requests that ended in anything but an ok answer (timeouts included). */
    public long failures() {
        return failures;
    }
}
