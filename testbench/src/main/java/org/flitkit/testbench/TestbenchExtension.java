package org.flitkit.testbench;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Gives a JUnit test its {@link RunConfig}: one seed per test (stable, derived from the test's name,
 * or {@code -Dflitkit.seed=N} for all), and a VCD per test when asked with {@code -Dflitkit.vcd=DIR}
 * ({@code DIR/Class.method.vcd}; {@code DIR/Class.method-3.vcd} for the third case of a parameterized
 * test). Any failure is reported with the seed and the command to rerun it.
 *
 * <pre>{@code
 * @ExtendWith(TestbenchExtension.class)
 * class MyTest {
 *     @Test
 *     void streams(RunConfig cfg) { ... Testbench.create(MyDut::new, cfg.withCycles(5_000)) ... }
 * }
 * }</pre>
 */
public final class TestbenchExtension implements ParameterResolver, TestExecutionExceptionHandler {
    public static final String SEED_PROPERTY = "flitkit.seed";
    public static final String VCD_PROPERTY = "flitkit.vcd";

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        return p.getParameter().getType() == RunConfig.class;
    }

    @Override
    public RunConfig resolveParameter(ParameterContext p, ExtensionContext c) {
        String vcdDir = System.getProperty(VCD_PROPERTY);
        Path vcd = vcdDir == null || vcdDir.isBlank() ? null : Path.of(vcdDir).resolve(testName(c) + invocation(c) + ".vcd");
        return new RunConfig(seed(c), RunConfig.DEFAULT_CYCLES, vcd);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext c, Throwable t) throws Throwable {
        if (!usesRunConfig(c)) {
            throw t;
        }
        String rerun = "rerun: mvn -pl " + moduleDir() + " -am test -Dsurefire.failIfNoSpecifiedTests=false -Dtest='"
                + c.getRequiredTestClass().getSimpleName() + "#" + c.getRequiredTestMethod().getName() + "' -D" + SEED_PROPERTY
                + "=" + seed(c) + " -D" + VCD_PROPERTY + "=target/waves";
        AssertionError e = new AssertionError(t.getMessage() + "\n  " + rerun, t);
        e.setStackTrace(t.getStackTrace());
        throw e;
    }

    /** The test's seed: {@code -Dflitkit.seed} if given, else a hash of its class and method names. */
    static long seed(ExtensionContext c) {
        String s = System.getProperty(SEED_PROPERTY);
        if (s != null && !s.isBlank()) {
            return Long.parseLong(s.trim());
        }
        return Math.abs((long) testName(c).hashCode()) % 1_000_000;
    }

    /**
     * The module the test runs in, relative to the reactor root (Surefire runs each module's tests
     * in its own directory): the nearest parent whose {@code pom.xml} lists it as a module; {@code "."}
     * for a project of its own, also one inside another's folder.
     */
    static String moduleDir() {
        return moduleDir(Path.of("").toAbsolutePath());
    }

    static String moduleDir(Path here) {
        for (Path dir = here.getParent(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            String module = dir.relativize(here).toString().replace('\\', '/');
            try {
                if (Files.isRegularFile(pom)
                        && Pattern.compile("<module>\\s*" + Pattern.quote(module) + "\\s*</module>").matcher(Files.readString(pom)).find()) {
                    return module;
                }
            } catch (IOException e) {
                break;
            }
        }
        return ".";
    }

    private static String testName(ExtensionContext c) {
        return c.getRequiredTestClass().getSimpleName() + "." + c.getRequiredTestMethod().getName();
    }

    /** {@code "-N"} for the N-th invocation of a parameterized or repeated test, else empty. */
    private static String invocation(ExtensionContext c) {
        String id = c.getUniqueId();
        String marker = "-invocation:#";
        int at = id.lastIndexOf(marker);
        return at < 0 ? "" : "-" + id.substring(at + marker.length(), id.indexOf(']', at));
    }

    private static boolean usesRunConfig(ExtensionContext c) {
        Method m = c.getRequiredTestMethod();
        for (Class<?> p : m.getParameterTypes()) {
            if (p == RunConfig.class) {
                return true;
            }
        }
        return false;
    }
}
