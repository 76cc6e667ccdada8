package org.flitkit.app.cli;

/**
 * A command cannot go on, for a reason one line can say: {@link Main} prints {@code hdl: <message>}
 * (no stack trace) and exits with {@link #exitCode()}: 2 when the command line asked for something
 * impossible, 1 when the work itself failed.
 */
final class CliError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    private CliError(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** Bad input from the command line (a file that cannot be written, a class that is not a Module): exit 2. */
    static CliError usage(String message) {
        return new CliError(2, message);
    }

    /** The command ran but could not finish its job: exit 1. */
    static CliError failure(String message) {
        return new CliError(1, message);
    }

    int exitCode() {
        return exitCode;
    }
}
