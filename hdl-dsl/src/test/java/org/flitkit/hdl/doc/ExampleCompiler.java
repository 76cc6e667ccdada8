package org.flitkit.hdl.doc;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles every example of docs/dsl.md with javac, each in its own package as a class {@code Example}:
 * a module whose constructor body is the example ({@code Sim:}, {@code Fails:}) or a static method
 * {@code run()} whose body it is ({@code Result:}). The example's first line is on line 1 of the file, so
 * a {@code File.java:line} in a message is the line within the example.
 */
final class ExampleCompiler {
    /** What every example may use without importing it; docs/dsl.md lists the same. */
    static final String IMPORTS = String.join(" ",
            "import static org.flitkit.hdl.Hdl.*;",
            "import static org.flitkit.hdl.lib.Bitwise.*;",
            "import static org.flitkit.hdl.lib.OneHot.*;",
            "import org.flitkit.hdl.Bits; import org.flitkit.hdl.Bool; import org.flitkit.hdl.Bundle;",
            "import org.flitkit.hdl.Circuit; import org.flitkit.hdl.Data; import org.flitkit.hdl.HdlException;",
            "import org.flitkit.hdl.Mem; import org.flitkit.hdl.Module; import org.flitkit.hdl.SInt;",
            "import org.flitkit.hdl.UInt; import org.flitkit.hdl.Vec;",
            "import org.flitkit.hdl.lib.*; import org.flitkit.hdl.sim.*; import org.flitkit.hdl.verilog.*;",
            "import java.math.BigInteger; import java.nio.file.Path; import java.util.List; import java.util.Map;");

    /** One example after compilation: its class, or the javac errors that stopped it. */
    record Compiled(Class<?> exampleClass, String errors) {
    }

    private ExampleCompiler() {
    }

    /** Compiles all examples in one javac run under {@code dir}; each gets its class or its own errors. */
    static Map<DocExample, Compiled> compile(List<DocExample> examples, Path dir) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new AssertionError("no Java compiler in this runtime: the doc examples need a JDK");
        }
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, Locale.ROOT, null)) {
            Path src = dir.resolve("src");
            Path classes = dir.resolve("classes");
            Files.createDirectories(classes);
            List<String> options = List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                    "--release", "17", "-proc:none", "-encoding", "UTF-8");

            // pass 1: parse only, to find the top-level local variables a module example declares
            Map<Path, DocExample> files = write(examples, src, Map.of());
            Map<DocExample, List<Local>> locals = topLevelLocals(javac, fm, options, files);

            // pass 2: the same sources with those locals named, compiled; javac writes no class when any file
            // has errors, so the examples that compile are compiled again on their own
            files = write(examples, src, locals);
            Map<DocExample, StringBuilder> errors = new HashMap<>();
            Map<Path, DocExample> toCompile = files;
            while (!toCompile.isEmpty()) {
                Map<DocExample, StringBuilder> found = javac(javac, fm, options, toCompile);
                errors.putAll(found);
                if (found.isEmpty() || found.containsKey(null)) {
                    break;
                }
                Map<Path, DocExample> clean = new LinkedHashMap<>(toCompile);
                clean.values().removeAll(found.keySet());
                toCompile = clean;
            }
            URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ExampleCompiler.class.getClassLoader());
            Map<DocExample, Compiled> result = new LinkedHashMap<>();
            for (DocExample ex : examples) {
                StringBuilder e = errors.get(ex);
                StringBuilder global = errors.get(null);
                if (e != null || global != null) {
                    result.put(ex, new Compiled(null, (e != null ? e : global).toString()));
                } else {
                    result.put(ex, new Compiled(loader.loadClass(ex.packageName() + ".Example"), null));
                }
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new AssertionError("an example compiled without errors but its class is missing: " + e.getMessage(), e);
        }
    }

    /** One javac run; the errors by example (key null: errors outside any example). */
    private static Map<DocExample, StringBuilder> javac(JavaCompiler javac, StandardJavaFileManager fm, List<String> options,
            Map<Path, DocExample> files) {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        javac.getTask(new StringWriter(), fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files.keySet())).call();
        Map<DocExample, StringBuilder> errors = new HashMap<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                DocExample ex = d.getSource() == null ? null : files.get(Path.of(d.getSource().toUri()));
                String text = "line " + d.getLineNumber() + " of the example: " + d.getMessage(Locale.ROOT) + "\n";
                errors.computeIfAbsent(ex, k -> new StringBuilder()).append(text);
            }
        }
        return errors;
    }

    private static Map<Path, DocExample> write(List<DocExample> examples, Path src, Map<DocExample, List<Local>> locals)
            throws IOException {
        Map<Path, DocExample> files = new LinkedHashMap<>();
        for (DocExample ex : examples) {
            Path f = src.resolve(ex.packageName().replace('.', '/')).resolve("Example.java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, named(source(ex), locals.getOrDefault(ex, List.of())));
            files.put(f.toAbsolutePath(), ex);
        }
        return files;
    }

    /** A top-level local variable of a module example: its name and where its declaration ends in the source. */
    private record Local(String name, long end) {
    }

    /**
     * The source with each top-level local named right after its declaration, on the same line, as a field
     * would be named while the module is built (so that even errors thrown at once show the name).
     */
    private static String named(String source, List<Local> locals) {
        StringBuilder sb = new StringBuilder(source);
        for (int i = locals.size() - 1; i >= 0; i--) {
            Local l = locals.get(i);
            sb.insert((int) l.end(), " __name(\"" + l.name() + "\", " + l.name() + ");");
        }
        return sb.toString();
    }

    /** The compilation unit of one example, its first line on line 1. */
    static String source(DocExample ex) {
        List<String> probes = new ArrayList<>(switch (ex.kind()) {
            case SIM, RESULT -> new ExampleScript(ex.expectation()).names();
            case FAILS -> List.<String>of();
        });
        StringBuilder sb = new StringBuilder("package " + ex.packageName() + "; " + IMPORTS + " ");
        if (ex.kind() == DocExample.Kind.RESULT) {
            sb.append("@SuppressWarnings(\"unchecked\") public class Example { public static Map<String, Object> run() throws Exception {")
                    .append(" Map<String, Object> __probe = new java.util.LinkedHashMap<>(); ");
        } else {
            sb.append("@SuppressWarnings(\"unchecked\") public class Example extends Module {")
                    .append(" public final Map<String, Object> __probe = new java.util.LinkedHashMap<>(); public Example() { ");
        }
        sb.append(ex.code());
        for (String p : probes) {
            sb.append("        __probe.put(\"").append(p).append("\", ").append(p).append(");\n");
        }
        if (ex.kind() == DocExample.Kind.RESULT) {
            sb.append("        return __probe;\n    }\n}\n");
        } else {
            sb.append("    }\n")
                    .append("    /** Names a local variable's hardware as a field of that name would (Namer.offer). */\n")
                    .append("    private void __name(String n, Object o) {\n")
                    .append("        if (o instanceof Data d && d.owner() == this && d.name() == null\n")
                    .append("                && !(o instanceof Bits b && b.kind() == org.flitkit.hdl.Kind.LIT)) {\n")
                    .append("            d.named(n);\n")
                    .append("        } else if (o instanceof Mem<?> m && m.owner() == this && m.name() == null) {\n")
                    .append("            m.named(n);\n")
                    .append("        }\n    }\n}\n");
            sb.append("final class Factory implements java.util.function.Supplier<Module> {\n")
                    .append("    public Module get() {\n        return new Example();\n    }\n}\n");
        }
        return sb.toString();
    }

    /** Per module example, the local variables declared at the top level of its constructor body. */
    private static Map<DocExample, List<Local>> topLevelLocals(JavaCompiler javac, StandardJavaFileManager fm, List<String> options,
            Map<Path, DocExample> files) throws IOException {
        JavacTask task = (JavacTask) javac.getTask(new StringWriter(), fm, new DiagnosticCollector<>(), options, null,
                fm.getJavaFileObjectsFromPaths(files.keySet()));
        Map<DocExample, List<Local>> out = new HashMap<>();
        SourcePositions positions = Trees.instance(task).getSourcePositions();
        for (CompilationUnitTree unit : task.parse()) {
            DocExample ex = files.get(Path.of(unit.getSourceFile().toUri()));
            if (ex == null || ex.kind() == DocExample.Kind.RESULT) {
                continue;
            }
            List<Local> names = new ArrayList<>();
            for (Tree t : unit.getTypeDecls()) {
                if (t instanceof ClassTree c && c.getSimpleName().contentEquals("Example")) {
                    for (Tree member : c.getMembers()) {
                        if (member instanceof MethodTree m && m.getName().contentEquals("<init>") && m.getBody() != null) {
                            for (StatementTree s : m.getBody().getStatements()) {
                                if (s instanceof VariableTree v) {
                                    names.add(new Local(v.getName().toString(), positions.getEndPosition(unit, v)));
                                }
                            }
                        }
                    }
                }
            }
            out.put(ex, names);
        }
        return out;
    }
}
