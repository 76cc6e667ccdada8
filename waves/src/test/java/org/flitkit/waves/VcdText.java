package org.flitkit.waves;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Consumer;

/** Test helper: runs a writer script against memory and returns the text or the parsed dump. */
final class VcdText {
    static final String FIXED_DATE = "2025-01-01T00:00:00Z";
    static final String VERSION_LINE = "$version FlitKit jvcd "
            + Objects.requireNonNullElse(VcdWriter.class.getPackage().getImplementationVersion(), "dev") + " $end";

    private VcdText() {
    }

    /** Runs {@code script} on a 1ns writer with a fixed date, closes it and returns the VCD text. */
    static String write(Consumer<VcdWriter> script) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VcdWriter w = new VcdWriter(bytes, new Timescale(1, "ns")).date(FIXED_DATE)) {
            script.accept(w);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    /** Like {@link #write} but parses the result. */
    static VcdReader read(Consumer<VcdWriter> script) {
        return parse(write(script));
    }

    static VcdReader parse(String vcd) {
        return VcdReader.read(new StringReader(vcd));
    }

    /** The value change section, i.e. everything after {@code $enddefinitions $end}. */
    static String body(String vcd) {
        String marker = "$enddefinitions $end\n";
        return vcd.substring(vcd.indexOf(marker) + marker.length());
    }
}
