package org.flitkit.env.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nrc.FaultDriver;
import org.flitkit.env.nrc.MgmtScript;
import org.flitkit.env.nrc.MgmtSession;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.testbench.RepoFiles;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.junit.jupiter.api.Test;

/**
 * Every console command behaves the same through the server's NIC as with packets put straight into the NRC's
 * ports, apart from latency: the example scripts and a seeded random script (register and E2PROM requests,
 * error responses, drops by a bit error or a wrong DestID, port changes after a drop, fault reports, nowait
 * groups) give the same lines both ways once latencies and cycles are stripped. docs/th2-nic.md, "Requests
 * without an answer".
 */
class ConsoleViaNicTest {
    /** The random script's seed and length (a few hundred commands, every kind of command). */
    static final long SEED = 20261128;
    static final int COMMANDS = 300;

    /** The script that wedged the board: a dropped request, then a port change. */
    @Test
    void aDroppedRequestDoesNotWedgeTheNextPortChange() throws Exception {
        String script = "timeout 200000\nport 5\ncorrupt-next\nread 0x0\nread 0x0\nport 0\nread 0x0\n";
        List<String> nic = run(script, true);
        assertThat(nic.subList(0, 3)).containsExactly(
                "txn=1 op=read reg=CHIP_ID@0x000 status=timeout",
                "txn=2 op=read reg=CHIP_ID@0x000 status=ok data=0xffff latency=239",
                "txn=3 op=read reg=CHIP_ID@0x000 status=ok data=0xffff latency=249");
        assertThat(nic.get(3)).matches("summary requests=3 ok=2 errors=0 timeouts=1 reports=0 cycles=\\d+ time=[0-9.]+s");
        assertThat(stripped(nic)).isEqualTo(stripped(run(script, false)));
    }

    /**
     * A port change with a dropped {@code nowait} request outstanding whose timeout is longer than the wait for a quiet
     * cable: the change waits for the request's timeout first, both ways, and the NIC run does not fail.
     */
    @Test
    void aPortChangeWaitsForTheOutstandingRequestsOfTheOldPort() throws Exception {
        String script = "timeout 1500000\nport 5\ncorrupt-next\nnowait read 0x8\nport 0\nread 0x0\n";
        List<String> nic = run(script, true);
        assertThat(nic.subList(0, 2)).containsExactly(
                "txn=1 op=read reg=SCRATCH0@0x008 status=timeout",
                "txn=2 op=read reg=CHIP_ID@0x000 status=ok data=0xffff latency=249");
        assertThat(stripped(nic)).isEqualTo(stripped(run(script, false)));
    }

    /** The single-NRC example scripts (the fabric ones need whole NRCs behind the NIC and have no direct run). */
    @Test
    void exampleScriptsGiveTheSameLinesThroughTheNicAsDirect() throws Exception {
        for (String name : List.of("examples/nrc-demo.mgmt", "examples/nrc-mixed.mgmt")) {
            String script = Files.readString(RepoFiles.find(name));
            List<String> direct = run(script, false);
            assertThat(stripped(run(script, true))).as(name).isEqualTo(stripped(direct));
            assertThat(direct).as(name).last().asString().startsWith("summary ");
        }
    }

    @Test
    void aRandomScriptGivesTheSameLinesThroughTheNicAsDirect() throws Exception {
        String script = randomScript(new Rng(SEED), COMMANDS);
        List<String> direct = run(script, false);
        List<String> nic = run(script, true);
        assertThat(stripped(nic)).isEqualTo(stripped(direct));
        // the script exercised what it is for: errors, drops and reports, not only good answers
        String summary = direct.get(direct.size() - 1);
        assertThat(count(summary, "errors")).isPositive();
        assertThat(count(summary, "timeouts")).isPositive();
        assertThat(count(summary, "reports")).isPositive();
        assertThat(count(summary, "requests")).isGreaterThan(COMMANDS / 3);
    }

    private static List<String> run(String text, boolean viaNic) throws MgmtScript.ParseException {
        MgmtScript script = MgmtScript.parse(text);
        StringWriter out = new StringWriter();
        PrintWriter w = new PrintWriter(out);
        RunConfig cfg = RunConfig.of(1, 0);
        if (viaNic) {
            try (NicEnv env = new NicEnv(cfg, EepParams.FAST, NicEnv.CABLE_LATENCY, PcieParams.th2(), HostSoftware.NONE, 0)) {
                FaultDriver faults = env.tb.add(new FaultDriver("faults", env.dut.nrcFaults));
                new MgmtSession(env.tb, new NicTransport(env), faults, EepParams.FAST, w).run(script);
            }
        } else {
            try (Testbench<Nrc> tb = Testbench.create(() -> new Nrc(EepParams.FAST, null), cfg)) {
                new MgmtSession(tb, w).run(script);
            }
        }
        return out.toString().lines().toList();
    }

    /**
     * The lines without what only timing decides: latencies, the cycle a report arrives at, the run's cycles and wall
     * time, and the value read from CYCLE_COUNT.
     */
    static List<String> stripped(List<String> lines) {
        return lines.stream().map(l -> withoutCycleCount(l.replaceAll(" latency=\\d+", "").replaceAll(" cycles?=\\d+", "")
                .replaceAll(" time=[0-9.]+s", ""))).toList();
    }

    private static String withoutCycleCount(String line) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" reg=(\\S+) .* data=(\\S+)").matcher(line);
        if (!m.find() || !m.group(1).contains("CYCLE_COUNT@")) {
            return line;
        }
        String[] regs = m.group(1).split(",");
        String[] data = m.group(2).split(",");
        for (int i = 0; i < regs.length && i < data.length; i++) {
            if (regs[i].startsWith("CYCLE_COUNT@")) {
                data[i] = "(cycles)";
            }
        }
        return line.substring(0, m.start(2)) + String.join(",", data) + line.substring(m.end(2));
    }

    private static long count(String summary, String key) {
        return Long.parseLong(summary.replaceAll(".*\\b" + key + "=(\\d+).*", "$1"));
    }

    /**
     * Registers whose values do not depend on timing (so both runs read the same): identity, scratch, fault and
     * report set-up, the NMA's request and drop counters; plus addresses nobody maps (error responses). Cycle
     * counters, link state and neighbour words are left out: they differ by construction.
     */
    private static final int[] READABLE = {0x000, 0x001, 0x002, 0x003, 0x008, 0x009, 0x010, 0x011, 0x012, 0x016, 0x018,
            0x019, 0x020, 0x021, 0x022, 0x023, 0x400, 0x4F0, 0x0FFF, 0x07FF};
    /** Writes: scratch and mask storage, read-only registers and unmapped addresses (error responses). */
    private static final int[] WRITABLE = {0x008, 0x009, 0x011, 0x018, 0x002, 0x020, 0x0FFF};

    /**
     * A script of {@code n} commands: requests of every kind (some with nowait, then sync), port changes, DestIDs
     * right and wrong, bit errors, fault pulses with reports enabled (each followed by a wait, so the report line
     * lands between the same requests both ways), E2PROM reads and writes.
     */
    static String randomScript(Rng rng, int n) {
        List<String> l = new ArrayList<>();
        l.add("timeout 20000");
        int port = 0;
        l.add("port 0");
        boolean idSet = false;
        int pendingNowait = 0;
        for (int i = 0; i < n; i++) {
            int pick = rng.nextInt(100);
            if (pendingNowait > 0 && (pick < 15 || pendingNowait >= 4)) {
                l.add("sync");
                pendingNowait = 0;
                continue;
            }
            String prefix = pendingNowait > 0 || pick % 7 == 0 ? "nowait " : "";
            if (pick < 8) {
                // with nowait requests outstanding too: the port change waits for them
                port = rng.nextInt(24);
                l.add("port " + port);
                l.add(reportSetup(port));
                pendingNowait = 0;
            } else if (pick < 14) {
                String d = switch (rng.nextInt(3)) {
                    case 0 -> "any";
                    case 1 -> "0x0042";
                    default -> "0x" + Integer.toHexString(0x100 + rng.nextInt(0x100));
                };
                l.add("dest " + d);
            } else if (pick < 18 && pendingNowait == 0) {
                l.add("corrupt-next");
                l.add(read(rng));
            } else if (pick < 21 && pendingNowait == 0) {
                l.add("fault " + rng.nextInt(NrcRegisters.faultSources().size()));
                l.add("wait 3000");
            } else if (pick < 24 && !idSet) {
                l.add("write 0x000 0x0042");
                idSet = true;
            } else if (pick < 30) {
                int count = 1 + rng.nextInt(3);
                StringBuilder b = new StringBuilder(prefix + "eeprom-read");
                for (int k = 0; k < count; k++) {
                    b.append(String.format(Locale.ROOT, " 0x%04x", 0x8000 + rng.nextInt(0x100)));
                }
                l.add(b.toString());
                pendingNowait += prefix.isEmpty() ? 0 : 1;
            } else if (pick < 34) {
                l.add(String.format(Locale.ROOT, "%seeprom-write 0x%04x 0x%02x", prefix, 0x8000 + rng.nextInt(0x100), rng.nextInt(256)));
                pendingNowait += prefix.isEmpty() ? 0 : 1;
            } else if (pick < 60) {
                l.add(prefix + write(rng));
                pendingNowait += prefix.isEmpty() ? 0 : 1;
            } else {
                l.add(prefix + read(rng));
                pendingNowait += prefix.isEmpty() ? 0 : 1;
            }
        }
        return String.join("\n", l) + "\n";
    }

    /** REPORT_ROUTE_LO: one hop out of {@code port}; REPORT_DEST: the server's NIC, VP 1; REPORT_ENABLE: every code. */
    private static String reportSetup(int port) {
        return String.format(Locale.ROOT, "write 0x013 0x%x\nwrite 0x015 0x10001\nwrite 0x010 0x3e", port << 5 | 1);
    }

    private static String read(Rng rng) {
        String a = "read 0x" + Integer.toHexString(READABLE[rng.nextInt(READABLE.length)]);
        return rng.nextInt(3) == 0 ? a + " 0x" + Integer.toHexString(READABLE[rng.nextInt(READABLE.length)]) : a;
    }

    private static String write(Rng rng) {
        String a = "write 0x" + Integer.toHexString(WRITABLE[rng.nextInt(WRITABLE.length)]) + " 0x" + Long.toHexString(rng.nextLong() & 0xFFFFFFFFL);
        return rng.nextInt(3) == 0
                ? a + " 0x" + Integer.toHexString(WRITABLE[rng.nextInt(WRITABLE.length)]) + " 0x" + Integer.toHexString(rng.nextInt(1 << 16))
                : a;
    }
}
