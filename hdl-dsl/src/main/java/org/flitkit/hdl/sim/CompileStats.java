package org.flitkit.hdl.sim;

/**
 * What compiling a design cost: code generation and Janino times, the generated source size, and the
 * largest generated method in bytecode bytes (HotSpot refuses to JIT methods over 8,000 bytes).
 */
public record CompileStats(long codegenMillis, long janinoMillis, boolean cached, int sourceLines, int classes,
                           int methods, int maxMethodBytes, int narrowSlots, int wideLimbs) {
    @Override
    public String toString() {
        return String.format("codegen %d ms, janino %d ms%s, %d lines, %d classes, %d methods, largest method %d bytes, "
                        + "%d narrow slots, %d wide limbs", codegenMillis, janinoMillis, cached ? " (cached)" : "", sourceLines,
                classes, methods, maxMethodBytes, narrowSlots, wideLimbs);
    }
}
