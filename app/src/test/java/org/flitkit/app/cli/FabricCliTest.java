package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.app.cli.HdlCliTest.hdl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./hdl fabric}: the machine's counts and drawings, discovery of a frame, usage errors (docs/th2-management.md). */
class FabricCliTest {
    @Test
    void buildPrintsTheCountsOfTheWholeMachine(@TempDir Path dir) {
        HdlCliTest.Run r = hdl("fabric", "build", "--topology", "th2", "--draw", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lastLine()).isEqualTo("th2: 5,832 NRCs, 18,304 NICs, 50,496 cables between NRCs and 18,304 node cables (68,800 in all)");
        assertThat(r.outLines().get(0)).isEqualTo(
                "th2: 143 compute cabinets (572 bottom switches), 960 leaf switches in 16 leaf cabinets, 240 root switches in 8 root cabinets");
        assertThat(dir.resolve("cabinets.dot")).exists();
        assertThat(dir.resolve("root-switch.dot")).exists();
    }

    @Test
    void discoveryOfAFrameFindsEveryChipOnce() throws Exception {
        HdlCliTest.Run r = hdl("fabric", "discover", "--topology", "frame", "--threads", "1");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("discovery: 6 NRCs and 32 NICs found (planned 6 and 32); NRC ports: 56 to NRCs, 32 to NICs, 56 none, 0 down")
                .contains("distance from the server (NRCs before it, 0 = the server's own): 0: 1, 1: 2, 2: 3")
                .contains("discovery: 103 requests (0 failed), 27,304 cycles = 64.4 us simulated");
        assertThat(r.lastLine()).startsWith("frame: 6 NRCs and 32 NICs discovered, each exactly once, in 64.4 us simulated; ");

        HdlCliTest.Run j = hdl("fabric", "discover", "--topology", "frame", "--threads", "1", "--dead", "2", "--json");
        assertThat(j.exit()).as(j.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(j.out());
        assertThat(doc.get("discovery").get("nrcs").asInt()).isEqualTo(5);
        assertThat(doc.get("discovery").get("nics").asInt()).isEqualTo(24);
        assertThat(doc.get("discovery").get("not_found").get(0).asText()).isEqualTo("NRC 2 (0x8002)");
        assertThat(doc.get("summary").asText()).startsWith("frame: 5 of 6 NRCs and 24 of 32 NICs discovered, 0 requests unanswered, in ");
    }

    @Test
    void aTraceFollowsTheLoadedTablesFromNodeToNode() {
        HdlCliTest.Run r = hdl("fabric", "trace", "--topology", "frame", "--from", "0", "--to", "31", "--threads", "1");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("routing tables: 6 NRCs (regions of 8: 6), 40 entries (at most 8 per NRC), 32 requests to load\n"
                        + "loaded in band: 32 requests in 8,631 cycles = 20 us simulated, ")
                .contains("  NRC 0x8000 in 0 allowed {8,9,10,11,12,13,14} out 8, link up on 8 lanes\n"
                        + "  NRC 0x8004 in 10 allowed {21,22,23} out 21, link up on 8 lanes\n"
                        + "  NRC 0x8003 in 12 allowed {7} out 7, link up on 8 lanes\n");
        assertThat(r.lastLine()).startsWith("frame: node 0 to node 31: 3 NRCs, reachable (traced in 8,044 cycles); ");
    }

    @Test
    void aNodeCableCutIsReportedByItsNrcOnly() {
        HdlCliTest.Run r = hdl("fabric", "faults", "--topology", "frame", "--threads", "1", "--cut-node-after", "9", "--wait", "5000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("fault reports enabled on 6 NRCs and 32 NICs (0 requests failed)");
        assertThat(r.outLines()).filteredOn(l -> l.startsWith("  cycle ")).extracting(l -> l.substring(l.indexOf(':') + 2, l.indexOf(" (seq")))
                .containsExactly("NRC 0x8001 fault=link-down port 1");
        // NIC 9 raises link-down too, but its one cable is the one cut: its report has no way to the server
        assertThat(r.lastLine()).startsWith("frame: 1 fault report (1 after the cuts)");
    }

    @Test
    void serveAnswersTheApiUntilItsTimeIsUp() throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = Main.commandLine(org.flitkit.app.Catalog.standard());
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        java.util.concurrent.CompletableFuture<Integer> served = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> cl.execute("fabric", "serve", "--topology", "frame", "--threads", "1", "--port", "0", "--seconds", "20"));
        // the URL is printed once the console listens
        String url = null;
        for (int i = 0; i < 900 && url == null && !served.isDone(); i++) {
            Thread.sleep(100);
            synchronized (out) {
                url = out.toString().lines().filter(l -> l.startsWith("console: http://")).findFirst().orElse(null);
            }
        }
        assertThat(url).as("the console's URL in %s (errors: %s)", out, err).isNotNull().matches("console: http://127\\.0\\.0\\.1:\\d+/\\?token=[0-9a-f]{32}");
        String base = url.substring("console: ".length(), url.indexOf("/?token="));
        java.net.http.HttpResponse<String> chips = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/api/chips?type=nrc")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(chips.statusCode()).isEqualTo(200);
        assertThat(new ObjectMapper().readTree(chips.body())).hasSize(6);
        assertThat(served.get()).as(err.toString()).isZero();
        assertThat(hdl("fabric", "serve", "--port", "70000").err()).startsWith("hdl: --port is 0..65535 and --seconds at least 1");
    }

    @Test
    void badTopologiesCablesAndModesAreUsageErrors() {
        HdlCliTest.Run r = hdl("fabric", "discover", "--topology", "rack");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("hdl: --topology: unknown topology 'rack': one of frame, cabinet, eighth, th2");
        assertThat(hdl("fabric", "discover", "--cut", "0:0").err()).startsWith("hdl: --cut 0:0: no cable between NRCs at port 0 of NRC 0 (NRCs 0..5)");
        assertThat(hdl("fabric", "discover", "--alltoall", "0").err()).startsWith("hdl: --alltoall is 1..65535 cycles and --warmup not negative");
        assertThat(hdl("fabric", "discover", "--cut", "zero").err()).startsWith("hdl: --cut takes NRC:PORT (e.g. 0:8), got 'zero'");
        assertThat(hdl("fabric", "scan", "--mode", "twice").err()).startsWith("hdl: --mode must be single, cyclic or compare, got 'twice'");
        assertThat(hdl("fabric", "scan", "--cut-after", "0:8").err()).startsWith("hdl: --cut-after needs a second scan: --mode compare or cyclic");
        assertThat(hdl("fabric", "bist", "--link", "0:0").err()).startsWith("hdl: --link 0:0: that is the server's own cable");
        assertThat(hdl("fabric", "bist", "--link", "0:23").err()).startsWith("hdl: --link 0:23: no cable between NRCs at port 23 of NRC 0");
        assertThat(hdl("fabric", "faults", "--cut-node-after", "0").err()).startsWith("hdl: --cut-node-after 0: nodes are 0..31, the server's (0) excepted");
        assertThat(hdl("fabric").err()).startsWith("hdl: missing subcommand: build, discover, trace, scan, faults, bist or serve");
        assertThat(hdl("fabric", "trace", "--from", "3").err()).startsWith("hdl: give --from NODE and --to NODE, or --random-pairs N");
    }
}
