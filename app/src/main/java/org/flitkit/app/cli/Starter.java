package org.flitkit.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The starter project of {@code hdl new}: the templates under {@code org/flitkit/app/starter/} (listed with their
 * destinations in {@code files.txt}), with every {@code {{key}}} replaced by the project's value.
 */
final class Starter {
    private static final String DIR = "/org/flitkit/app/starter/";
    private static final Pattern KEY = Pattern.compile("\\{\\{([a-zA-Z.]+)}}");

    private final Map<String, String> values;

    /** A project {@code artifactId} in Java package {@code pkg} (also its groupId), on {@code flitkit}'s artifacts. */
    Starter(String artifactId, String pkg, FlitKitClone flitkit) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("artifactId", artifactId);
        v.put("groupId", pkg);
        v.put("package", pkg);
        v.put("package.dir", pkg.replace('.', '/'));
        v.put("flitkit.groupId", flitkit.groupId());
        v.put("flitkit.artifactId", flitkit.artifactId());
        v.put("flitkit.version", flitkit.version());
        v.put("flitkit.testbench", flitkit.testbenchArtifactId());
        v.put("flitkit.hdl", flitkit.root().toAbsolutePath().resolve("hdl").toString());
        values = Map.copyOf(v);
    }

    /** One file of the project: where it goes (relative to the project) and what it holds. */
    record File(String path, String text) {
    }

    /** Every file of the project, in the order {@code files.txt} lists them. */
    List<File> files() {
        List<File> files = new ArrayList<>();
        for (String line : resource("files.txt").lines().toList()) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] parts = l.split("\\s+");
            if (parts.length != 2) {
                throw new IllegalStateException(DIR + "files.txt: expected 'template destination', got '" + l + "'");
            }
            files.add(new File(fill(parts[1]), fill(resource(parts[0]))));
        }
        return files;
    }

    /** Writes every file under {@code project}, creating its folders. */
    List<Path> write(Path project) {
        List<Path> written = new ArrayList<>();
        for (File f : files()) {
            Path p = project.resolve(f.path());
            try {
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.text());
            } catch (IOException e) {
                throw CliError.failure("cannot write " + p + ": " + IoErrors.reason(e));
            }
            written.add(p);
        }
        return written;
    }

    private String fill(String template) {
        Matcher m = KEY.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("starter template: no value for {{" + m.group(1) + "}}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String resource(String name) {
        try (InputStream in = Starter.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("starter template " + DIR + name + " is missing from FlitKit's build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
