package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.testbench.RepoFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hdl regmap nrc} and {@code hdl mgmt nrc}: output format and exit codes. */
class NrcCliTest {
    @Test
    void regmapNicPrintsTwelveBitAddresses() {
        HdlCliTest.Run r = HdlCliTest.hdl("regmap", "nic");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines()).hasSize(org.flitkit.rtl.nic.NicRegisters.map().size())
                .allMatch(l -> l.matches("[A-Z][A-Z0-9_]* 0x0[0-9A-F]{3} (RW|RO|W1C) reset=0x[0-9A-F]+"))
                .contains("CHIP_ID 0x0000 RW reset=0xFFFF", "NIC_FENCE_TIMEOUT 0x0120 RW reset=0x64", "VP39_EQ 0x089E RO reset=0x0",
                        "PORT0_NEIGHBOUR 0x0401 RO reset=0x0");
    }

    @Test
    void regmapFieldsFollowEachPackedRegister() {
        HdlCliTest.Run r = HdlCliTest.hdl("regmap", "nrc", "--fields");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> l = r.outLines();
        int at = l.indexOf("PORT3_IDENTITY 0x0430 RO reset=0x0");
        assertThat(l.subList(at, at + 6)).containsExactly(
                "PORT3_IDENTITY 0x0430 RO reset=0x0",
                "  [32]      valid            1: learnt (a neighbour word is 0 until the link has exchanged IDENT frames)",
                "  [31:16]   chip_id          the chip's CHIP_ID",
                "  [12:8]    port             the port of that chip",
                "  [1:0]     chip_type        0 = NIC, 1 = NRC",
                "PORT3_NEIGHBOUR 0x0431 RO reset=0x0");
        assertThat(l).contains("NRC_TABLE_PTR 0x010A RO reset=0x0", "  [20:16]   input_port       the input port whose table");
        HdlCliTest.Run nic = HdlCliTest.hdl("regmap", "nic", "--fields");
        assertThat(nic.outLines()).contains("VP8_SDQ 0x0820 RO reset=0x0",
                "  [39:32]   outstanding      answers outstanding (Fen waits for 0; a fence timeout clears it)");
        // without --fields: registers only
        assertThat(HdlCliTest.hdl("regmap", "nrc").outLines()).noneMatch(x -> x.startsWith("  "));
    }

    @Test
    void regmapPrintsOneLinePerRegister() {
        HdlCliTest.Run r = HdlCliTest.hdl("regmap", "nrc");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines()).hasSize(NrcRegisters.map().size())
                .allMatch(l -> l.matches("[A-Z][A-Z0-9_]* 0x[0-9A-F]{4} (RW|RO|W1C) reset=0x[0-9A-F]+"))
                .contains("CHIP_ID 0x0000 RW reset=0xFFFF")
                .anyMatch(l -> l.startsWith("SCRATCH0 "))
                .anyMatch(l -> l.matches(".*CRC.* RO .*"))
                .anyMatch(l -> l.startsWith("PORT23_NEIGHBOUR "));
        assertThat(HdlCliTest.hdl("regmap", "xyz").exit()).isEqualTo(2);
    }

    @Test
    void mgmtRunsAScriptAndEndsWithASummary(@TempDir Path dir) throws Exception {
        Path s = dir.resolve("s.mgmt");
        Files.writeString(s, "port 23\nread 0x0 0x3\nwrite 0x9 0x77\nread 0x9\ntimeout 500\ndest 0x10\nread 0x9\n");
        Path vcd = dir.resolve("m.vcd");
        HdlCliTest.Run r = HdlCliTest.hdl("mgmt", "nrc", "--via", "direct", "--script", s.toString(), "--vcd", vcd.toString(),
                "--eeprom-timing", "fast");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines()).hasSize(5).startsWith(
                "txn=1 op=read reg=CHIP_ID@0x000,PORT_COUNT@0x003 status=ok data=0xffff,0x18 latency=91",
                "txn=2 op=write reg=SCRATCH1@0x009 status=ok latency=89",
                "txn=3 op=read reg=SCRATCH1@0x009 status=ok data=0x77 latency=90",
                "txn=4 op=read reg=SCRATCH1@0x009 status=timeout");
        assertThat(r.lastLine()).matches("summary requests=4 ok=3 errors=0 timeouts=1 reports=0 cycles=3830 time=[0-9.]+s");
        assertThat(Files.size(vcd)).isPositive();
    }

    /**
     * examples/nrc-pair.mgmt with lanes 0 and 2 of the cable between the NRCs dead from power-up: that link trains
     * to 4 lanes (6 good) and chip 1's LINK_STATUS shows it with both lane masks; the requests still all succeed.
     */
    @Test
    void deadLanesOnAFabricCableShowInLinkStatus() {
        Path script = RepoFiles.find("examples/nrc-pair.mgmt");
        HdlCliTest.Run r = HdlCliTest.hdl("mgmt", "nrc", "--fabric", "pair", "--lanes-down", "0=0x05", "--script", script.toString(),
                "--eeprom-timing", "fast");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines()).anyMatch(l -> l.contains("data=0xfafa0401,0x1 "));
        assertThat(r.lastLine()).startsWith("summary requests=6 ok=6 errors=0 timeouts=0 reports=0 cycles=");
    }

    @Test
    void badLaneOptionsExitWith2AndSayWhy() {
        Path script = RepoFiles.find("examples/nrc-pair.mgmt");
        HdlCliTest.Run cable = HdlCliTest.hdl("mgmt", "nrc", "--fabric", "pair", "--lanes-down", "1=0x05", "--script", script.toString());
        assertThat(cable.exit()).isEqualTo(2);
        assertThat(cable.err()).contains("--lanes-down: fabric pair has cables 0..0, got [1]");
        HdlCliTest.Run mask = HdlCliTest.hdl("mgmt", "nrc", "--fabric", "pair", "--lanes-down", "0=0x100", "--script", script.toString());
        assertThat(mask.exit()).isEqualTo(2);
        assertThat(mask.err()).contains("MASK must be 0..0xFF", "'0x100'");
        HdlCliTest.Run noFabric = HdlCliTest.hdl("mgmt", "nrc", "--lanes-down", "0=1", "--script", script.toString());
        assertThat(noFabric.exit()).isEqualTo(2);
        assertThat(noFabric.err()).contains("--lanes-down needs --fabric");
    }

    /**
     * examples/nrc-mixed.mgmt: register requests sent {@code nowait} behind an E2PROM write print before it,
     * answered while eep_access is busy, 40 cycles apart (one packet each on the 20-bit relay-station path).
     */
    @Test
    void mixedExamplePrintsTheRegisterReadsBeforeTheE2promWrite() {
        Path script = RepoFiles.find("examples/nrc-mixed.mgmt");
        HdlCliTest.Run r = HdlCliTest.hdl("mgmt", "nrc", "--via", "direct", "--script", script.toString(), "--eeprom-timing", "fast");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(withoutTime(r.outLines())).containsExactly(
                "txn=2 op=read reg=CHIP_ID@0x000 status=ok data=0xffff latency=130",
                "txn=3 op=read reg=CYCLE_COUNT@0x004,NMP_REQUESTS@0x020 status=ok data=0x49c,0x3 latency=171",
                "txn=4 op=write reg=SCRATCH0@0x008 status=ok latency=211",
                "txn=5 op=read reg=SCRATCH0@0x008 status=ok data=0x1234 latency=251",
                "txn=1 op=eeprom-write addr=0x0100 status=ok latency=818",
                "txn=6 op=eeprom-read addr=0x0100 status=ok data=0x5a latency=592",
                "summary requests=6 ok=6 errors=0 timeouts=0 reports=0 cycles=4469");
    }

    /**
     * The same example through the server's NIC (the default): descriptors in VP 8's SDQ, doorbells, the cable, the MPQ.
     * The register reads still print before the E2PROM write; latency counts from the doorbell write to the answer in the
     * MPQ, and the NIC fetches one descriptor of a VP per PCIe read round trip (60 cycles), so they are 60-63 cycles apart.
     */
    @Test
    void mixedExampleThroughTheNicStillAnswersTheReadsDuringTheE2promWrite() {
        Path script = RepoFiles.find("examples/nrc-mixed.mgmt");
        HdlCliTest.Run r = HdlCliTest.hdl("mgmt", "nrc", "--script", script.toString(), "--eeprom-timing", "fast");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(withoutTime(r.outLines())).containsExactly(
                "txn=2 op=read reg=CHIP_ID@0x000 status=ok data=0xffff latency=301",
                "txn=3 op=read reg=CYCLE_COUNT@0x004,NMP_REQUESTS@0x020 status=ok data=0xf33,0x3 latency=364",
                "txn=4 op=write reg=SCRATCH0@0x008 status=ok latency=424",
                "txn=5 op=read reg=SCRATCH0@0x008 status=ok data=0x1234 latency=487",
                "txn=1 op=eeprom-write addr=0x0100 status=ok latency=967",
                "txn=6 op=eeprom-read addr=0x0100 status=ok data=0x5a latency=741",
                "summary requests=6 ok=6 errors=0 timeouts=0 reports=0 cycles=7330");
    }

    /** The demo script through the NIC gives every status and datum of the direct run, each answer later. */
    @Test
    void demoThroughTheNicGivesTheDirectRunsStatusesAndDataWithLargerLatencies() {
        Path script = RepoFiles.find("examples/nrc-demo.mgmt");
        HdlCliTest.Run direct = HdlCliTest.hdl("mgmt", "nrc", "--via", "direct", "--script", script.toString(), "--eeprom-timing", "fast");
        HdlCliTest.Run nic = HdlCliTest.hdl("mgmt", "nrc", "--via", "nic", "--script", script.toString(), "--eeprom-timing", "fast");
        assertThat(direct.exit()).as(direct.err()).isZero();
        assertThat(nic.exit()).as(nic.err()).isZero();
        List<String> d = direct.outLines();
        List<String> n = nic.outLines();
        assertThat(n).hasSize(d.size());
        assertThat(d).hasSize(22);
        for (int i = 0; i < d.size(); i++) {
            assertThat(strip(n.get(i))).isEqualTo(strip(d.get(i)));
            if (d.get(i).contains("latency=")) {
                assertThat(latency(n.get(i))).as(n.get(i)).isGreaterThan(latency(d.get(i)));
            }
        }
    }

    private static String strip(String line) {
        return line.replaceAll(" latency=\\d+", "").replaceAll(" cycles?=\\d+", "").replaceAll(" time=[0-9.]+s", "");
    }

    /** The lines without the summary's wall time (the one number that is not the model's). */
    static List<String> withoutTime(List<String> lines) {
        return lines.stream().map(l -> l.replaceAll(" time=[0-9.]+s$", "")).toList();
    }

    private static long latency(String line) {
        return Long.parseLong(line.replaceAll(".* latency=(\\d+).*", "$1"));
    }

    @Test
    void malformedScriptExitsWith2AndTheLine(@TempDir Path dir) throws Exception {
        Path s = dir.resolve("bad.mgmt");
        Files.writeString(s, "port 1\n# fine\nread 0x1 0x2 0x3\n");
        HdlCliTest.Run r = HdlCliTest.hdl("mgmt", "nrc", "--script", s.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("bad.mgmt:3:").contains("read takes 1 to 2 arguments");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anUnreadableScriptIsOneLineWithTheReasonAndExitTwo(@TempDir Path dir) throws Exception {
        Path nul = dir.resolve("nul.mgmt");
        Files.write(nul, new byte[] {'p', 'o', 'r', 't', ' ', '1', 0, '\n'});
        Path latin1 = dir.resolve("latin1.mgmt");
        Files.write(latin1, new byte[] {'#', ' ', 'r', (byte) 0xE9, 'g', 'l', 'a', 'g', 'e', '\n'});
        assertUnreadable(dir.resolve("missing.mgmt"), "No such file or directory");
        assertUnreadable(dir, "Is a directory");
        assertUnreadable(nul, "not a text file (NUL byte at offset 6)");
        assertUnreadable(latin1, "not a text file (invalid UTF-8)");
    }

    private static void assertUnreadable(Path script, String reason) {
        HdlCliTest.Run r = HdlCliTest.hdl("mgmt", "nrc", "--script", script.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("hdl: cannot read " + script + ": " + reason + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }
}
