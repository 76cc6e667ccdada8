package org.flitkit.app.cli;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.flitkit.hdl.Module;

/**
 * A top-level design given by class name ({@code --class my.pkg.Top}): loaded from the user's
 * classpath and built through its public no-argument constructor or, failing that, its one public
 * static no-argument method returning a {@link Module}. Every way this goes wrong is a one-line
 * {@link CliError}; a constructor that throws is reported with its message and the user's source line.
 *
 * @param how what builds it, for the user: {@code new Top()} or {@code Top.create()}
 */
record UserDesign(Class<? extends Module> type, String how, Supplier<Module> top) {
    /** Names the class loader, so the user's stack frames can be told from FlitKit's. */
    private static final String LOADER = "hdl-classpath";

    /** Loads {@code className} from {@code classpath} (entries separated by the platform's path separator) or FlitKit's own. */
    static UserDesign load(String className, String classpath) {
        Class<?> c = loadClass(className, classpath);
        if (!Module.class.isAssignableFrom(c)) {
            throw CliError.usage(c.getName() + " is not a Module (it must extend " + Module.class.getName() + ")");
        }
        if (!Modifier.isPublic(c.getModifiers()) || Modifier.isAbstract(c.getModifiers())) {
            throw CliError.usage(c.getName() + " must be a public, non-abstract class");
        }
        @SuppressWarnings("unchecked")
        Class<? extends Module> type = (Class<? extends Module>) c;
        String simple = c.getSimpleName();
        try {
            Constructor<? extends Module> ctor = type.getConstructor();
            return new UserDesign(type, "new " + simple + "()", () -> build(ctor::newInstance, "new " + c.getName() + "()", type));
        } catch (NoSuchMethodException noConstructor) {
            Method factory = factory(type);
            return new UserDesign(type, simple + "." + factory.getName() + "()",
                    () -> build(() -> (Module) factory.invoke(null), c.getName() + "." + factory.getName() + "()", type));
        }
    }

    /** Loads {@code className} (not yet initialized) from {@code classpath} or FlitKit's own; not found is a one-line error. */
    static Class<?> loadClass(String className, String classpath) {
        return find(className, new URLClassLoader(LOADER, urls(classpath), UserDesign.class.getClassLoader()), classpath);
    }

    /** The class, also when a nested class is written with dots ({@code my.pkg.Outer.Inner}). */
    private static Class<?> find(String className, ClassLoader loader, String classpath) {
        String name = className;
        while (true) {
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                int dot = name.lastIndexOf('.');
                if (dot < 0) {
                    throw CliError.usage("class " + className + " not found on the classpath ("
                            + (classpath == null || classpath.isBlank() ? "no --classpath or HDL_CLASSPATH given" : classpath) + ")");
                }
                name = name.substring(0, dot) + '$' + name.substring(dot + 1);
            } catch (LinkageError e) {
                throw CliError.usage("cannot load class " + className + ": " + e);
            }
        }
    }

    /** The single public static no-argument method of {@code type} that returns a Module. */
    private static Method factory(Class<? extends Module> type) {
        List<Method> factories = Arrays.stream(type.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
                .filter(m -> m.getParameterCount() == 0 && Module.class.isAssignableFrom(m.getReturnType()))
                .toList();
        if (factories.isEmpty()) {
            throw CliError.usage(type.getName() + " has no public no-argument constructor and no public static no-argument"
                    + " method returning a Module");
        }
        if (factories.size() > 1) {
            throw CliError.usage(type.getName() + " has no public no-argument constructor and several factory methods ("
                    + factories.stream().map(m -> m.getName() + "()").sorted().collect(Collectors.joining(", ")) + "); keep one");
        }
        return factories.get(0);
    }

    interface Reflective<T> {
        T make() throws ReflectiveOperationException;
    }

    /** Runs the constructor or factory; what it throws becomes one line with its message and where in the user's code. */
    static <T> T build(Reflective<T> how, String call, Class<?> type) {
        Throwable cause;
        try {
            T m = how.make();
            if (m == null) {
                throw CliError.failure(call + " returned null");
            }
            return m;
        } catch (InvocationTargetException e) {
            cause = e.getCause();
        } catch (ExceptionInInitializerError e) {
            cause = e.getCause() != null ? e.getCause() : e;
        } catch (ReflectiveOperationException e) {
            cause = e;
        }
        StackTraceElement at = userFrame(cause, type);
        throw CliError.failure(call + " threw " + cause.getClass().getSimpleName()
                + (cause.getMessage() != null ? ": " + cause.getMessage().lines().findFirst().orElse("") : "")
                + (at != null ? " (" + at.getFileName() + ":" + at.getLineNumber() + ")" : ""));
    }

    /**
     * The first frame in code from the user's classpath; for a design on FlitKit's own classpath the
     * first in its class (or a nested one); else none.
     */
    private static StackTraceElement userFrame(Throwable t, Class<?> type) {
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getFileName() != null && (LOADER.equals(f.getClassLoaderName())
                    || f.getClassName().equals(type.getName()) || f.getClassName().startsWith(type.getName() + "$"))) {
                return f;
            }
        }
        return null;
    }

    private static URL[] urls(String classpath) {
        List<URL> urls = new ArrayList<>();
        if (classpath != null) {
            for (String entry : classpath.split(File.pathSeparator)) {
                if (entry.isBlank()) {
                    continue;
                }
                Path p = Path.of(entry);
                if (!Files.exists(p)) {
                    throw CliError.usage("classpath entry " + entry + " does not exist");
                }
                try {
                    urls.add(p.toAbsolutePath().toUri().toURL());
                } catch (MalformedURLException e) {
                    throw CliError.usage("classpath entry " + entry + " is not a usable path: " + e.getMessage());
                }
            }
        }
        return urls.toArray(new URL[0]);
    }
}
