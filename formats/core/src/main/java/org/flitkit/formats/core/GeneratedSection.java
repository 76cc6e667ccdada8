package org.flitkit.formats.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The generated section of a doc file: the lines between a {@code BEGIN} marker line and an
 * {@code END} marker, written by the generator {@code owner} (named in error messages).
 */
public record GeneratedSection(String owner, String begin, String end) {

    /** The text between the markers of a document, exclusive, or a clear error if they are missing. */
    public String extract(String doc) {
        int b = doc.indexOf(begin);
        int e = doc.indexOf(end);
        if (b < 0 || e < b) {
            throw new IllegalArgumentException("document lacks the " + owner + " markers " + begin + " ... " + end);
        }
        return doc.substring(b + begin.length() + 1, e);
    }

    /** The document with its generated section replaced. */
    public String splice(String doc, String generated) {
        String old = extract(doc);
        int start = doc.indexOf(begin) + begin.length() + 1;
        return doc.substring(0, start) + generated + doc.substring(start + old.length());
    }

    /** Replaces the generated section of {@code file} in place (UTF-8) and says so on stdout. */
    public void update(Path file, String generated) throws IOException {
        String doc = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, splice(doc, generated), StandardCharsets.UTF_8);
        System.out.println("updated " + file);
    }

    /**
     * A generator's command line: no arguments prints the section, {@code --update FILE} replaces it in FILE.
     * False for any other arguments (the caller prints its usage).
     */
    public boolean main(String[] args, java.util.function.Supplier<String> generate) throws IOException {
        if (args.length == 2 && args[0].equals("--update")) {
            update(Path.of(args[1]), generate.get());
        } else if (args.length == 0) {
            System.out.print(generate.get());
        } else {
            return false;
        }
        return true;
    }
}
