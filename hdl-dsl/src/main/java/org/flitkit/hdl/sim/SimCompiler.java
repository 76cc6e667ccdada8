package org.flitkit.hdl.sim;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
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
        List<String> units = gen.generate();
        String name = "G_" + hash(String.join("\n", units));
        List<String> named = new ArrayList<>();
        for (String u : units) {
            named.add(u.replaceAll("\\bG(_[A-Z]\\d+)?\\b", name + "$1"));
        }
        String src = String.join("\n", named);
        long t1 = System.nanoTime();
        boolean cached = CACHE.containsKey(name);
        Compiled c = CACHE.computeIfAbsent(name, k -> janino(k, named));
        CompileStats stats = new CompileStats((t1 - t0) / 1_000_000, cached ? 0 : c.janinoMillis(), cached,
                (int) src.lines().count(), c.classes(), c.methods(), c.maxMethodBytes(), gen.nv, gen.nw);
        return new Result(gen, c.type(), src, stats);
    }

    record Result(CodeGen gen, Class<? extends SimModel> type, String source, CompileStats stats) {
    }

    /** Part classes compiled in parallel into one loader, then the model class against it. */
    private static Compiled janino(String name, List<String> units) {
        long t0 = System.nanoTime();
        Map<String, byte[]> parts = new ConcurrentHashMap<>();
        units.subList(1, units.size()).parallelStream().forEach(u -> parts.putAll(cook(u, SimModel.class.getClassLoader()).getBytecodes()));
        ClassLoader partLoader = new BytesLoader(parts, SimModel.class.getClassLoader());
        SimpleCompiler main = cook(units.get(0), partLoader);
        Map<String, byte[]> all = new java.util.HashMap<>(parts);
        all.putAll(main.getBytecodes());
        int methods = 0;
        int max = 0;
        for (byte[] cls : all.values()) {
            for (int size : ClassFileSizes.methodCodeSizes(cls).values()) {
                methods++;
                max = Math.max(max, size);
            }
        }
        try {
            Class<? extends SimModel> type = main.getClassLoader().loadClass("org.flitkit.hdl.sim.gen." + name).asSubclass(SimModel.class);
            return new Compiled(type, all.size(), methods, max, (System.nanoTime() - t0) / 1_000_000);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static SimpleCompiler cook(String unit, ClassLoader parent) {
        SimpleCompiler sc = new SimpleCompiler();
        sc.setParentClassLoader(parent);
        sc.setDebuggingInformation(true, true, false);
        try {
            sc.cook(new StringReader(unit));
        } catch (Exception e) {
            throw new IllegalStateException("generated simulator did not compile (a FlitKit bug): " + e.getMessage(), e);
        }
        return sc;
    }

    /** Defines already compiled classes from their bytecode. */
    private static final class BytesLoader extends ClassLoader {
        private final Map<String, byte[]> classes;

        BytesLoader(Map<String, byte[]> classes, ClassLoader parent) {
            super(parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = classes.get(name);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }
    }
}
