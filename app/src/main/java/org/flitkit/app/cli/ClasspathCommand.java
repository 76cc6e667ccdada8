package org.flitkit.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code hdl classpath}: FlitKit's jars and classes, to compile designs against: {@code javac -cp "$(./hdl classpath)"}. */
@Command(name = "classpath", description = "Print FlitKit's classpath, to compile your designs against: javac -cp \"$(./hdl classpath)\" ...")
final class ClasspathCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(System.getProperty("java.class.path"));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
