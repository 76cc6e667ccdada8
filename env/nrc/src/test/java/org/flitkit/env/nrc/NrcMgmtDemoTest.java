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

/** The example script examples/nrc-demo.mgmt: every line's status, and the documented latency from a near and a far port. */
class NrcMgmtDemoTest {
    /** examples/nrc-demo.mgmt of the repository, found from the module directory the test runs in. */
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
            // one-register reads: 90 cycles from port 5 (1 relay station each way), 100 from port 0 (6 each
            // way), as docs/th2-nrc.md states
            assertThat(r.get(2).latency()).isEqualTo(NrcPortsScenario.NEAREST_ONE_REGISTER);
            assertThat(r.get(5).latency()).isEqualTo(NrcPortsScenario.NEAREST_ONE_REGISTER + 2 * 5);
            assertThat(s.reports()).isEqualTo(1);
            String out = text.toString();
            assertThat(out).contains("report fault=6 port=2 cycle=");
            // names, addresses and decoded fields (docs/th2-nrc.md, "./hdl mgmt")
            assertThat(r.get(4).line()).isEqualTo("txn=5 op=read reg=PORT0_NEIGHBOUR@0x401 status=ok data=0x101000000 latency=90"
                    + " fields=PORT0_NEIGHBOUR{valid=1,chip_id=0x100,port=0,chip_type=0}");
            assertThat(r.get(10).line()).startsWith("txn=11 op=read reg=?@0xfff status=error reason=unmapped-address");
            assertThat(r.get(18).line()).startsWith("txn=19 op=write reg=REPORT_DEST@0x015 status=ok")
                    .endsWith(" fields=REPORT_DEST{rint=0,dest_vp=1,dest_id=1}");
            assertThat(out.strip().lines().reduce((a, b) -> b).orElseThrow())
                    .matches("summary requests=20 ok=16 errors=1 timeouts=3 reports=1 cycles=38183 time=[0-9.]+s");
        }
    }

    /**
     * examples/nrc-mixed.mgmt: register requests sent {@code nowait} after an E2PROM write are answered while it
     * runs (no head-of-line blocking in the NMA), so their lines print first, with the latency they have alone.
     */
    @Test
    void mixedScriptPrintsTheRegisterAnswersBeforeTheE2promWrite() throws Exception {
        StringWriter text = new StringWriter();
        try (Testbench<Nrc> tb = Testbench.create(() -> new Nrc(EepParams.FAST, null), RunConfig.of(1, 0))) {
            MgmtSession s = new MgmtSession(tb, new PrintWriter(text));
            s.run(MgmtScript.parse(Files.readString(RepoFiles.find("examples/nrc-mixed.mgmt"))));
            System.out.print(text);
            // the five requests enter port 5 back to back, 40 relay-station cycles apart (one packet on the 20-bit
            // path), so each register answer comes 40 cycles after the one before it (90 alone, docs/th2-nrc.md);
            // the E2PROM write answers after all of them, the E2PROM read (sent after sync) alone
            assertThat(text.toString().strip().lines().map(l -> l.replaceAll(" time=[0-9.]+s$", "")).toList()).containsExactly(
                    "txn=2 op=read reg=CHIP_ID@0x000 status=ok data=0xffff latency=130",
                    "txn=3 op=read reg=CYCLE_COUNT@0x004,NMP_REQUESTS@0x020 status=ok data=0x49c,0x3 latency=171",
                    "txn=4 op=write reg=SCRATCH0@0x008 status=ok latency=211",
                    "txn=5 op=read reg=SCRATCH0@0x008 status=ok data=0x1234 latency=251",
                    "txn=1 op=eeprom-write addr=0x0100 status=ok latency=818",
                    "txn=6 op=eeprom-read addr=0x0100 status=ok data=0x5a latency=592",
                    "summary requests=6 ok=6 errors=0 timeouts=0 reports=0 cycles=4469");
        }
    }
}
