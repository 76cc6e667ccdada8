package org.flitkit.hdl;

import java.security.CodeSource;
import java.util.Objects;

/**
 * The user's source line that created a signal or statement ({@code File.java:line}), so elaboration
 * errors point at the Java code the user wrote, not at the DSL internals. Frames inside the core DSL
 * package are skipped; the first frame outside it is the user's.
 */
public record SrcLoc(String file, int line) {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final CodeSource CORE = SrcLoc.class.getProtectionDomain().getCodeSource();
    public static final SrcLoc UNKNOWN = new SrcLoc("<unknown>", 0);

    /** The location of the nearest caller outside the core DSL package. */
    public static SrcLoc here() {
        return WALKER.walk(frames -> frames
                .filter(f -> !isCore(f.getDeclaringClass()))
                .findFirst()
                .map(f -> new SrcLoc(Objects.requireNonNullElse(f.getFileName(), f.getClassName()), f.getLineNumber()))
                .orElse(UNKNOWN));
    }

    private static boolean isCore(Class<?> c) {
        return c.getPackageName().equals("org.flitkit.hdl")
                && Objects.equals(c.getProtectionDomain().getCodeSource(), CORE);
    }

    @Override
    public String toString() {
        return file + ":" + line;
    }
}
