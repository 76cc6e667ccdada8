package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.flitkit.app.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code hdl list}: every testbench and design, one per line with what it is. */
@Command(name = "list", description = "List the testbenches, designs and benchmark designs, one per line.")
final class ListCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Catalog c = hdl.catalog();
        PrintWriter out = spec.commandLine().getOut();
        int w = 0;
        for (String n : names(c)) {
            w = Math.max(w, n.length());
        }
        String row = "%-9s %-" + w + "s  %s%n";
        for (Catalog.TestbenchEntry e : c.testbenches()) {
            out.printf(row, "testbench", e.name(), e.description());
        }
        for (Catalog.DesignEntry e : c.designs()) {
            out.printf(row, "design", e.name(), e.description());
        }
        for (Catalog.BenchmarkEntry e : c.benchmarks()) {
            out.printf(row, "bench", e.name(), e.description());
        }
        for (Catalog.SystemBenchmarkEntry e : c.systemBenchmarks()) {
            out.printf(row, "bench", e.name(), e.description());
        }
        out.flush();
        return 0;
    }

    private static List<String> names(Catalog c) {
        return Stream.concat(Stream.concat(c.testbenches().stream().map(Catalog.TestbenchEntry::name),
                c.designs().stream().map(Catalog.DesignEntry::name)), Stream.concat(c.benchmarks().stream().map(Catalog.BenchmarkEntry::name),
                c.systemBenchmarks().stream().map(Catalog.SystemBenchmarkEntry::name))).toList();
    }
}
