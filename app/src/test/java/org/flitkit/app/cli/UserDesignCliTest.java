package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.testbench.ExternalTools;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hdl verilog --class} and {@code hdl sim --class} on designs that are not in the catalog: the
 * sources are compiled here, at test time, against FlitKit's classpath, as a user would with javac.
 */
class UserDesignCliTest {
    /** An 8-bit counter with an enable, a plain design a user would write first. */
    private static final String COUNTER = """
            package my.pkg;

            import static org.flitkit.hdl.Hdl.*;

            import org.flitkit.hdl.Bool;
            import org.flitkit.hdl.Module;
            import org.flitkit.hdl.UInt;

            public class Counter extends Module {
                public final Bool enable = input(Bool());
                public final UInt count = output(UInt(8));
                public final Bool wrap = output(Bool());

                public Counter() {
                    UInt value = regInit(UInt(8), 0);
                    when(enable, () -> value.assign(value.add(1)));
                    count.assign(value);
                    wrap.assign(enable.and(value.eq(255)));
                }
            }
            """;

    private static final Map<String, String> SOURCES = Map.of(
            "my/pkg/Counter.java", COUNTER,
            "my/pkg/Factory.java", """
                    package my.pkg;

                    import static org.flitkit.hdl.Hdl.*;

                    import org.flitkit.hdl.Module;
                    import org.flitkit.hdl.UInt;

                    public class Factory extends Module {
                        public final UInt out = output(UInt(4));

                        private Factory(int v) {
                            out.assign(v);
                        }

                        public static Factory five() {
                            return new Factory(5);
                        }
                    }
                    """,
            "my/pkg/TwoFactories.java", """
                    package my.pkg;

                    import org.flitkit.hdl.Module;

                    public class TwoFactories extends Module {
                        private TwoFactories() {
                        }

                        public static TwoFactories small() {
                            return new TwoFactories();
                        }

                        public static TwoFactories large() {
                            return new TwoFactories();
                        }
                    }
                    """,
            "my/pkg/NeedsWidth.java", """
                    package my.pkg;

                    import org.flitkit.hdl.Module;

                    public class NeedsWidth extends Module {
                        public NeedsWidth(int width) {
                        }
                    }
                    """,
            "my/pkg/Throws.java", """
                    package my.pkg;

                    import org.flitkit.hdl.Module;

                    public class Throws extends Module {
                        public Throws() {
                            int width = Integer.getInteger("my.width", 0);
                            check(width);
                        }

                        private static void check(int width) {
                            if (width == 0) {
                                throw new IllegalArgumentException("width must be set with -Dmy.width");
                            }
                        }
                    }
                    """,
            "my/pkg/Overflow.java", """
                    package my.pkg;

                    import static org.flitkit.hdl.Hdl.*;

                    import org.flitkit.hdl.Module;
                    import org.flitkit.hdl.UInt;

                    public class Overflow extends Module {
                        public final UInt count = output(UInt(8));

                        public Overflow() {
                            UInt value = regInit(UInt(8), 0);
                            value.assign(value.add(1));
                            count.assign(value);
                            check(value.lt(40), "count %d reached 40", value);
                        }
                    }
                    """,
            "my/pkg/Plain.java", """
                    package my.pkg;

                    public class Plain {
                    }
                    """);

    @TempDir
    static Path classes;

    @BeforeAll
    static void compileTheUserSources(@TempDir Path sources) throws IOException {
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path")));
        for (Map.Entry<String, String> s : SOURCES.entrySet()) {
            Path f = sources.resolve(s.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, s.getValue());
            args.add(f.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, null, diagnostics, args.toArray(new String[0]));
        assertThat(rc).as("javac: %s", diagnostics).isZero();
    }

    private static HdlCliTest.Run hdl(String... args) {
        return HdlCliTest.hdl(args);
    }

    @Test
    void verilogOfAUserClassIsLintCleanForVerilator(@TempDir Path out) {
        HdlCliTest.Run r = hdl("verilog", "--class", "my.pkg.Counter", "--classpath", classes.toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines()).containsExactly("design: my.pkg.Counter, built by new Counter()", out.resolve("Counter.v").toString(),
                "wrote 1 file(s), top module Counter, to " + out);

        ExternalTools.require("verilator", "verilator");
        // exactly what the README tells users to run
        VerilogTools.Result lint = VerilogTools.run(out, Duration.ofMinutes(2),
                List.of("sh", "-c", "verilator --lint-only -Wall " + out + "/*.v"));
        assertThat(lint.clean()).as("%s", lint).isTrue();
    }

    @Test
    void simDrivesRandomInputsAndTheDumpAgreesWithTheDesign(@TempDir Path dir) {
        Path vcd = dir.resolve("counter.vcd");
        HdlCliTest.Run r = hdl("sim", "--class", "my.pkg.Counter", "--classpath", classes.toString(), "--cycles", "600",
                "--random-inputs", "--seed", "7", "--vcd", vcd.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines().get(0)).isEqualTo("design: my.pkg.Counter, built by new Counter()");
        assertThat(r.out()).contains("waves: " + vcd, "view: gtkwave " + vcd + " " + dir.resolve("counter.gtkw"));
        assertThat(r.lastLine()).matches("sim my\\.pkg\\.Counter random-inputs seed=7 cycles=602 time=\\d+\\.\\d\\ds \\([\\d,]+ cycles/s\\)");

        // the counter counts exactly the cycles after reset in which the random enable was high
        VcdReader dump = VcdReader.read(vcd);
        VcdReader.Signal enable = dump.signal("counter.enable");
        long period = 10_000;
        int high = 0;
        for (long c = SimCommand.RESET_CYCLES; c < 602; c++) {
            high += enable.valueAt(c * period + period / 2).intValue();
        }
        assertThat(high).isBetween(200, 400); // random, not stuck at zero or one
        assertThat(dump.signal("counter.count").valueAt(602 * period)).isEqualTo(BigInteger.valueOf(high % 256));
    }

    @Test
    void simWithoutRandomInputsHoldsThemAtZero() {
        HdlCliTest.Run r = hdl("sim", "--class", "my.pkg.Counter", "--classpath", classes.toString(), "--cycles", "50");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lastLine()).startsWith("sim my.pkg.Counter zero-inputs cycles=52 ");
    }

    @Test
    void aFailingCheckIsOneFailLineWithExitOneAndTheSaveFileMarksItsCycle(@TempDir Path dir) throws IOException {
        Path vcd = dir.resolve("overflow.vcd");
        HdlCliTest.Run r = hdl("sim", "--class", "my.pkg.Overflow", "--classpath", classes.toString(), "--cycles", "100",
                "--vcd", vcd.toString());
        assertThat(r.exit()).isEqualTo(1);
        // Overflow.java line 15 is the check; the register is 0 on cycle 2, the first after reset, so 40 on cycle 42
        assertThat(r.outLines()).containsExactly("design: my.pkg.Overflow, built by new Overflow()",
                "FAIL sim my.pkg.Overflow zero-inputs cycle=42 instance=overflow at Overflow.java:15: count 40 reached 40");
        Path gtkw = dir.resolve("overflow.gtkw");
        assertThat(r.err()).isEqualTo("waves up to the failure: " + vcd + "\n  view: gtkwave " + vcd + " " + gtkw + "\n");
        // the marker (second field of the zoom line) on cycle 42's falling edge, 10 ns cycles in 1 ps ticks
        assertThat(Files.readAllLines(gtkw)).anyMatch(l -> l.matches("\\*-[\\d.]+ 425000( -1)+")).contains("[timestart] 0");
    }

    @Test
    void aPublicStaticFactoryBuildsTheDesignWhenThereIsNoConstructor(@TempDir Path out) throws IOException {
        HdlCliTest.Run r = hdl("verilog", "--class", "my.pkg.Factory", "--classpath", classes.toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines().get(0)).isEqualTo("design: my.pkg.Factory, built by Factory.five()");
        assertThat(Files.readString(out.resolve("Factory.v"))).contains("assign out = 4'h5;");
    }

    @Test
    void eachWayOfGettingTheClassWrongIsOneLineWithExitTwo() {
        String cp = classes.toString();
        assertThat(oneLineError(2, "--class", "my.pkg.Nope", "--classpath", cp))
                .isEqualTo("hdl: class my.pkg.Nope not found on the classpath (" + cp + ")");
        assertThat(oneLineError(2, "--class", "my.pkg.Nope"))
                .isEqualTo("hdl: class my.pkg.Nope not found on the classpath (no --classpath or HDL_CLASSPATH given)");
        assertThat(oneLineError(2, "--class", "my.pkg.Plain", "--classpath", cp))
                .isEqualTo("hdl: my.pkg.Plain is not a Module (it must extend org.flitkit.hdl.Module)");
        assertThat(oneLineError(2, "--class", "my.pkg.NeedsWidth", "--classpath", cp))
                .isEqualTo("hdl: my.pkg.NeedsWidth has no public no-argument constructor and no public static no-argument method"
                        + " returning a Module");
        assertThat(oneLineError(2, "--class", "my.pkg.TwoFactories", "--classpath", cp))
                .isEqualTo("hdl: my.pkg.TwoFactories has no public no-argument constructor and several factory methods"
                        + " (large(), small()); keep one");
        assertThat(oneLineError(2, "--class", "my.pkg.Counter", "--classpath", cp + "/missing"))
                .isEqualTo("hdl: classpath entry " + cp + "/missing does not exist");
        assertThat(oneLineError(2, "flit-loopback", "--class", "my.pkg.Counter"))
                .isEqualTo("hdl: give either a design name or --class, not both");
        assertThat(oneLineError(2)).isEqualTo("hdl: give a design name from 'hdl list' or --class CLASS");
    }

    @Test
    void aThrowingConstructorIsReportedWithItsMessageAndTheUsersLine() {
        // Throws.java line 13 is the throw, inside check() called from the constructor
        assertThat(oneLineError(1, "--class", "my.pkg.Throws", "--classpath", classes.toString()))
                .isEqualTo("hdl: new my.pkg.Throws() threw IllegalArgumentException: width must be set with -Dmy.width (Throws.java:13)");
    }

    /** Runs {@code hdl sim ARGS} and {@code hdl verilog ARGS -o ...}, checks both exit with {@code code} and one stderr line, returns it. */
    private static String oneLineError(int code, String... args) {
        List<String> lines = new ArrayList<>();
        for (String command : List.of("sim", "verilog")) {
            List<String> all = new ArrayList<>(List.of(command));
            all.addAll(List.of(args));
            if (command.equals("verilog")) {
                all.addAll(List.of("-o", classes.resolve("never-written").toString()));
            }
            HdlCliTest.Run r = hdl(all.toArray(new String[0]));
            assertThat(r.exit()).as(r.err()).isEqualTo(code);
            assertThat(r.err().lines()).as(command).hasSize(1);
            lines.add(r.err().strip());
        }
        assertThat(lines.get(1)).isEqualTo(lines.get(0));
        assertThat(classes.resolve("never-written")).doesNotExist();
        return lines.get(0);
    }
}
