package org.flitkit.env.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.RepoFiles;
import org.junit.jupiter.api.Test;

/** The example script examples/nrc-demo.mgmt: every line's status, and far ports answer later than near ones. */
class NrcMgmtDemoTest {
    static Path example() {
        return RepoFiles.find("examples/nrc-demo.mgmt");
    }

    @Test
    void exampleScriptRunsWithTheExpectedStatusOnEveryLine() throws Exception {
        StringWriter text = new StringWriter();
        try (Testbench<Nrc> tb = Testbench.create(() -> new Nrc(EepParams.FAST, null), RunConfig.of(1, 0))) {
            MgmtSession s = new MgmtSession(tb, new PrintWriter(text));
            s.run(MgmtScript.parse(Files.readString(example())));
            List<MgmtSession.Result> r = s.results();
            System.out.print(text);
            List<String> expected = List.of(
                    "ok data=0xffff", "ok", "ok data=0x1234", "ok data=0x1234,0x0", "ok data=0x101000000",
                    "ok data=0x1234", "ok", "ok data=0xcafe,0xbeef",
                    "ok", "ok data=0x5a,0xa5,0xff",
                    "error reason=unmapped-address",
                    "timeout", "ok", "timeout", "ok data=0x42",
                    "timeout", "ok data=0x1,0x2",
                    "ok", "ok", "ok");
            assertThat(r).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                String line = r.get(i).line();
                assertThat(line).as("request %d", i + 1).contains("status=" + expected.get(i));
                assertThat(line).startsWith("txn=" + (i + 1) + " ");
            }
            // a read from port 0 (6 relay stations each way) takes longer than from port 5 (1 each way)
            long near = r.get(2).latency();
            long far = r.get(5).latency();
            assertThat(far).isEqualTo(near + 2 * 5);
            assertThat(s.reports()).isEqualTo(1);
            String out = text.toString();
            assertThat(out).contains("report fault=6 port=2 cycle=");
            assertThat(out.strip().lines().reduce((a, b) -> b).orElseThrow())
                    .isEqualTo("summary requests=20 ok=16 errors=1 timeouts=3 reports=1");
        }
    }
}
