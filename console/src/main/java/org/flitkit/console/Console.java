package org.flitkit.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.sse.SseClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.mgmt.BistRun;
import org.flitkit.env.nic.mgmt.Discovery;
import org.flitkit.env.nic.mgmt.ManagementServer;
import org.flitkit.env.nic.mgmt.Neighbour;
import org.flitkit.env.nic.mgmt.PathTrace;
import org.flitkit.env.nic.mgmt.RequestPipe;
import org.flitkit.env.nic.mgmt.RoutingTables;
import org.flitkit.env.nic.mgmt.StatusScan;
import org.flitkit.env.nrc.system.Th2Drawings;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.rtl.nrc.NrcRegisters;

/**
 * The management client of the TH-2 paper (its topology, fault, device, traffic and log views) as a web console:
 * an embedded HTTP server (Javalin) in front of a {@link MachineSession}, a REST API (the repository's
 * console/src/main/resources/console/openapi.yaml), live updates as server-sent events, the page from the class path.
 * Binds to localhost unless told otherwise; every POST and PUT needs the token printed at start. Bad input gets
 * 400 and a message; nothing a request carries reaches the simulation unchecked. docs/th2-console.md.
 */
public final class Console implements AutoCloseable {
    /** A route of the API: method and path, as in openapi.yaml. */
    public record Route(String method, String path) {
    }

    /** Every route of the API (the test checks openapi.yaml against it). */
    public static final List<Route> ROUTES = List.of(
            new Route("get", "/api/machine"), new Route("get", "/api/chips"), new Route("get", "/api/chips/{chip}"),
            new Route("get", "/api/chips/{chip}/registers/{name}"), new Route("put", "/api/chips/{chip}/registers/{name}"),
            new Route("get", "/api/registers"), new Route("get", "/api/topology"), new Route("get", "/api/topology/{level}"),
            new Route("post", "/api/discover"), new Route("post", "/api/trace"), new Route("post", "/api/scan"), new Route("post", "/api/bist"),
            new Route("post", "/api/cut"), new Route("post", "/api/kill"), new Route("post", "/api/alltoall"), new Route("post", "/api/watch"),
            new Route("get", "/api/traffic"), new Route("get", "/api/faults"), new Route("get", "/api/log"), new Route("get", "/api/jobs"),
            new Route("get", "/api/jobs/{id}"), new Route("get", "/api/events"), new Route("get", "/api/openapi.yaml"));

    static final String TOKEN_HEADER = "X-Token";
    private static final ObjectMapper JSON = new ObjectMapper();

    public final MachineSession session;
    public final String token;
    private final Javalin app;
    private final List<SseClient> clients = new CopyOnWriteArrayList<>();
    private final MachineSession.Listener listener;
    private StatusScan.Snapshot baseline;

    /** A request the API refuses: 400 (or {@code status}) with {@code message}. */
    static final class Refused extends RuntimeException {
        final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        Refused(String message) {
            this(400, message);
        }
    }

    public Console(MachineSession session) {
        this.session = session;
        byte[] t = new byte[16];
        new SecureRandom().nextBytes(t);
        this.token = HexFormat.of().formatHex(t);
        app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.staticFiles.add(s -> {
                s.hostedPath = "/";
                s.directory = "/console";
                s.location = io.javalin.http.staticfiles.Location.CLASSPATH;
            });
        });
        app.before("/api/*", ctx -> {
            if ((ctx.method() == HandlerType.POST || ctx.method() == HandlerType.PUT) && !token.equals(ctx.header(TOKEN_HEADER))) {
                throw new Refused(401, "this action changes the machine: send the token printed at start in the " + TOKEN_HEADER + " header");
            }
        });
        app.exception(Refused.class, (e, ctx) -> ctx.status(e.status).json(Map.of("error", e.getMessage())));
        app.exception(IllegalArgumentException.class, (e, ctx) -> ctx.status(400).json(Map.of("error", String.valueOf(e.getMessage()))));
        app.exception(IllegalStateException.class, (e, ctx) -> ctx.status(409).json(Map.of("error", String.valueOf(e.getMessage()))));
        app.exception(Exception.class, (e, ctx) -> ctx.status(500).json(Map.of("error", e.toString())));
        routes();
        listener = (type, data) -> {
            String json;
            try {
                json = JSON.writeValueAsString(data);
            } catch (IOException e) {
                return;
            }
            for (SseClient c : clients) {
                if (c.terminated()) {
                    clients.remove(c);
                } else {
                    c.sendEvent(type, json);
                }
            }
        };
        session.listen(listener);
    }

    /** Starts serving on {@code host}:{@code port} (0: any free port); returns the port. */
    public int start(String host, int port) {
        app.start(host, port);
        return app.port();
    }

    private void routes() {
        app.get("/api/machine", ctx -> ctx.json(machine()));
        app.get("/api/chips", ctx -> ctx.json(chips(ctx.queryParam("type"))));
        app.get("/api/chips/{chip}", ctx -> {
            int id = nrcId(ctx.pathParam("chip"));
            ctx.json(session.onMachine("device " + hex(id), j -> device(id)));
        });
        app.get("/api/chips/{chip}/registers/{name}", ctx -> {
            int id = nrcId(ctx.pathParam("chip"));
            RegDef r = register(ctx.pathParam("name"));
            ctx.json(session.onMachine("read " + r.name() + " of " + hex(id), j -> {
                List<String> failures = new ArrayList<>();
                Long v = session.readRegisters(id, List.of(r.addr()), failures).get(0);
                if (v == null) {
                    throw new IllegalStateException("the read of " + r.name() + " of NRC " + hex(id) + " failed: " + failures);
                }
                return Map.of("chip", hex(id), "register", r.name(), "address", r.addr(), "value", v, "hex", "0x" + Long.toHexString(v));
            }));
        });
        app.put("/api/chips/{chip}/registers/{name}", ctx -> {
            int id = nrcId(ctx.pathParam("chip"));
            RegDef r = register(ctx.pathParam("name"));
            if (r.access() == RegDef.Access.RO) {
                throw new Refused(r.name() + " is read-only");
            }
            long value = number(body(ctx), "value", 0, Long.MAX_VALUE);
            ctx.json(session.onMachine("write " + r.name() + " of " + hex(id), j -> {
                RequestPipe.Done d = session.writeRegister(id, r.addr(), value);
                if (Discovery.values(d.result()) == null) {
                    throw new IllegalStateException("the write of " + r.name() + " of NRC " + hex(id) + ": " + Discovery.describe(d.result()));
                }
                session.log(String.format(Locale.ROOT, "register write: NRC %s %s = 0x%x", hex(id), r.name(), value));
                return Map.of("chip", hex(id), "register", r.name(), "value", value);
            }));
        });
        app.get("/api/registers", ctx -> ctx.json(NrcRegisters.map().stream()
                .map(r -> Map.of("name", r.name(), "address", r.addr(), "access", r.access().name(), "description", r.description())).toList()));
        app.get("/api/topology", ctx -> ctx.json(levels()));
        app.get("/api/topology/{level}", ctx -> {
            String dot = drawing(ctx.pathParam("level"), ctx.queryParam("unit"));
            ctx.contentType("image/svg+xml").result(Th2Drawings.svg(dot));
        });
        app.post("/api/discover", ctx -> ctx.json(session.submit("discovery", session::discover).view()));
        app.post("/api/trace", ctx -> {
            JsonNode b = body(ctx);
            int nodes = session.tree.nodes().size();
            int from = (int) number(b, "from", 0, nodes - 1);
            int to = (int) number(b, "to", 0, nodes - 1);
            session.requireFound();
            ctx.json(session.submit("trace " + from + " to " + to, j -> trace(j, from, to)).view());
        });
        app.post("/api/scan", ctx -> {
            String mode = text(body(ctx), "mode", "single");
            if (!mode.equals("single") && !mode.equals("compare")) {
                throw new Refused("mode is single or compare, not '" + mode + "'");
            }
            session.requireFound();
            ctx.json(session.submit("scan (" + mode + ")", j -> scan(j, mode)).view());
        });
        app.post("/api/bist", ctx -> {
            JsonNode b = body(ctx);
            int id = nrcId(text(b, "chip", null));
            int port = (int) number(b, "port", 0, Th2.NRC_PORTS - 1);
            long frames = number(b, "frames", 1, 1_000_000, 2_000);
            Discovery.Result found = session.requireFound();
            Neighbour nb = found.nrc(id).ports()[port];
            if (nb == null || nb.kind() != Neighbour.Kind.NRC) {
                throw new Refused("port " + port + " of NRC " + hex(id) + " has no NRC behind it (" + nb + "): BIST runs between two NRCs");
            }
            ctx.json(session.submit("BIST " + hex(id) + ":" + port, j -> {
                BistRun.Result r = BistRun.run(session.ms.pipe, session.ms.machine.fabric, found, id, port, frames, 1, ManagementServer.TIMEOUT);
                session.log("BIST " + hex(id) + ":" + port + ": " + r.there() + "; " + r.back());
                return Map.of("there", r.there().toString(), "back", r.back().toString(), "cycles", r.cycles());
            }).view());
        });
        app.post("/api/cut", ctx -> {
            JsonNode b = body(ctx);
            int id = nrcId(text(b, "chip", null));
            int port = (int) number(b, "port", 0, Th2.NRC_PORTS - 1);
            boolean on = !b.has("on") || b.get("on").asBoolean(true);
            int cable = session.tree.cableAt(id - Th2Machine.NRC_ID_BASE, port);
            if (cable < 0) {
                throw new Refused("no cable between NRCs at port " + port + " of NRC " + hex(id));
            }
            ctx.json(session.submit((on ? "cut " : "mend ") + hex(id) + ":" + port, j -> {
                session.cut(cable, on);
                session.log((on ? "cable cut: " : "cable mended: ") + "NRC " + hex(id) + " port " + port + " (cable " + cable + ")");
                return Map.of("cable", cable, "cut", on);
            }).view());
        });
        app.post("/api/kill", ctx -> {
            int id = nrcId(text(body(ctx), "chip", null));
            ctx.json(session.submit("kill " + hex(id), j -> {
                session.kill(id - Th2Machine.NRC_ID_BASE);
                session.log("NRC " + hex(id) + " died: every cable to it is cut");
                return Map.of("chip", hex(id), "dead", true);
            }).view());
        });
        app.post("/api/alltoall", ctx -> {
            int interval = (int) number(body(ctx), "interval", 0, 0xFFFF);
            if (interval > 0) {
                session.requireFound();
            }
            ctx.json(session.submit(interval == 0 ? "AlltoAll off" : "AlltoAll every " + interval + " cycles", j -> {
                if (interval > 0) {
                    session.ensureTables(j);
                }
                session.alltoall(interval);
                session.log(interval == 0 ? "AlltoAll stopped" : "AlltoAll started: every node an 8-flit packet every " + interval + " cycles");
                return Map.of("interval", interval);
            }).view());
        });
        app.post("/api/watch", ctx -> {
            JsonNode b = body(ctx);
            Integer id = b.hasNonNull("chip") ? nrcId(b.get("chip").asText()) : null;
            if (id != null) {
                session.requireFound().nrc(id);
            }
            session.watch(id);
            ctx.json(Map.of("watching", id == null ? "none" : hex(id)));
        });
        app.get("/api/traffic", ctx -> ctx.json(Map.of("watching", session.watched() == null ? "none" : hex(session.watched()),
                "samples", session.samples())));
        app.get("/api/faults", ctx -> ctx.json(session.ms.faults.entries().stream().map(MachineSession::faultView).toList()));
        app.get("/api/log", ctx -> ctx.json(session.logLines()));
        app.get("/api/jobs", ctx -> ctx.json(session.jobViews()));
        app.get("/api/jobs/{id}", ctx -> {
            int id;
            try {
                id = Integer.parseInt(ctx.pathParam("id"));
            } catch (NumberFormatException e) {
                throw new Refused("a job is a number, not '" + ctx.pathParam("id") + "'");
            }
            MachineSession.Job j = session.job(id);
            if (j == null) {
                throw new Refused(404, "no job " + id);
            }
            ctx.json(j.view());
        });
        app.sse("/api/events", client -> {
            client.keepAlive();
            clients.add(client);
            client.onClose(() -> clients.remove(client));
            try {
                client.sendEvent("machine", JSON.writeValueAsString(machine()));
            } catch (IOException e) {
                client.close();
            }
        });
        app.get("/api/openapi.yaml", ctx -> {
            try (InputStream in = Console.class.getResourceAsStream("/console/openapi.yaml")) {
                ctx.contentType("application/yaml").result(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        });
    }

    // ------------------------------------------------------------------ views

    private Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        Th2FatTree t = session.tree;
        m.put("topology", session.topology);
        m.put("nrcs", t.nrcs().size());
        m.put("nics", t.nodes().size());
        m.put("cables", t.cables().size());
        m.put("serverNode", session.ms.machine.serverNode);
        m.put("cycle", session.cycle());
        m.put("us", ManagementServer.micros(session.cycle()));
        Discovery.Result f = session.found();
        m.put("discovered", f == null ? null : Map.of("nrcs", f.nrcs().size(), "nics", f.nics().size(), "us", ManagementServer.micros(f.cycles())));
        m.put("cut", session.cutCables().size());
        m.put("dead", session.deadNrcs().stream().map(i -> hex(Th2Machine.NRC_ID_BASE + i)).toList());
        m.put("alltoall", session.alltoall());
        m.put("faults", session.ms.faults.entries().size());
        return m;
    }

    private List<Map<String, Object>> chips(String type) {
        if (type != null && !type.equals("nrc") && !type.equals("nic")) {
            throw new Refused("type is nrc or nic, not '" + type + "'");
        }
        Discovery.Result f = session.found();
        Map<Integer, Discovery.FoundNrc> byId = new java.util.HashMap<>();
        if (f != null) {
            f.nrcs().forEach(n -> byId.put(n.chipId(), n));
        }
        List<Map<String, Object>> l = new ArrayList<>();
        Set<Integer> dead = session.deadNrcs();
        if (type == null || type.equals("nrc")) {
            for (Th2FatTree.Nrc n : session.tree.nrcs()) {
                int id = Th2Machine.NRC_ID_BASE + n.index();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("chip", hex(id));
                m.put("type", "NRC");
                m.put("index", n.index());
                m.put("role", n.role().name().toLowerCase(Locale.ROOT));
                m.put("unit", n.unit());
                m.put("member", n.member());
                Discovery.FoundNrc fn = byId.get(id);
                m.put("found", fn != null);
                m.put("distance", fn == null ? null : fn.distance());
                m.put("dead", dead.contains(n.index()));
                l.add(m);
            }
        }
        if (type == null || type.equals("nic")) {
            for (Th2FatTree.Node n : session.tree.nodes()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("chip", hex(n.index()));
                m.put("type", "NIC");
                m.put("index", n.index());
                m.put("nrc", hex(Th2Machine.NRC_ID_BASE + n.nrc()));
                m.put("port", n.port());
                m.put("server", n.index() == session.ms.machine.serverNode);
                l.add(m);
            }
        }
        return l;
    }

    /** The device view of NRC {@code id}: chip registers and every port's link state and neighbour, read in band. */
    private Map<String, Object> device(int id) {
        List<String> chipRegs = List.of(NmaRegisters.CHIP_ID, NrcRegisters.TEMPERATURE, NrcRegisters.TEMPERATURE_LIMIT, NrcRegisters.TRANSIT,
                NrcRegisters.UNROUTABLE_DROPS, NrcRegisters.LINK_DOWN_DROPS, NrcRegisters.TABLE_REGION, NrcRegisters.TABLE_DEFAULT);
        List<String> portRegs = List.of(NmaRegisters.PORT_NEIGHBOUR, NmaRegisters.PORT_LINK_STATUS, NmaRegisters.PORT_FLITS_RECEIVED,
                NmaRegisters.PORT_CRC_ERRORS, NmaRegisters.PORT_LINK_DOWNS);
        List<Integer> addrs = new ArrayList<>();
        chipRegs.forEach(r -> addrs.add(NrcRegisters.address(r)));
        for (int p = 0; p < Th2.NRC_PORTS; p++) {
            for (String r : portRegs) {
                addrs.add(NrcRegisters.portAddress(p, r));
            }
        }
        List<String> failures = new ArrayList<>();
        List<Long> v = session.readRegisters(id, addrs, failures);
        Map<String, Object> regs = new LinkedHashMap<>();
        for (int i = 0; i < chipRegs.size(); i++) {
            regs.put(chipRegs.get(i), v.get(i));
        }
        List<Map<String, Object>> ports = new ArrayList<>();
        Discovery.FoundNrc n = session.requireFound().nrc(id);
        for (int p = 0; p < Th2.NRC_PORTS; p++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port", p);
            Long status = v.get(chipRegs.size() + p * portRegs.size() + 1);
            m.put("up", status == null ? null : NmaRegisters.LINK_STATUS_FIELDS.field("up").get(status) != 0);
            m.put("width", status == null ? null : NmaRegisters.LINK_STATUS_FIELDS.field("width").get(status));
            m.put("neighbour", String.valueOf(n.ports()[p]));
            for (int k = 2; k < portRegs.size(); k++) {
                m.put(portRegs.get(k), v.get(chipRegs.size() + p * portRegs.size() + k));
            }
            ports.add(m);
        }
        return Map.of("chip", hex(id), "registers", regs, "ports", ports, "failures", failures, "requests", (addrs.size() + 1) / 2);
    }

    private Object trace(MachineSession.Job j, int from, int to) {
        RoutingTables t = session.ensureTables(j);
        session.progress(j, "tracing");
        PathTrace.Result r = PathTrace.trace(session.ms.pipe, session.ms.machine.fabric, t, from, to);
        session.log("trace " + from + " -> " + to + ": " + (r.reachable() ? "reachable" : "not reachable") + ", " + r.steps().size() + " NRCs");
        return Map.of("from", from, "to", to, "reachable", r.reachable(), "failure", String.valueOf(r.failure()),
                "steps", r.steps().stream().map(Object::toString).toList(), "replayAgrees", r.hops().equals(t.replay(from, to)), "cycles", r.cycles());
    }

    private Object scan(MachineSession.Job j, String mode) {
        Discovery.Result f = session.requireFound();
        session.progress(j, "scanning " + f.nrcs().size() + " NRCs");
        StatusScan.Snapshot s = session.ms.scan(f, 2);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", s.requests());
        m.put("failures", s.failures());
        m.put("cycles", s.cycles());
        m.put("us", ManagementServer.micros(s.cycles()));
        if (mode.equals("compare") && baseline != null) {
            List<StatusScan.Change> changes = StatusScan.compare(baseline, s).stream()
                    .filter(c -> !c.register().endsWith("FRAMES_SENT") && !c.register().endsWith("FLITS_RECEIVED")).toList();
            m.put("changes", changes.stream().map(Object::toString).limit(200).toList());
            m.put("changeCount", changes.size());
        }
        baseline = s;
        session.log(String.format(Locale.ROOT, "scan: %,d requests, %,d failed, %.1f us", s.requests(), s.failures(), ManagementServer.micros(s.cycles())));
        return m;
    }

    private List<Map<String, Object>> levels() {
        Th2FatTree t = session.tree;
        List<Map<String, Object>> l = new ArrayList<>();
        l.add(Map.of("level", "cabinets", "units", 1, "title", "cabinets"));
        l.add(Map.of("level", "bottom-switch", "units", t.bottomSwitches(), "title", "bottom switch"));
        if (t.leafSwitches() > 0) {
            l.add(Map.of("level", "leaf-group", "units", (t.bottomSwitches() + Th2FatTree.LEAF_DOWN - 1) / Th2FatTree.LEAF_DOWN, "title", "leaf group"));
            l.add(Map.of("level", "root-switch", "units", t.rootSwitches(), "title", "root switch"));
        }
        return l;
    }

    private String drawing(String level, String unitText) {
        Th2Drawings d = new Th2Drawings(session.tree, session.cutCables(), session.deadNrcs());
        int units = levels().stream().filter(l -> l.get("level").equals(level)).map(l -> (Integer) l.get("units")).findFirst()
                .orElseThrow(() -> new Refused(404, "no level '" + level + "': " + String.join(", ", levels().stream().map(l -> (String) l.get("level")).toList())));
        int unit = 0;
        if (unitText != null) {
            try {
                unit = Integer.parseInt(unitText);
            } catch (NumberFormatException e) {
                throw new Refused("unit is a number, not '" + unitText + "'");
            }
        }
        if (unit < 0 || unit >= units) {
            throw new Refused(level + " units are 0.." + (units - 1) + ", not " + unit);
        }
        return switch (level) {
            case "cabinets" -> d.cabinets();
            case "bottom-switch" -> d.inside(Th2FatTree.Role.BOTTOM, unit);
            case "leaf-group" -> d.leafGroup(unit);
            default -> d.inside(Th2FatTree.Role.ROOT, unit);
        };
    }

    // ------------------------------------------------------------------ input checks

    static String hex(int id) {
        return String.format("0x%04x", id);
    }

    /** An NRC's CHIP_ID from {@code text} ("0x8004" or a decimal), which must be one of this machine's NRCs. */
    int nrcId(String text) {
        if (text == null || text.isBlank()) {
            throw new Refused("give the NRC as its CHIP_ID, e.g. \"0x8004\"");
        }
        int id;
        try {
            id = text.startsWith("0x") || text.startsWith("0X") ? Integer.parseInt(text.substring(2), 16) : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new Refused("'" + text + "' is not a CHIP_ID (e.g. 0x8004)");
        }
        int n = session.tree.nrcs().size();
        if (id < Th2Machine.NRC_ID_BASE || id >= Th2Machine.NRC_ID_BASE + n) {
            throw new Refused("no NRC " + hex(id) + " in this " + session.topology + ": NRCs are " + hex(Th2Machine.NRC_ID_BASE) + ".."
                    + hex(Th2Machine.NRC_ID_BASE + n - 1));
        }
        return id;
    }

    static RegDef register(String name) {
        return NrcRegisters.map().stream().filter(r -> r.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new Refused("the NRC has no register '" + name + "' (GET /api/registers lists them)"));
    }

    static JsonNode body(Context ctx) {
        String b = ctx.body();
        if (b.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode n = JSON.readTree(b);
            if (n == null || !n.isObject()) {
                throw new Refused("the body must be a JSON object");
            }
            return n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Refused("the body is not JSON: " + e.getOriginalMessage());
        }
    }

    static long number(JsonNode b, String field, long min, long max) {
        if (!b.hasNonNull(field)) {
            throw new Refused("'" + field + "' is missing");
        }
        return number(b, field, min, max, 0);
    }

    static long number(JsonNode b, String field, long min, long max, long dflt) {
        if (!b.hasNonNull(field)) {
            return dflt;
        }
        JsonNode v = b.get(field);
        long x;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            x = v.asLong();
        } else if (v.isTextual() && v.asText().matches("0[xX][0-9a-fA-F]{1,16}|\\d{1,19}")) {
            String s = v.asText();
            try {
                x = s.startsWith("0x") || s.startsWith("0X") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new Refused("'" + field + "' = " + v + " is out of range");
            }
        } else {
            throw new Refused("'" + field + "' must be a whole number, not " + v);
        }
        if (x < min || x > max) {
            throw new Refused("'" + field + "' is " + min + ".." + max + ", not " + x);
        }
        return x;
    }

    static String text(JsonNode b, String field, String dflt) {
        if (!b.hasNonNull(field)) {
            if (dflt == null) {
                throw new Refused("'" + field + "' is missing");
            }
            return dflt;
        }
        return b.get(field).asText();
    }

    @Override
    public void close() {
        session.unlisten(listener);
        app.stop();
    }
}
