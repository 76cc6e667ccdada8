package org.flitkit.hdl.sim;

/**
 * What compiling a design cost: code generation and Janino times, the generated source size, and the
 * largest generated method in bytecode bytes (HotSpot refuses to JIT methods over 8,000 bytes). Janino
 * time is the model class's, before the simulator starts; {@code variantMillis} is the fast and plain
 * variants' compilation in the background (-1 until both are compiled; classes and methods count them
 * from then on).
 */
public record CompileStats(long codegenMillis, long janinoMillis, boolean cached, int sourceLines, int classes,
                           int methods, int maxMethodBytes, int narrowSlots, int wideLimbs, long variantMillis) {
    @Override
    public String toString() {
        return String.format("codegen %d ms, janino %d ms%s, %s, %d lines, %d classes, %d methods, largest method %d bytes, "
                        + "%d narrow slots, %d wide limbs", codegenMillis, janinoMillis, cached ? " (cached)" : "",
                variantMillis < 0 ? "variants not compiled yet" : "variants " + variantMillis + " ms in the background",
                sourceLines, classes, methods, maxMethodBytes, narrowSlots, wideLimbs);
    }
}
