package org.flitkit.hdl.doc;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} example of docs/dsl.md, compiled and run as its next line says ("About the
 * examples" there): a {@code Sim:} module is elaborated and simulated by its script, a {@code Fails:} module
 * must fail elaboration with exactly the message shown, a {@code Result:} testbench must leave its
 * variables at the values shown. One dynamic test per example, named by its doc line.
 */
class DslDocTest {
    @TempDir
    static Path work;

    private static List<DocExample> examples;
    private static Map<DocExample, ExampleCompiler.Compiled> compiled;
    /** examples that ran as the doc says, by kind */
    private static final Map<DocExample.Kind, Integer> passed = new java.util.concurrent.ConcurrentHashMap<>();

    @BeforeAll
    static void compileTheExamples() throws IOException {
        examples = DocExample.parse(Files.readString(doc(), StandardCharsets.UTF_8));
        compiled = ExampleCompiler.compile(examples, work);
        System.out.println("docs/dsl.md: " + examples.size() + " examples compiled");
    }

    @TestFactory
    Stream<DynamicTest> everyExampleRunsAsTheDocSays() {
        if (examples.isEmpty()) {
            throw new AssertionError("docs/dsl.md has no ```java examples");
        }
        return examples.stream().map(ex -> DynamicTest.dynamicTest(ex.toString(), () -> {
            run(ex);
            passed.merge(ex.kind(), 1, Integer::sum);
        }));
    }

    @AfterAll
    static void summary() {
        int all = passed.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("docs/dsl.md: " + all + " of " + examples.size() + " examples ran as documented ("
                + passed.getOrDefault(DocExample.Kind.SIM, 0) + " Sim, " + passed.getOrDefault(DocExample.Kind.FAILS, 0)
                + " Fails, " + passed.getOrDefault(DocExample.Kind.RESULT, 0) + " Result)");
    }

    private static void run(DocExample ex) throws Exception {
        ExampleCompiler.Compiled c = compiled.get(ex);
        if (c.errors() != null) {
            throw new AssertionError(ex + " does not compile:\n" + c.errors());
        }
        switch (ex.kind()) {
            case SIM -> {
                Circuit circuit = Circuit.elaborate(factory(c.exampleClass()));
                // a value only the script reads drives nothing: dead-logic warnings are expected, not printed
                circuit.reportWarnings(w -> { });
                Simulator sim = Simulator.of(circuit);
                @SuppressWarnings("unchecked")
                Map<String, Object> probes = (Map<String, Object>) c.exampleClass().getField("__probe").get(circuit.top());
                new ExampleScript(ex.expectation()).simulate(sim, probes, ex.toString());
            }
            case FAILS -> {
                try {
                    Circuit.elaborate(factory(c.exampleClass()));
                } catch (HdlException e) {
                    if (!e.getMessage().equals(ex.expectation())) {
                        throw new AssertionError(ex + ": elaboration failed with\n  " + e.getMessage() + "\nthe doc says\n  "
                                + ex.expectation());
                    }
                    return;
                }
                throw new AssertionError(ex + ": elaboration succeeded, the doc says it fails with " + ex.expectation());
            }
            case RESULT -> {
                Map<String, Object> probes;
                try {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> p = (Map<String, Object>) c.exampleClass().getMethod("run").invoke(null);
                    probes = p;
                } catch (InvocationTargetException e) {
                    throw new AssertionError(ex + " threw " + e.getCause(), e.getCause());
                }
                new ExampleScript(ex.expectation()).compare(probes, ex.toString());
            }
        }
    }

    /** The generated {@code Factory} of a module example: {@code new Example()}. */
    @SuppressWarnings("unchecked")
    private static Supplier<Module> factory(Class<?> example) throws ReflectiveOperationException {
        var ctor = example.getClassLoader().loadClass(example.getPackageName() + ".Factory").getDeclaredConstructor();
        ctor.setAccessible(true);
        return (Supplier<Module>) ctor.newInstance();
    }

    private static Path doc() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("docs/dsl.md");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new AssertionError("docs/dsl.md not found above " + Path.of("").toAbsolutePath());
    }
}
