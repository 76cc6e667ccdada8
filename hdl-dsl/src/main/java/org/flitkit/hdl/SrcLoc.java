package org.flitkit.hdl;

import java.security.CodeSource;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;

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
                .map(SrcLoc::of)
                .orElse(UNKNOWN));
    }

    /**
     * Where a module of class {@code moduleClass} is being created: the line with {@code new X(...)}, past
     * the constructors that build the module itself (X's, its superclasses' and the ones X delegates to
     * with {@code this(...)}). A constructor seen again is a new object: a module creating another of its
     * own class, so that frame is the creation site.
     */
    static SrcLoc ofModuleCreation(Class<?> moduleClass) {
        return WALKER.walk(frames -> {
            Class<?> level = Module.class;
            Set<String> passed = new HashSet<>();
            for (Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext(); ) {
                StackWalker.StackFrame f = it.next();
                Class<?> c = f.getDeclaringClass();
                if (f.getMethodName().equals("<init>") && level.isAssignableFrom(c) && c.isAssignableFrom(moduleClass)) {
                    if (c != level) {
                        level = c;
                        passed.clear();
                    }
                    if (passed.add(f.getDescriptor())) {
                        continue;
                    }
                }
                if (!isCore(c)) {
                    return of(f);
                }
            }
            return UNKNOWN;
        });
    }

    private static SrcLoc of(StackWalker.StackFrame f) {
        return new SrcLoc(Objects.requireNonNullElse(f.getFileName(), f.getClassName()), f.getLineNumber());
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
