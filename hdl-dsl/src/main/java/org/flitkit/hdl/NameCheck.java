package org.flitkit.hdl;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The elaboration warning for {@code Type var = ... .named("other")} with {@code var != other}: the Java
 * variable and the signal's name in waves, peeks and Verilog disagree (docs/dsl.md "Naming"). The caller's
 * line is read from its source file, found from the class's build output ({@code target/classes} next to
 * {@code src/main/java}, {@code target/test-classes} next to {@code src/test/java}); files are read once,
 * and a class without findable sources costs one lookup.
 */
final class NameCheck {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final CodeSource CORE = NameCheck.class.getProtectionDomain().getCodeSource();
    /** A declaration with an initializer: modifiers, a type (generic, array), the variable, then {@code =}. */
    private static final Pattern DECLARATION = Pattern.compile(
            "^\\s*(?:(?:public|protected|private|static|final)\\s+)*[A-Za-z_][\\w.]*(?:<.*?>)?(?:\\[\\])*\\s+(\\w+)\\s*=(?!=)");
    private static final Pattern NAMED = Pattern.compile("\\.named\\(\\s*\"(\\w+)\"\\s*\\)");
    /** Source lines by file; an empty list for a file that cannot be found or read. */
    private static final Map<String, List<String>> SOURCES = new ConcurrentHashMap<>();

    private NameCheck() {
    }

    /** Adds a warning to the running elaboration when the caller's line assigns {@code named(name)} to another variable. */
    static void check(Data d, String name) {
        Builder b = Builder.peek();
        if (b == null) {
            return;
        }
        StackWalker.StackFrame f = WALKER.walk(frames -> frames
                .filter(x -> !isCore(x.getDeclaringClass()))
                .findFirst()
                .orElse(null));
        if (f == null || f.getFileName() == null || f.getLineNumber() < 1) {
            return;
        }
        List<String> lines = SOURCES.computeIfAbsent(f.getClassName(), k -> read(f.getDeclaringClass(), f.getFileName()));
        if (f.getLineNumber() > lines.size()) {
            return;
        }
        String line = lines.get(f.getLineNumber() - 1);
        Matcher decl = DECLARATION.matcher(line);
        Matcher named = NAMED.matcher(line);
        if (!decl.find() || !named.find()) {
            return;
        }
        String variable = decl.group(1);
        String given = named.group(1);
        // one literal name on the line, the one this call gave: otherwise the line says too little to judge
        if (named.find() || !given.equals(name) || variable.equals(name)) {
            return;
        }
        SrcLoc at = new SrcLoc(f.getFileName(), f.getLineNumber());
        String signal = d.owner == null ? name : d.owner.path() + "." + name;
        b.warnings.add(new Circuit.Warning(signal, at, at + ": the signal named '" + name + "' is held in the Java variable '"
                + variable + "'; waves, peeks and Verilog show '" + name + "'. Name it '" + variable
                + "' or rename the variable, so that both say the same"));
    }

    private static boolean isCore(Class<?> c) {
        return c.getPackageName().equals("org.flitkit.hdl") && Objects.equals(c.getProtectionDomain().getCodeSource(), CORE);
    }

    /** The lines of {@code fileName} of {@code c}'s package in the source root beside its classes, or none. */
    private static List<String> read(Class<?> c, String fileName) {
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs == null || cs.getLocation() == null || !"file".equals(cs.getLocation().getProtocol())) {
                return List.of();
            }
            Path classes = Path.of(cs.getLocation().toURI());
            Path target = classes.getParent();
            if (target == null || target.getParent() == null || !Files.isDirectory(classes)) {
                return List.of();
            }
            String root = switch (classes.getFileName().toString()) {
                case "classes" -> "src/main/java";
                case "test-classes" -> "src/test/java";
                default -> null;
            };
            if (root == null) {
                return List.of();
            }
            Path file = target.getParent().resolve(root).resolve(c.getPackageName().replace('.', '/')).resolve(fileName);
            return Files.isRegularFile(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return List.of();
        }
    }
}
