package org.flitkit.env.nrc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A management-server script for {@code ./hdl mgmt}: one command per line, {@code #} comments, numbers
 * decimal or 0x-hex. Parsing checks every argument so a run never starts on a malformed script.
 * Spec: 20-th2-management.md, "Management packets and descriptors"; usage in docs/th2-nrc.md.
 */
public record MgmtScript(List<Command> commands) {

    /** A script line that does not parse; {@code line} is 1-based. */
    public static final class ParseException extends Exception {
        private final int line;

        public ParseException(int line, String message) {
            super("line " + line + ": " + message);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }

    /** One command with the line it came from. */
    public sealed interface Command permits Port, Route, Dest, Request, CorruptNext, Fault, Wait,
            Timeout, NoWait, Sync {
        int line();
    }

    /** The four commands that send a request and have an answer (the ones {@code nowait} may prefix). */
    public sealed interface Request extends Command permits Read, Write, EepromRead, EepromWrite {
    }

    public record Port(int line, int port) implements Command {
    }

    /**
     * {@code route F1 F2 .. / B1 B2 ..}: requests pass NRCs by their forward hops (output ports, from the NRC the
     * request enters) and reach the NRC after the last; the answer leaves that NRC by B1, the next by B2, and so
     * on, and the NRC the request entered by the {@code port} the request entered it (added by the session).
     * {@code route none}: the NRC at the current port is the target (the default).
     */
    public record Route(int line, List<Integer> forward, List<Integer> backward) implements Command {
    }

    /** {@code dest any} is DestID 0xFFFF. */
    public record Dest(int line, int destId) implements Command {
    }

    public record Read(int line, List<Integer> addresses) implements Request {
    }

    public record Write(int line, List<Integer> addresses, List<Long> values) implements Request {
    }

    public record EepromRead(int line, List<Integer> addresses) implements Request {
    }

    public record EepromWrite(int line, List<Integer> addresses, List<Integer> values) implements Request {
    }

    public record CorruptNext(int line) implements Command {
    }

    public record Fault(int line, int input) implements Command {
    }

    public record Wait(int line, long cycles) implements Command {
    }

    public record Timeout(int line, long cycles) implements Command {
    }

    /** {@code nowait R}: sends request R and goes on without waiting; its line prints when its answer arrives. */
    public record NoWait(int line, Request request) implements Command {
    }

    /** {@code sync}: waits until every request sent so far is answered (or timed out). */
    public record Sync(int line) implements Command {
    }

    /**
     * Reads and parses a script file. A file holding NUL bytes or invalid UTF-8 is rejected with an
     * {@link IOException} saying "not a text file", before any of it is parsed as commands.
     */
    public static MgmtScript read(Path file) throws IOException, ParseException {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new IOException("not a text file (NUL byte at offset " + i + ")");
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IOException("not a text file (invalid UTF-8)", e);
        }
        return parse(text);
    }

    public static MgmtScript parse(String text) throws ParseException {
        List<Command> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String s = lines[i];
            int hash = s.indexOf('#');
            if (hash >= 0) {
                s = s.substring(0, hash);
            }
            s = s.trim();
            if (!s.isEmpty()) {
                out.add(command(i + 1, s.split("\\s+")));
            }
        }
        return new MgmtScript(List.copyOf(out));
    }

    private static Command command(int line, String[] w) throws ParseException {
        String op = w[0].toLowerCase(Locale.ROOT);
        int n = w.length - 1;
        switch (op) {
            case "port" -> {
                args(line, op, n, 1, 1);
                return new Port(line, (int) num(line, w[1], 0, 23, "port"));
            }
            case "route" -> {
                if (n == 1 && w[1].equalsIgnoreCase("none")) {
                    return new Route(line, List.of(), List.of());
                }
                int slash = Arrays.asList(w).indexOf("/");
                if (slash < 0) {
                    throw new ParseException(line, "route takes forward hops, '/', backward hops (route F1 F2 / B1 B2), or none");
                }
                List<Integer> f = new ArrayList<>();
                List<Integer> b = new ArrayList<>();
                for (int k = 1; k < w.length; k++) {
                    if (k != slash) {
                        (k < slash ? f : b).add((int) num(line, w[k], 0, 23, "hop (output port)"));
                    }
                }
                if (f.size() != b.size() || f.size() + 1 > org.flitkit.formats.th2.Th2.MAX_HOPS) {
                    throw new ParseException(line, "route: " + f.size() + " forward and " + b.size()
                            + " backward hops; a path back passes as many NRCs as the way there (at most "
                            + (org.flitkit.formats.th2.Th2.MAX_HOPS - 1) + ")");
                }
                return new Route(line, List.copyOf(f), List.copyOf(b));
            }
            case "dest" -> {
                args(line, op, n, 1, 1);
                if (w[1].equalsIgnoreCase("any")) {
                    return new Dest(line, 0xFFFF);
                }
                return new Dest(line, (int) num(line, w[1], 0, 0xFFFF, "chip ID"));
            }
            case "read" -> {
                args(line, op, n, 1, 2);
                List<Integer> a = new ArrayList<>();
                for (int k = 1; k <= n; k++) {
                    a.add((int) num(line, w[k], 0, 0x7FFF, "register address"));
                }
                return new Read(line, a);
            }
            case "write" -> {
                if (n != 2 && n != 4) {
                    throw new ParseException(line, "write takes A V or A V B W (got " + n + " arguments)");
                }
                List<Integer> a = new ArrayList<>();
                List<Long> v = new ArrayList<>();
                for (int k = 1; k <= n; k += 2) {
                    a.add((int) num(line, w[k], 0, 0x7FFF, "register address"));
                    v.add(value64(line, w[k + 1]));
                }
                return new Write(line, a, v);
            }
            case "eeprom-read" -> {
                args(line, op, n, 1, 6);
                List<Integer> a = new ArrayList<>();
                for (int k = 1; k <= n; k++) {
                    a.add((int) num(line, w[k], 0, 0xFFFF, "E2PROM address"));
                }
                return new EepromRead(line, a);
            }
            case "eeprom-write" -> {
                if (n < 2 || n > 12 || n % 2 != 0) {
                    throw new ParseException(line, "eeprom-write takes 1 to 6 pairs A V (got " + n + " arguments)");
                }
                List<Integer> a = new ArrayList<>();
                List<Integer> v = new ArrayList<>();
                for (int k = 1; k <= n; k += 2) {
                    a.add((int) num(line, w[k], 0, 0xFFFF, "E2PROM address"));
                    v.add((int) num(line, w[k + 1], 0, 0xFF, "E2PROM byte"));
                }
                return new EepromWrite(line, a, v);
            }
            case "corrupt-next" -> {
                args(line, op, n, 0, 0);
                return new CorruptNext(line);
            }
            case "fault" -> {
                args(line, op, n, 1, 1);
                return new Fault(line, (int) num(line, w[1], 0, 511, "fault input"));
            }
            case "wait" -> {
                args(line, op, n, 1, 1);
                return new Wait(line, num(line, w[1], 0, Long.MAX_VALUE, "cycle count"));
            }
            case "timeout" -> {
                args(line, op, n, 1, 1);
                return new Timeout(line, num(line, w[1], 1, Long.MAX_VALUE, "cycle count"));
            }
            case "nowait" -> {
                if (n == 0) {
                    throw new ParseException(line, "nowait takes a request (read, write, eeprom-read or eeprom-write)");
                }
                Command c = command(line, Arrays.copyOfRange(w, 1, w.length));
                if (!(c instanceof Request r)) {
                    throw new ParseException(line, "nowait takes a request (read, write, eeprom-read or eeprom-write), not '"
                            + w[1] + "'");
                }
                return new NoWait(line, r);
            }
            case "sync" -> {
                args(line, op, n, 0, 0);
                return new Sync(line);
            }
            default -> throw new ParseException(line, "unknown command '" + w[0]
                    + "' (commands: port, route, dest, read, write, eeprom-read, eeprom-write, corrupt-next, fault, wait, timeout,"
                    + " nowait, sync)");
        }
    }

    private static void args(int line, String op, int n, int min, int max) throws ParseException {
        if (n < min || n > max) {
            String want = min == max ? min + "" : min + " to " + max;
            throw new ParseException(line, op + " takes " + want + " argument" + (max == 1 ? "" : "s") + " (got " + n + ")");
        }
    }

    /** A decimal or 0x-hex number in [min, max]. */
    static long num(int line, String s, long min, long max, String what) throws ParseException {
        long v;
        try {
            v = s.toLowerCase(Locale.ROOT).startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new ParseException(line, "'" + s + "' is not a number (" + what + "; decimal or 0x-hex)");
        }
        if (v < min || v > max) {
            throw new ParseException(line, what + " " + s + " outside " + min + ".." + (max == Long.MAX_VALUE ? "" : "0x" + Long.toHexString(max)));
        }
        return v;
    }

    /** Any 64-bit value: decimal (non-negative) or 0x-hex up to 16 digits. */
    private static long value64(int line, String s) throws ParseException {
        try {
            if (s.toLowerCase(Locale.ROOT).startsWith("0x")) {
                String h = s.substring(2);
                if (h.isEmpty() || h.length() > 16) {
                    throw new NumberFormatException();
                }
                return Long.parseUnsignedLong(h, 16);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new ParseException(line, "'" + s + "' is not a 64-bit value (decimal or 0x-hex)");
        }
    }
}
