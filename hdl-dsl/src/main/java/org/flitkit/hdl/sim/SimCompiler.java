package org.flitkit.hdl.sim;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.codehaus.janino.SimpleCompiler;
import org.flitkit.hdl.Netlist;

/**
 * Compiles generated simulator source in-process with Janino. Compiled classes are cached by a hash of
 * the source, so re-running a testbench on the same design skips Janino entirely.
 */
final class SimCompiler {
    private static final Map<String, Compiled> CACHE = new ConcurrentHashMap<>();

    record Compiled(Class<? extends SimModel> type, int classes, int methods, int maxMethodBytes, long janinoMillis) {
    }

    private SimCompiler() {
    }

    static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Generates and compiles; returns the code generator (slot maps) and the compiled model class. */
    static Result compile(Netlist net) {
        long t0 = System.nanoTime();
        // the class name is fixed while generating, then the source hash names the class for the cache
        CodeGen gen = new CodeGen(net, "G");
        String body = gen.generate();
        String name = "G_" + hash(body);
        String src = body.replaceAll("\\bG(_[A-Z]\\d+)?\\b", name + "$1");
        long t1 = System.nanoTime();
        boolean cached = CACHE.containsKey(name);
        Compiled c = CACHE.computeIfAbsent(name, k -> janino(k, src));
        CompileStats stats = new CompileStats((t1 - t0) / 1_000_000, cached ? 0 : c.janinoMillis(), cached,
                (int) src.lines().count(), c.classes(), c.methods(), c.maxMethodBytes(), gen.nv, gen.nw);
        return new Result(gen, c.type(), src, stats);
    }

    record Result(CodeGen gen, Class<? extends SimModel> type, String source, CompileStats stats) {
    }

    private static Compiled janino(String name, String src) {
        long t0 = System.nanoTime();
        SimpleCompiler sc = new SimpleCompiler();
        sc.setParentClassLoader(SimModel.class.getClassLoader());
        sc.setDebuggingInformation(true, true, false);
        try {
            sc.cook(name + ".java", new StringReader(src));
        } catch (Exception e) {
            throw new IllegalStateException("generated simulator did not compile (a FlitKit bug): " + e.getMessage(), e);
        }
        int methods = 0;
        int max = 0;
        Map<String, byte[]> bytecodes = sc.getBytecodes();
        for (byte[] cls : bytecodes.values()) {
            for (int size : ClassFileSizes.methodCodeSizes(cls).values()) {
                methods++;
                max = Math.max(max, size);
            }
        }
        try {
            Class<? extends SimModel> type = sc.getClassLoader().loadClass("org.flitkit.hdl.sim.gen." + name).asSubclass(SimModel.class);
            return new Compiled(type, bytecodes.size(), methods, max, (System.nanoTime() - t0) / 1_000_000);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
