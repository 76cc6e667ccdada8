package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flitkit.app.Catalog;
import org.flitkit.app.demo.FlitLoopbackScenario;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --vcd} and {@code --vcd-limit}: files that cannot be written, and dumps that grow too large. */
class WavesCliTest {
    private static final long PERIOD = 10_000; // ps per cycle in the dump

    /** flit-loopback, counting how often its scenario was started. */
    private static Catalog counting(AtomicInteger runs) {
        return new Catalog().testbench("flit-loopback", "counted", cfg -> {
            runs.incrementAndGet();
            return FlitLoopbackScenario.run(cfg);
        });
    }

    @Test
    void anUnwritableVcdIsOneLineAndExitTwoBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Catalog c = counting(runs);
        Path file = dir.resolve("file");
        Files.writeString(file, "not a directory");
        assertUnwritable(c, "/proc/x.vcd", "No such file or directory");
        assertUnwritable(c, dir.toString(), "Is a directory");
        assertUnwritable(c, "/proc/flitkit/waves/x.vcd", "No such file or directory"); // parent cannot be created
        assertUnwritable(c, file.resolve("x.vcd").toString(), "Not a directory");
        assertThat(runs).hasValue(0);
        assertThat(Files.readString(file)).isEqualTo("not a directory");
    }

    private static void assertUnwritable(Catalog c, String vcd, String reason) {
        HdlCliTest.Run r = HdlCliTest.hdl(c, "run", "flit-loopback", "--vcd", vcd);
        assertThat(r.exit()).as(vcd).isEqualTo(2);
        assertThat(r.err()).isEqualTo("hdl: cannot write " + vcd + ": " + reason + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }

    @Test
    void theCheckLeavesNothingBehindAndDoesNotTruncate(@TempDir Path dir) throws Exception {
        Path vcd = dir.resolve("new/sub/x.vcd");
        HdlCliTest.Run r = HdlCliTest.hdl("sim", "flit-loopback", "--cycles", "10", "--vcd", vcd.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(VcdReader.read(vcd).endTime()).isEqualTo(12 * PERIOD + PERIOD / 2); // 2 reset + 10 cycles
        // a design that does not elaborate: the existing dump is untouched by the check
        long before = Files.size(vcd);
        HdlCliTest.Run bad = HdlCliTest.hdl("sim", "--class", "my.pkg.Nope", "--vcd", vcd.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(Files.size(vcd)).isEqualTo(before);
        HdlCliTest.Run fresh = HdlCliTest.hdl("sim", "--class", "my.pkg.Nope", "--vcd", dir.resolve("y.vcd").toString());
        assertThat(fresh.exit()).isEqualTo(2);
        assertThat(dir.resolve("y.vcd")).doesNotExist();
    }

    @Test
    void aDumpPastTheLimitStopsTheRunWithOneLineAndLeavesAValidDump(@TempDir Path dir) throws Exception {
        Path vcd = dir.resolve("x.vcd");
        HdlCliTest.Run r = HdlCliTest.hdl("run", "flit-loopback", "--vcd", vcd.toString(), "--vcd-limit", "1M");
        assertThat(r.exit()).isEqualTo(1);
        Matcher m = Pattern.compile("hdl: " + Pattern.quote(vcd.toString())
                + " reached the 1 MB limit at cycle (\\d+); raise it with --vcd-limit" + System.lineSeparator()).matcher(r.err());
        assertThat(m.matches()).as(r.err()).isTrue();
        assertThat(r.out()).isEmpty();
        long cycle = Long.parseLong(m.group(1));

        // past 1 MiB by the last timestamp's changes only, which end in (or just before) the reported cycle
        assertThat(Files.size(vcd)).isGreaterThan(1 << 20).isLessThan((1 << 20) + 4096);
        long end = VcdReader.read(vcd).endTime();
        assertThat(end).isIn(cycle * PERIOD - PERIOD / 2, cycle * PERIOD);
        assertThat(dir.resolve("x.gtkw")).isNotEmptyFile();

        HdlCliTest.Run raised = HdlCliTest.hdl("run", "flit-loopback", "--cycles", "2000", "--vcd", vcd.toString(), "--vcd-limit", "50M");
        assertThat(raised.exit()).as(raised.err()).isZero();
    }

    @Test
    void sizesAreBytesOrPowersOf1024() {
        assertThat(ByteSize.parse("1048576")).isEqualTo(1L << 20);
        assertThat(ByteSize.parse("500K")).isEqualTo(500L << 10);
        assertThat(ByteSize.parse("1m")).isEqualTo(1L << 20);
        assertThat(ByteSize.parse("2GB")).isEqualTo(2L << 30);
        assertThat(ByteSize.format(1L << 20)).isEqualTo("1 MB");
        assertThat(ByteSize.format(4L << 30)).isEqualTo("4 GB");
        assertThat(ByteSize.format(21_810_000)).isEqualTo("20.8 MB");
        assertThat(ByteSize.format(900)).isEqualTo("900 bytes");
        assertThatThrownBy(() -> ByteSize.parse("1Q")).hasMessage("'1Q' is not a size; use bytes or a number with K, M or G, e.g. 500K, 1M, 4G");
        assertThatThrownBy(() -> ByteSize.parse("0")).hasMessageContaining("at least 1 byte");
        assertThatThrownBy(() -> ByteSize.parse("9000000000G")).hasMessageContaining("below 8 EB");

        HdlCliTest.Run r = HdlCliTest.hdl("run", "flit-loopback", "--vcd-limit", "lots");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("hdl: Invalid value for option '--vcd-limit': 'lots' is not a size;");
    }
}
