package org.flitkit.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchFailure;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * How {@code ./hdl} reports what went wrong (README, "The ./hdl command"): a failed check is one
 * {@code FAIL} line with its cycle, where it was noticed and its message; anything else is one
 * {@code hdl:} line naming the command and the exception, its stack trace in a log file.
 */
final class Failures {
    private Failures() {
    }

    /** A design's {@code Hdl.check} or a testbench check failed: the run's verdict, not a crash. */
    static boolean isCheck(Throwable t) {
        return t instanceof SimAssertionError || t instanceof TestbenchFailure;
    }

    /**
     * {@code FAIL <what> cycle=N instance=PATH at File.java:LINE: message} for a design's check,
     * {@code FAIL <what> cycle=N component=NAME: first line of the message} for a testbench's.
     */
    static String failLine(String what, Throwable check) {
        if (check instanceof SimAssertionError e) {
            return "FAIL " + what + " cycle=" + e.cycle() + " instance=" + e.instance() + " at " + e.loc() + ": " + e.detail();
        }
        TestbenchFailure f = (TestbenchFailure) check;
        return "FAIL " + what + " cycle=" + f.cycle() + " component=" + f.component() + ": " + lines(f.detail()).get(0);
    }

    /** The lines of a testbench failure's message after its first (a scoreboard's expected and observed items, a timeout's state). */
    static List<String> details(Throwable check) {
        if (check instanceof TestbenchFailure f) {
            List<String> l = lines(f.detail());
            return l.subList(1, l.size());
        }
        return List.of();
    }

    /**
     * Reports a run that a check stopped: its details and where its waves are on {@code err}, then the
     * FAIL line on {@code out}; returns the exit code, 1.
     */
    static int report(PrintWriter out, PrintWriter err, String what, Throwable check, Path vcd) {
        out.flush();
        details(check).forEach(err::println);
        if (vcd != null) {
            Path gtkw = new RunConfig(0, 0, vcd).gtkw();
            err.println("waves up to the failure: " + vcd);
            err.println(Files.exists(gtkw) ? "  view: gtkwave " + vcd + " " + gtkw : "  view: gtkwave " + vcd);
        }
        err.flush();
        out.println(failLine(what, check));
        out.flush();
        return 1;
    }

    /**
     * What {@link Main} does with an exception no command handled (a check failing under a command that
     * gives no verdict, as {@code mgmt}, or a crash): one {@link #crashLine} on stderr and the stack trace in
     * a log file, or on stderr with {@code --debug}; exit 1.
     */
    static int uncaught(CommandLine c, Throwable t, boolean debug) {
        String command = c.getCommandSpec().qualifiedName(" ").replaceFirst("^hdl ", "");
        PrintWriter err = c.getErr();
        c.getOut().flush();
        Path log = debug ? null : log(command, t);
        err.println(crashLine(command, t) + (debug ? "" : log != null ? "; details and stack trace in " + log + " (or run with --debug)"
                : "; no log file could be written, run with --debug for the details"));
        if (debug) {
            err.print(stackTrace(t));
        }
        err.flush();
        return 1;
    }

    /**
     * picocli's default execution, with an {@link Error} from a command (a failed check is an
     * {@link AssertionError}) handed to the execution-exception handler as its exceptions are, instead of
     * escaping {@code execute} with a stack trace.
     */
    static int runLast(ParseResult parsed) {
        try {
            return new CommandLine.RunLast().execute(parsed);
        } catch (Error e) {
            ParseResult last = parsed;
            while (last.subcommand() != null) {
                last = last.subcommand();
            }
            throw new CommandLine.ExecutionException(last.commandSpec().commandLine(), String.valueOf(e.getMessage()), e);
        }
    }

    /** {@code --debug} anywhere on the command line. */
    static boolean debug(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code hdl: COMMAND failed: Exception: message (at File.java:LINE)}, or for a check
     * {@code hdl: COMMAND failed: cycle N: component: message}: the first line of the message only.
     */
    static String crashLine(String command, Throwable t) {
        String what;
        if (isCheck(t)) {
            what = lines(t.getMessage()).get(0);
        } else {
            StackTraceElement[] at = t.getStackTrace();
            what = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + lines(t.getMessage()).get(0))
                    + (at.length > 0 && at[0].getFileName() != null ? " (at " + at[0].getFileName() + ":" + at[0].getLineNumber() + ")" : "");
        }
        return "hdl: " + command + " failed: " + what;
    }

    /** Writes {@code t}'s message and stack trace to a new log file in the temporary directory; null when that fails too. */
    static Path log(String command, Throwable t) {
        try {
            Path log = Files.createTempFile("hdl-" + command.replace(' ', '-') + "-", ".log");
            Files.writeString(log, stackTrace(t));
            return log;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    static String stackTrace(Throwable t) {
        StringWriter s = new StringWriter();
        t.printStackTrace(new PrintWriter(s));
        return s.toString();
    }

    private static List<String> lines(String text) {
        List<String> l = text.lines().toList();
        return l.isEmpty() ? List.of("") : l;
    }
}
