package org.flitkit.app.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.Charset;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarConsumer;

/**
 * The one status line a command keeps at the bottom of the terminal (README, "The ./hdl command"): redrawn in place
 * with a carriage return, erased before any other output so that output never lands on it, and first drawn
 * {@code delayNanos} after it was made, so quick commands leave no trace. Everything written to the terminal
 * while it is up goes through {@link #guard(OutputStream)} or {@link #guard(Writer)}.
 */
final class StatusLine implements ProgressBarConsumer {
    private static final String ERASE_TO_END = "\033[K";

    private final PrintStream terminal;
    private final long showAt;
    private final long minGapNanos;
    private long drawnAt;
    private int width;
    private boolean drawn;
    private boolean atLineStart = true;
    private long redraws;

    /**
     * Draws on {@code terminal}, not before {@code delayNanos} from now, and then at most once every
     * {@code minGapNanos}, however often asked (a timer late because the machine was busy catches up in a burst).
     */
    StatusLine(PrintStream terminal, long delayNanos, long minGapNanos) {
        this.terminal = terminal;
        this.showAt = System.nanoTime() + delayNanos;
        this.minGapNanos = minGapNanos;
    }

    /** Redraws the line, unless it is too early, too soon, or other output has left the cursor inside a line of its own. */
    @Override
    public synchronized void accept(String line) {
        long now = System.nanoTime();
        if (now - showAt < 0 || redraws > 0 && now - drawnAt < minGapNanos || !atLineStart) {
            return;
        }
        terminal.print('\r' + line + ERASE_TO_END);
        terminal.flush();
        drawn = true;
        drawnAt = now;
        redraws++;
    }

    /** The terminal's width, asked once when the line first shows (asking costs a process on some systems). */
    @Override
    public synchronized int getMaxRenderedLength() {
        if (width == 0) {
            if (System.nanoTime() - showAt < 0) {
                return 80;
            }
            width = new ConsoleProgressBarConsumer(terminal).getMaxRenderedLength();
        }
        return width;
    }

    /** Erases the line (the cursor stays at the start of the now empty line). */
    @Override
    public synchronized void clear() {
        if (drawn) {
            terminal.print('\r' + ERASE_TO_END);
            terminal.flush();
            drawn = false;
        }
    }

    @Override
    public synchronized void close() {
        clear();
    }

    /** Times the line was drawn so far. */
    synchronized long redraws() {
        return redraws;
    }

    /** Prints {@code text} and a line break above the status line, which the next redraw puts back. */
    synchronized void println(String text) {
        clear();
        terminal.println(text);
        terminal.flush();
        atLineStart = true;
    }

    /** {@code out}, erasing the status line before each write and redrawn only once a line is complete. */
    OutputStream guard(OutputStream out) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return;
                }
                synchronized (StatusLine.this) {
                    clear();
                    out.write(b, off, len);
                    out.flush();
                    atLineStart = b[off + len - 1] == '\n';
                }
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }
        };
    }

    /** As {@link #guard(OutputStream)}, for a writer. */
    Writer guard(Writer out) {
        return new Writer() {
            @Override
            public void write(char[] c, int off, int len) throws IOException {
                if (len == 0) {
                    return;
                }
                synchronized (StatusLine.this) {
                    clear();
                    out.write(c, off, len);
                    out.flush();
                    atLineStart = c[off + len - 1] == '\n';
                }
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }

    /** A print stream over {@link #guard(OutputStream)} in the terminal's encoding, for {@link System#setOut}. */
    PrintStream printStream(PrintStream out) {
        String encoding = System.getProperty("sun.stdout.encoding");
        return new PrintStream(guard((OutputStream) out), true, encoding != null ? Charset.forName(encoding) : Charset.defaultCharset());
    }
}
