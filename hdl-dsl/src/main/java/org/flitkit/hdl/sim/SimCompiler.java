package org.flitkit.hdl.sim;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.codehaus.janino.SimpleCompiler;
import org.flitkit.hdl.Netlist;

/**
 * Compiles generated simulator source in-process with Janino. Compiled classes are cached by a hash of
 * the source, so re-running a testbench on the same design skips Janino entirely. Only the model class
 * is compiled before the simulator starts; its fast and plain variants are compiled on a background
 * thread when a simulator first asks for them, and it runs the storing variant until then.
 */
final class SimCompiler {
    private static final Map<String, Compiled> CACHE = new ConcurrentHashMap<>();
    /** one thread: the variants are compiled while the simulator runs on the other core */
    private static final ExecutorService BACKGROUND = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "flitkit-variant-compiler");
        t.setDaemon(true);
        return t;
    });

    /** {@code verdict}: which variant {@code step(n)} last found faster on this design, for its next instances. */
    record Compiled(Class<? extends SimModel> type, Sizes sizes, long janinoMillis, Deferred fast, Deferred plain,
                    VariantPolicy.Verdict verdict) {
    }

    /** Classes, methods and the largest method's bytecode of a compiled program. */
    record Sizes(int classes, int methods, int maxMethodBytes) {
        static Sizes of(Map<String, byte[]> classes) {
            int methods = 0;
            int max = 0;
            for (byte[] cls : classes.values()) {
                for (int size : ClassFileSizes.methodCodeSizes(cls).values()) {
                    methods++;
                    max = Math.max(max, size);
                }
            }
            return new Sizes(classes.size(), methods, max);
        }

        Sizes plus(Sizes o) {
            return new Sizes(classes + o.classes, methods + o.methods, Math.max(maxMethodBytes, o.maxMethodBytes));
        }
    }

    /** A variant compiled against the model class, on the background thread, once something asks for it. */
    static final class Deferred {
        private final String className;
        /** the variant's source, dropped once compiled (the cache keeps the classes for the JVM's life) */
        private List<String> units;
        private final ClassLoader modelLoader;
        private CompletableFuture<Ready> ready;

        record Ready(SimModel.Variant variant, Sizes sizes, long millis) {
        }

        Deferred(String className, List<String> units, ClassLoader modelLoader) {
            this.className = className;
            this.units = units;
            this.modelLoader = modelLoader;
        }

        synchronized CompletableFuture<Ready> start() {
            if (ready == null) {
                ready = CompletableFuture.supplyAsync(this::compile, BACKGROUND);
            }
            return ready;
        }

        /** The variant if it is compiled, else null (and its compilation started). */
        SimModel.Variant ifReady() {
            CompletableFuture<Ready> r = start();
            return r.isDone() ? r.join().variant() : null;
        }

        Ready await() {
            return start().join();
        }

        /** The compiled variant, or null while it is not (without starting its compilation). */
        synchronized Ready compiled() {
            return ready != null && ready.isDone() ? ready.join() : null;
        }

        private Ready compile() {
            long t0 = System.nanoTime();
            List<String> units;
            synchronized (this) {
                units = this.units;
                this.units = null;
            }
            Map<String, byte[]> parts = new java.util.HashMap<>();
            for (String u : units.subList(1, units.size())) {
                parts.putAll(cook(u, modelLoader).getBytecodes());
            }
            SimpleCompiler entry = cook(units.get(0), new BytesLoader(parts, modelLoader));
            parts.putAll(entry.getBytecodes());
            try {
                SimModel.Variant v = entry.getClassLoader().loadClass(className).asSubclass(SimModel.Variant.class)
                        .getDeclaredConstructor().newInstance();
                return new Ready(v, Sizes.of(parts), (System.nanoTime() - t0) / 1_000_000);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private SimCompiler() {
    }

    static String hash(List<String> units) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String u : units) {
                md.update(u.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest(), 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The class name code is generated with: as long as a real one, which replaces it once the source is hashed. */
    private static final String PLACEHOLDER = "G_" + "0".repeat(20);

    /** Generates and compiles; returns the simulation plan (slot maps, activity) and the compiled model class. */
    static Result compile(Netlist net) {
        long t0 = System.nanoTime();
        warmUp();
        CodeGen.Output out = new CodeGen(net, PLACEHOLDER).generate();
        CodeGen.Programs p = out.programs();
        String name = "G_" + hash(p.all());
        CodeGen.Programs named = new CodeGen.Programs(rename(p.model(), name), rename(p.fast(), name), rename(p.plain(), name));
        long t1 = System.nanoTime();
        boolean cached = CACHE.containsKey(name);
        Compiled c = CACHE.computeIfAbsent(name, k -> janino(k, named));
        Sizes s = c.sizes();
        CompileStats stats = new CompileStats((t1 - t0) / 1_000_000, cached ? 0 : c.janinoMillis(), cached,
                lines(named.all()), s.classes(), s.methods(), s.maxMethodBytes(), out.plan().narrowSlots(), out.plan().wideSlots(), -1);
        return new Result(out.plan(), c, named, stats);
    }

    /** The generated source, with the placeholder class name (what {@link #compile} hashes for the real name). */
    static CodeGen.Programs generate(Netlist net) {
        return new CodeGen(net, PLACEHOLDER).generate().programs();
    }

    private static final java.util.concurrent.atomic.AtomicBoolean WARMING = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The first Janino compilation in a JVM spends about 280 ms loading and initialising the compiler and
     * the library classes generated code uses. Done once, on the background thread, while code generation
     * keeps this one busy, that is off the path to a running simulator.
     */
    private static void warmUp() {
        if (WARMING.compareAndSet(false, true)) {
            BACKGROUND.execute(() -> cook(CodeGen.warmUpUnit(), SimModel.class.getClassLoader()));
        }
    }

    private static List<String> rename(List<String> units, String name) {
        List<String> out = new ArrayList<>();
        for (String u : units) {
            out.add(u.replace(PLACEHOLDER, name));
        }
        return out;
    }

    private static int lines(List<String> units) {
        int n = 0;
        for (String u : units) {
            for (int i = 0; i < u.length(); i++) {
                n += u.charAt(i) == '\n' ? 1 : 0;
            }
        }
        return n;
    }

    record Result(SimPlan plan, Compiled compiled, CodeGen.Programs programs, CompileStats stats) {
        Class<? extends SimModel> type() {
            return compiled.type();
        }

        /** All generated units in one text: joined only when someone asks (megabytes for a chip). */
        String source() {
            return String.join("\n", programs.all());
        }

        /** The stats with the variants' compilation added, once both are compiled (else as they were). */
        CompileStats statsNow() {
            Deferred.Ready f = compiled.fast().compiled();
            Deferred.Ready p = compiled.plain().compiled();
            if (f == null || p == null) {
                return stats;
            }
            Sizes all = compiled.sizes().plus(f.sizes()).plus(p.sizes());
            return new CompileStats(stats.codegenMillis(), stats.janinoMillis(), stats.cached(), stats.sourceLines(), all.classes(),
                    all.methods(), all.maxMethodBytes(), stats.narrowSlots(), stats.wideLimbs(), f.millis() + p.millis());
        }
    }

    /** The model program's part classes compiled in parallel into one loader, then the model class against it. */
    private static Compiled janino(String name, CodeGen.Programs programs) {
        long t0 = System.nanoTime();
        List<String> units = programs.model();
        Map<String, byte[]> parts = new ConcurrentHashMap<>();
        units.subList(1, units.size()).parallelStream().forEach(u -> parts.putAll(cook(u, SimModel.class.getClassLoader()).getBytecodes()));
        ClassLoader partLoader = new BytesLoader(parts, SimModel.class.getClassLoader());
        SimpleCompiler main = cook(units.get(0), partLoader);
        Map<String, byte[]> all = new java.util.HashMap<>(parts);
        all.putAll(main.getBytecodes());
        try {
            String pkg = "org.flitkit.hdl.sim.gen.";
            ClassLoader loader = main.getClassLoader();
            Class<? extends SimModel> type = loader.loadClass(pkg + name).asSubclass(SimModel.class);
            return new Compiled(type, Sizes.of(all), (System.nanoTime() - t0) / 1_000_000,
                    new Deferred(pkg + name + CodeGen.FAST, programs.fast(), loader),
                    new Deferred(pkg + name + CodeGen.PLAIN, programs.plain(), loader), new VariantPolicy.Verdict());
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
