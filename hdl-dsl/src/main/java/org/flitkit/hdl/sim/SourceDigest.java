package org.flitkit.hdl.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Circuit;

/**
 * SHA-256 of the Java source the simulator generates for a circuit, per variant (model, fast, plain;
 * docs/simulator.md), without compiling it. Tests compare these with recorded values to show that a change to
 * the code generator leaves what it generates byte for byte the same. The one part of the source that depends on
 * what ran before in the JVM, the id of a shared {@link LinearMaps} table, is hashed as the table's contents.
 */
public final class SourceDigest {
    /** The variants, in the order {@link #of} gives them. */
    public static final List<String> VARIANTS = List.of("model", "fast", "plain");

    private SourceDigest() {
    }

    /** Variant name -> hexadecimal SHA-256 of its generated units (each unit followed by a NUL). */
    public static Map<String, String> of(Circuit circuit) {
        CodeGen.Programs p = SimCompiler.generate(circuit.netlist());
        Map<String, String> out = new LinkedHashMap<>();
        out.put("model", sha256(p.model()));
        out.put("fast", sha256(p.fast()));
        out.put("plain", sha256(p.plain()));
        return out;
    }

    /** One line per variant: {@code design variant sha256}, the format of the recorded digest files. */
    public static List<String> lines(String design, Circuit circuit) {
        List<String> out = new java.util.ArrayList<>();
        of(circuit).forEach((variant, hash) -> out.add(design + " " + variant + " " + hash));
        return out;
    }

    private static final java.util.regex.Pattern TABLE = java.util.regex.Pattern.compile("LinearMaps\\.apply\\(w, (\\d+), (\\d+), ");

    /** The unit with each table id replaced by a digest of the table (ids are handed out in registration order). */
    private static String withTableContents(String unit) {
        return TABLE.matcher(unit).replaceAll(m -> {
            int[] t = LinearMaps.table(Integer.parseInt(m.group(2)));
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * t.length);
            b.asIntBuffer().put(t);
            try {
                String h = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b.array()), 0, 8);
                return "LinearMaps.apply(w, " + m.group(1) + ", table#" + h + ", ";
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String sha256(List<String> units) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String u : units) {
                md.update(withTableContents(u).getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
