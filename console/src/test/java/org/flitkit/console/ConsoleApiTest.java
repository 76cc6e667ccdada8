package org.flitkit.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's REST API over HTTP on a frame (docs/th2-console.md): the OpenAPI file describes exactly the routes
 * served; actions need the token; bad input gets 400 and a message; discovery, a register read compared with the
 * model, a cut seen as a fault report and in the drawing.
 */
class ConsoleApiTest {
    static ConsoleFixture fx;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() {
        fx = new ConsoleFixture();
    }

    @AfterAll
    static void stop() {
        fx.close();
    }

    record Answer(int status, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    static Answer call(String method, String path, String body, boolean token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fx.base + path)).timeout(Duration.ofSeconds(120));
        if (token) {
            b.header(Console.TOKEN_HEADER, fx.console.token);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    static JsonNode waitForJob(JsonNode job) throws Exception {
        int id = job.get("id").asInt();
        for (int i = 0; i < 600; i++) {
            JsonNode j = call("GET", "/api/jobs/" + id, null, false).json();
            if (j.get("state").asText().equals("done") || j.get("state").asText().equals("failed")) {
                return j;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("job " + id + " did not end");
    }

    @Test
    void theOpenApiFileDescribesExactlyTheRoutesServed() throws IOException {
        String yaml;
        try (InputStream in = Console.class.getResourceAsStream("/console/openapi.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Console.Route> described = new ArrayList<>();
        String path = null;
        for (String line : yaml.split("\n")) {
            Matcher p = Pattern.compile("^  (/api/\\S+):$").matcher(line);
            Matcher m = Pattern.compile("^    (get|put|post|delete):").matcher(line);
            if (p.find()) {
                path = p.group(1);
            } else if (m.find() && path != null) {
                described.add(new Console.Route(m.group(1), path));
            }
        }
        assertThat(described).containsExactlyInAnyOrderElementsOf(Console.ROUTES);
    }

    @Test
    void actionsNeedTheTokenAndBadInputIsRefusedWithAMessage() throws Exception {
        Answer noToken = call("POST", "/api/discover", null, false);
        assertThat(noToken.status()).isEqualTo(401);
        assertThat(noToken.json().get("error").asText()).contains("X-Token");
        Answer wrong = call("POST", "/api/cut", "{\"chip\": \"0x9999\", \"port\": 3}", true);
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.json().get("error").asText()).isEqualTo("no NRC 0x9999 in this frame: NRCs are 0x8000..0x8005");
        assertThat(call("POST", "/api/cut", "{\"chip\": \"0x8000\", \"port\": 24}", true).json().get("error").asText())
                .isEqualTo("'port' is 0..23, not 24");
        assertThat(call("POST", "/api/cut", "{\"chip\": \"0x8000\", \"port\": 2}", true).json().get("error").asText())
                .isEqualTo("no cable between NRCs at port 2 of NRC 0x8000");
        assertThat(call("POST", "/api/scan", "[1, 2]", true).json().get("error").asText()).isEqualTo("the body must be a JSON object");
        assertThat(call("POST", "/api/scan", "{\"mode\": \"sideways\"}", true).json().get("error").asText())
                .isEqualTo("mode is single or compare, not 'sideways'");
        assertThat(call("GET", "/api/chips/0x8000/registers/NO_SUCH", null, false).status()).isEqualTo(400);
        assertThat(call("GET", "/api/topology/attic", null, false).status()).isEqualTo(404);
        assertThat(call("GET", "/api/jobs/x", null, false).status()).isEqualTo(400);
        assertThat(call("GET", "/api/chips?type=router", null, false).status()).isEqualTo(400);
        // the machine runs on after all of that
        assertThat(call("GET", "/api/machine", null, false).json().get("nrcs").asInt()).isEqualTo(6);
    }

    @Test
    void discoveryARegisterReadACutAndItsFaultReport() throws Exception {
        JsonNode chips = call("GET", "/api/chips", null, false).json();
        assertThat(chips).hasSize(6 + 32);
        assertThat(chips.get(0).get("chip").asText()).isEqualTo("0x8000");
        assertThat(call("GET", "/api/chips/0x8004", null, false).status()).as("before discovery").isEqualTo(409);

        JsonNode d = waitForJob(call("POST", "/api/discover", null, true).json());
        assertThat(d.get("state").asText()).isEqualTo("done");
        assertThat(d.get("result").get("nrcs").asInt()).isEqualTo(6);
        assertThat(d.get("result").get("nics").asInt()).isEqualTo(32);
        assertThat(d.get("result").get("requests").asInt()).isEqualTo(103);

        // a register read in band equals the model's value
        JsonNode t = call("GET", "/api/chips/0x8004/registers/NRC_TEMPERATURE", null, false).json();
        long model = fx.session.onMachine("the model's value (test)", j -> fx.session.ms.machine.fabric.peek(fx.session.ms.machine.nrcs[4],
                fx.session.ms.machine.nrc(4).temperature));
        assertThat(t.get("value").asLong()).isEqualTo(model).isEqualTo(45);
        Answer w = call("PUT", "/api/chips/0x8004/registers/NRC_TEMPERATURE_LIMIT", "{\"value\": \"0x50\"}", true);
        assertThat(w.status()).isEqualTo(200);
        assertThat(call("GET", "/api/chips/0x8004/registers/NRC_TEMPERATURE_LIMIT", null, false).json().get("value").asLong()).isEqualTo(0x50);
        assertThat(call("PUT", "/api/chips/0x8004/registers/NRC_TEMPERATURE", "{\"value\": 1}", true).json().get("error").asText())
                .isEqualTo("NRC_TEMPERATURE is read-only");

        // the cable at port 8 of NRC 0x8000 (to 0x8004): its fault report arrives, the drawing shows it down
        JsonNode cut = waitForJob(call("POST", "/api/cut", "{\"chip\": \"0x8000\", \"port\": 8}", true).json());
        assertThat(cut.get("result").get("cable").asInt()).isZero();
        JsonNode faults = null;
        for (int i = 0; i < 300 && (faults == null || faults.isEmpty()); i++) {
            Thread.sleep(100);
            faults = call("GET", "/api/faults", null, false).json();
        }
        assertThat(faults).isNotEmpty();
        assertThat(faults.get(0).get("chip").asText()).isEqualTo("0x8000");
        assertThat(faults.get(0).get("port").asText()).isEqualTo("8");
        assertThat(faults.get(0).get("fault").asText()).isEqualTo("fault=link-down");
        String svg = call("GET", "/api/topology/bottom-switch?unit=0", null, false).body();
        assertThat(svg).startsWith("<?xml").contains("<svg").contains("(1 down)");
    }
}
