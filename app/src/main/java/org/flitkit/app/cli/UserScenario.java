package org.flitkit.app.cli;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Scenario;
import org.flitkit.testbench.ScenarioResult;

/**
 * A scenario given by class name ({@code hdl run --class my.pkg.MyScenario}): a class with a public static
 * {@code ScenarioResult run(RunConfig)} method, as the catalog's scenarios are written, or a {@link Scenario}
 * built by its public no-argument constructor. Loaded like a {@link UserDesign}; every way the class is
 * wrong is a one-line {@link CliError}.
 *
 * @param how what runs it, for the user: {@code MyScenario.run(RunConfig)} or {@code new MyScenario()}
 */
record UserScenario(Class<?> type, String how, Scenario scenario) {
    static UserScenario load(String className, String classpath) {
        Class<?> c = UserDesign.loadClass(className, classpath);
        if (Scenario.class.isAssignableFrom(c)) {
            return instance(c);
        }
        Method run = staticRun(c);
        if (run == null) {
            throw CliError.usage(c.getName() + " is not a scenario (it needs a public static " + ScenarioResult.class.getSimpleName()
                    + " run(" + RunConfig.class.getSimpleName() + ") method, or to implement " + Scenario.class.getName() + ")");
        }
        if (!Modifier.isPublic(c.getModifiers())) {
            throw CliError.usage(c.getName() + " must be a public class");
        }
        String call = c.getName() + ".run(RunConfig)";
        return new UserScenario(c, c.getSimpleName() + ".run(RunConfig)", cfg -> invoke(run, cfg, call, c));
    }

    /** A {@link Scenario} class: made once, here, so a constructor that throws fails before anything runs. */
    private static UserScenario instance(Class<?> c) {
        if (!Modifier.isPublic(c.getModifiers()) || Modifier.isAbstract(c.getModifiers())) {
            throw CliError.usage(c.getName() + " must be a public, non-abstract class");
        }
        Constructor<?> ctor;
        try {
            ctor = c.getConstructor();
        } catch (NoSuchMethodException e) {
            throw CliError.usage(c.getName() + " has no public no-argument constructor");
        }
        Scenario s = (Scenario) UserDesign.build(ctor::newInstance, "new " + c.getName() + "()", c);
        return new UserScenario(c, "new " + c.getSimpleName() + "()", s);
    }

    /** {@code public static ScenarioResult run(RunConfig)}, or null. */
    private static Method staticRun(Class<?> c) {
        try {
            Method m = c.getMethod("run", RunConfig.class);
            return Modifier.isStatic(m.getModifiers()) && ScenarioResult.class.isAssignableFrom(m.getReturnType()) ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        } catch (LinkageError e) {
            throw CliError.usage("cannot load class " + c.getName() + ": " + e);
        }
    }

    /**
     * Runs the static method. What the run throws unchecked (a testbench failure, a design that does not elaborate)
     * goes on unchanged, as from a catalog scenario; a checked exception becomes one line.
     */
    private static ScenarioResult invoke(Method run, RunConfig cfg, String call, Class<?> type) {
        return UserDesign.build(() -> {
            try {
                return (ScenarioResult) run.invoke(null, cfg);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw e;
            }
        }, call, type);
    }
}
