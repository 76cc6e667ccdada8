package org.flitkit.console;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.flitkit.env.nic.mgmt.Discovery;
import org.flitkit.env.nic.mgmt.FaultLog;
import org.flitkit.env.nic.mgmt.ManagementServer;
import org.flitkit.env.nic.mgmt.RequestPipe;
import org.flitkit.env.nic.mgmt.RoutingTables;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;

/**
 * The management server and its simulated machine behind the console, owned by one thread: every request from
 * the web side becomes a {@link Job} that this thread runs in order; between jobs the machine runs on (idle chips
 * sleep, fault reports arrive, the watched NRC's link counters are read in band). Listeners hear of jobs, log lines,
 * fault reports and traffic samples. docs/th2-console.md.
 */
public final class MachineSession implements AutoCloseable {
    /** cycles the machine runs between two looks at the job queue when no job waits */
    public static final long IDLE_STEP = 2_000;
    /** traffic samples kept per watched NRC */
    public static final int TRAFFIC_SAMPLES = 120;
    /** idle steps between two traffic samples */
    public static final int SAMPLE_EVERY = 2;

    /** What the web side hears: a job changed, a log line, a fault report, a traffic sample. */
    public interface Listener {
        void event(String type, Object data);
    }

    /** A unit of work for the simulation thread; its state as the page sees it. */
    public static final class Job {
        public final int id;
        public final String kind;
        public volatile String state = "queued";
        public volatile String progress = "";
        public volatile Object result;
        public volatile String error;
        final Function<Job, Object> body;
        final CompletableFuture<Job> done = new CompletableFuture<>();

        Job(int id, String kind, Function<Job, Object> body) {
            this.id = id;
            this.kind = kind;
            this.body = body;
        }

        public Map<String, Object> view() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            m.put("kind", kind);
            m.put("state", state);
            m.put("progress", progress);
            if (result != null) {
                m.put("result", result);
            }
            if (error != null) {
                m.put("error", error);
            }
            return m;
        }
    }

    public final ManagementServer ms;
    public final Th2FatTree tree;
    public final String topology;
    private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, Job> jobs = new LinkedHashMap<>();
    private final List<Listener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Deque<String> log = new ArrayDeque<>();
    private final Thread thread;
    private volatile boolean running = true;

    // owned by the simulation thread; read by the web side through snapshots
    private volatile Discovery.Result found;
    private volatile RoutingTables tables;
    private final Set<Integer> cutCables = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Set<Integer> deadNrcs = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile int faultsSeen;
    private volatile long cycle;
    private volatile int alltoall;
    private volatile Integer watched;
    private final Deque<Map<String, Object>> samples = new ArrayDeque<>();
    private int idleSteps;

    public MachineSession(String topology, ManagementServer ms) {
        this.topology = topology;
        this.ms = ms;
        this.tree = ms.machine.tree;
        thread = new Thread(this::loop, "machine");
        thread.setDaemon(true);
    }

    /** Powers the machine up and starts the simulation thread. */
    public void start() {
        ms.powerUp(200_000);
        cycle = ms.machine.fabric.now();
        log(String.format(Locale.ROOT, "machine %s: %,d NRCs, %,d NICs; every link up by cycle %,d", topology, tree.nrcs().size(), tree.nodes().size(), cycle));
        thread.start();
    }

    public void listen(Listener l) {
        listeners.add(l);
    }

    public void unlisten(Listener l) {
        listeners.remove(l);
    }

    private void emit(String type, Object data) {
        for (Listener l : listeners) {
            try {
                l.event(type, data);
            } catch (RuntimeException e) {
                listeners.remove(l);
            }
        }
    }

    /** A log line, kept (the last 500) and sent to listeners. */
    public void log(String line) {
        String l = String.format(Locale.ROOT, "[%,d] %s", ms.machine.fabric.now(), line);
        synchronized (log) {
            log.addLast(l);
            while (log.size() > 500) {
                log.removeFirst();
            }
        }
        emit("log", l);
    }

    public List<String> logLines() {
        synchronized (log) {
            return new ArrayList<>(log);
        }
    }

    /** Queues {@code body} as a job; the simulation thread runs it. */
    public Job submit(String kind, Function<Job, Object> body) {
        Job j = new Job(ids.incrementAndGet(), kind, body);
        synchronized (jobs) {
            jobs.put(j.id, j);
        }
        queue.add(j);
        emit("job", j.view());
        return j;
    }

    /** Submits and waits for the job (at most {@code seconds}); the job as it ended, or still running. */
    public Job call(String kind, Function<Job, Object> body, long seconds) {
        Job j = submit(kind, body);
        try {
            j.done.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            // the caller reports it as running
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        return j;
    }

    public Job job(int id) {
        synchronized (jobs) {
            return jobs.get(id);
        }
    }

    public List<Map<String, Object>> jobViews() {
        synchronized (jobs) {
            return jobs.values().stream().map(Job::view).toList();
        }
    }

    /** Progress of a running job, sent to listeners. */
    public void progress(Job j, String text) {
        j.progress = text;
        emit("job", j.view());
    }

    private void loop() {
        while (running) {
            Job j;
            try {
                j = queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (j != null) {
                run(j);
            } else {
                ms.machine.fabric.run(IDLE_STEP);
                // fault reports arrive in the endpoint's MPQ: the host driver looks
                ms.server.endpoint.poll();
                if (watched != null && ++idleSteps % SAMPLE_EVERY == 0) {
                    sampleTraffic();
                }
            }
            cycle = ms.machine.fabric.now();
            collectFaults();
        }
    }

    private void run(Job j) {
        j.state = "running";
        emit("job", j.view());
        long c0 = ms.machine.fabric.now();
        log(j.kind + " started (job " + j.id + ")");
        try {
            j.result = j.body.apply(j);
            j.state = "done";
            log(String.format(Locale.ROOT, "%s done in %,d cycles (job %d)", j.kind, ms.machine.fabric.now() - c0, j.id));
        } catch (RuntimeException e) {
            j.error = e.getMessage() == null ? e.toString() : e.getMessage();
            j.state = "failed";
            log(j.kind + " failed: " + j.error + " (job " + j.id + ")");
        }
        cycle = ms.machine.fabric.now();
        emit("job", j.view());
        j.done.complete(j);
    }

    private void collectFaults() {
        List<FaultLog.Entry> all = ms.faults.entries();
        for (int i = faultsSeen; i < all.size(); i++) {
            FaultLog.Entry e = all.get(i);
            emit("fault", faultView(e));
            log("fault report: " + e);
        }
        faultsSeen = all.size();
    }

    public static Map<String, Object> faultView(FaultLog.Entry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cycle", e.seenAt());
        m.put("type", e.chipType().toString());
        m.put("chip", String.format("0x%04x", e.chipId()));
        m.put("fault", org.flitkit.formats.th2.FaultCode.console(e.faultCode()));
        m.put("port", e.port() == org.flitkit.formats.th2.FaultCode.CHIP_LEVEL_PORT ? "chip" : Integer.toString(e.port()));
        m.put("seq", e.seq());
        m.put("text", e.toString());
        return m;
    }

    // ------------------------------------------------------------------ state for the web side

    public long cycle() {
        return cycle;
    }

    public Discovery.Result found() {
        return found;
    }

    public RoutingTables tables() {
        return tables;
    }

    public Set<Integer> cutCables() {
        return Set.copyOf(cutCables);
    }

    public Set<Integer> deadNrcs() {
        return Set.copyOf(deadNrcs);
    }

    public int alltoall() {
        return alltoall;
    }

    public Integer watched() {
        return watched;
    }

    public List<Map<String, Object>> samples() {
        synchronized (samples) {
            return new ArrayList<>(samples);
        }
    }

    // ------------------------------------------------------------------ job bodies (simulation thread)

    /** Discovery, then every NRC found told to report its faults to the server. */
    public Object discover(Job j) {
        Discovery.Result r = ms.discover((f, read) -> {
            if (read % 8 == 0) {
                progress(j, f + " NRCs found, " + read + " read");
            }
        });
        found = r;
        tables = null;
        long failed = ms.enableFaultReports(r);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nrcs", r.nrcs().size());
        m.put("nics", r.nics().size());
        m.put("requests", r.requests());
        m.put("failures", r.failures());
        m.put("cycles", r.cycles());
        m.put("us", ManagementServer.micros(r.cycles()));
        m.put("unreached", r.unreached().stream().map(u -> String.format("0x%04x: %s", u.chipId(), u.what())).toList());
        m.put("faultReportsEnabled", failed == 0);
        log(String.format(Locale.ROOT, "discovery: %,d NRCs, %,d NICs, %,d requests, %,d failed, %.1f us", r.nrcs().size(), r.nics().size(), r.requests(),
                r.failures(), ManagementServer.micros(r.cycles())));
        return m;
    }

    /** The routing tables from the last discovery, loaded in band (once per discovery). */
    public RoutingTables ensureTables(Job j) {
        Discovery.Result r = requireFound();
        if (tables == null) {
            progress(j, "loading routing tables");
            RoutingTables t = RoutingTables.shortestPaths(r);
            long failed = t.load(ms.pipe);
            log("routing tables: " + t.summary() + (failed == 0 ? "" : ", " + failed + " requests failed"));
            tables = t;
        }
        return tables;
    }

    public Discovery.Result requireFound() {
        Discovery.Result r = found;
        if (r == null) {
            throw new IllegalStateException("no discovery yet: run discovery first");
        }
        return r;
    }

    /** Reads registers {@code addrs} of NRC {@code nrcId} in band, two per request; null values where a request failed. */
    public List<Long> readRegisters(int nrcId, List<Integer> addrs, List<String> failures) {
        Discovery.FoundNrc n = requireFound().nrc(nrcId);
        Long[] values = new Long[addrs.size()];
        for (int i = 0; i < addrs.size(); i += 2) {
            int from = i;
            List<Integer> two = addrs.subList(i, Math.min(i + 2, addrs.size()));
            ms.pipe.submit(MgmtRequest.readRegisters(n.target(), two), d -> {
                List<Long> v = Discovery.values(d.result());
                if (v == null) {
                    failures.add(Discovery.describe(d.result()));
                } else {
                    for (int k = 0; k < v.size(); k++) {
                        values[from + k] = v.get(k);
                    }
                }
            });
        }
        ms.pipe.drain();
        return java.util.Arrays.asList(values);
    }

    /** Writes one register of NRC {@code nrcId} in band; the request's outcome. */
    public RequestPipe.Done writeRegister(int nrcId, int addr, long value) {
        Discovery.FoundNrc n = requireFound().nrc(nrcId);
        return ms.pipe.call(MgmtRequest.writeRegisters(n.target(), List.of(addr), List.of(value)));
    }

    /** Cuts or mends the cable at NRC index {@code nrc}'s port {@code port}. */
    public void cut(int cable, boolean on) {
        ms.machine.cut(cable, on);
        if (on) {
            cutCables.add(cable);
        } else {
            cutCables.remove(cable);
        }
    }

    public void kill(int nrc) {
        ms.machine.kill(nrc);
        deadNrcs.add(nrc);
        List<Th2FatTree.Cable> cables = tree.cables();
        for (int i = 0; i < cables.size(); i++) {
            if (cables.get(i).a() == nrc || cables.get(i).b() == nrc) {
                cutCables.add(i);
            }
        }
    }

    public void alltoall(int interval) {
        ms.machine.alltoall(interval);
        alltoall = interval;
    }

    /** Watches NRC {@code nrcId}'s link counters (null: none): read in band while the machine idles. */
    public void watch(Integer nrcId) {
        if (nrcId != null) {
            requireFound().nrc(nrcId);
        }
        watched = nrcId;
        synchronized (samples) {
            samples.clear();
        }
    }

    private void sampleTraffic() {
        Integer id = watched;
        if (id == null || found == null) {
            return;
        }
        List<Integer> addrs = new ArrayList<>();
        for (int p = 0; p < org.flitkit.formats.th2.Th2.NRC_PORTS; p++) {
            addrs.add(NrcRegisters.portAddress(p, NmaRegisters.PORT_FLITS_RECEIVED));
        }
        List<String> failures = new ArrayList<>();
        List<Long> v = readRegisters(id, addrs, failures);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("chip", String.format("0x%04x", id));
        s.put("cycle", ms.machine.fabric.now());
        s.put("flitsReceived", v);
        s.put("failures", failures.size());
        synchronized (samples) {
            samples.addLast(s);
            while (samples.size() > TRAFFIC_SAMPLES) {
                samples.removeFirst();
            }
        }
        emit("traffic", s);
    }

    /** Stops the simulation thread and closes the machine. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ms.close();
    }

    /** Runs {@code body} on the simulation thread and waits for it (at most a minute); its result. */
    public <T> T onMachine(String kind, Function<Job, T> body) {
        Job j = call(kind, body::apply, 60);
        if (j.error != null) {
            throw new IllegalStateException(j.error);
        }
        if (!"done".equals(j.state)) {
            throw new IllegalStateException(kind + " is still running (job " + j.id + ")");
        }
        @SuppressWarnings("unchecked")
        T t = (T) j.result;
        return t;
    }
}
