package org.flitkit.waves;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Minimal in-memory VCD parser, meant for asserting on waveforms in tests rather than for viewing
 * huge dumps. Signals are keyed by full dotted name ({@code top.fifo.count}); values are unsigned
 * {@link BigInteger}s. Simplifications: {@code x} and {@code z} bits read as 0, real-valued
 * changes are skipped, and {@code $dumpoff}/{@code $dumpon} are treated as ordinary change blocks.
 */
public final class VcdReader {
    /** One value change: from {@code time} on, the signal holds {@code value}. */
    public record Change(long time, BigInteger value) {
    }

    /** A declared variable and everything the dump says about it. */
    public static final class Signal {
        private final String name;
        private final String type;
        private final int width;
        private final String idCode;
        private final int msb;
        private final int lsb;
        private final boolean ranged;
        private final List<Change> changes = new ArrayList<>();

        Signal(String name, String type, int width, String idCode, int msb, int lsb, boolean ranged) {
            this.name = name;
            this.type = type;
            this.width = width;
            this.idCode = idCode;
            this.msb = msb;
            this.lsb = lsb;
            this.ranged = ranged;
        }

        /** Full dotted hierarchical name, without the bit range. */
        public String name() {
            return name;
        }

        /** VCD variable type as declared, e.g. {@code wire} or {@code reg}. */
        public String type() {
            return type;
        }

        /** Declared width in bits; values never exceed it. */
        public int width() {
            return width;
        }

        /** The identifier code used in the value change section. */
        public String idCode() {
            return idCode;
        }

        /** Declared range, or {@code width-1:0} if the declaration had none. */
        public int msb() {
            return msb;
        }

        /** See {@link #msb()}. */
        public int lsb() {
            return lsb;
        }

        /**
         * The bit range viewers append to the name, {@code [7:0]} or {@code [3]}, or empty for a
         * scalar declared without one; GTKWave needs it to find the trace.
         */
        public String range() {
            if (!ranged && width == 1) {
                return "";
            }
            return width == 1 && msb == lsb ? "[" + msb + "]" : "[" + msb + ":" + lsb + "]";
        }

        /** All changes in file order, including the {@code $dumpvars} entry; read-only. */
        public List<Change> changes() {
            return Collections.unmodifiableList(changes);
        }

        /**
         * The value in effect at time {@code t}: that of the last change at or before {@code t}.
         *
         * @throws NoSuchElementException if the signal had no value yet at {@code t}
         */
        public BigInteger valueAt(long t) {
            int lo = 0;
            int hi = changes.size() - 1;
            int found = -1;
            while (lo <= hi) { // last index with time <= t
                int mid = (lo + hi) >>> 1;
                if (changes.get(mid).time() <= t) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            if (found < 0) {
                throw new NoSuchElementException(name + " has no value at time " + t);
            }
            return changes.get(found).value();
        }

        void record(long time, BigInteger value) {
            changes.add(new Change(time, value));
        }

        @Override
        public String toString() {
            return name + range() + " " + type + " id " + idCode + ", " + changes.size() + " changes";
        }
    }

    private final List<String> scopes = new ArrayList<>();
    private final Map<String, Signal> signals = new LinkedHashMap<>();
    private final Map<String, List<Signal>> byId = new HashMap<>();
    private String timescale = "";
    private long endTime;

    private VcdReader() {
    }

    /** Parses a whole VCD file. */
    public static VcdReader read(Path file) {
        return parse(file, false);
    }

    /** Parses only the declarations, which is cheap even for huge dumps (e.g. to look up widths). */
    public static VcdReader readHeader(Path file) {
        return parse(file, true);
    }

    /** Parses VCD text from {@code in}; the reader is not closed. */
    public static VcdReader read(Reader in) {
        VcdReader r = new VcdReader();
        r.parse(new Tokens(in), false);
        return r;
    }

    /** The {@code $timescale} text, e.g. {@code 1ns}, or empty if absent. */
    public String timescale() {
        return timescale;
    }

    /** Full dotted names of all scopes in declaration order. */
    public List<String> scopes() {
        return Collections.unmodifiableList(scopes);
    }

    /** All signals by full dotted name, in declaration order. */
    public Map<String, Signal> signals() {
        return Collections.unmodifiableMap(signals);
    }

    /** Looks up a signal, failing with the list of known names so a typo is easy to spot. */
    public Signal signal(String fullName) {
        Signal s = signals.get(fullName);
        if (s == null) {
            throw new NoSuchElementException("no signal '" + fullName + "'; known: " + signals.keySet());
        }
        return s;
    }

    /** The last {@code #t} timestamp in the file (0 if none). */
    public long endTime() {
        return endTime;
    }

    private static VcdReader parse(Path file, boolean headerOnly) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            VcdReader r = new VcdReader();
            r.parse(new Tokens(in), headerOnly);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private void parse(Tokens in, boolean headerOnly) {
        Deque<String> path = new ArrayDeque<>();
        long time = 0;
        for (String tok = in.next(); tok != null; tok = in.next()) {
            char c = tok.charAt(0);
            if (c == '$') {
                if (keyword(tok, in, path) && headerOnly) {
                    return;
                }
            } else if (c == '#') {
                time = Long.parseLong(tok, 1, tok.length(), 10);
                endTime = time;
            } else if (c == 'b' || c == 'B') {
                change(in.require("identifier after " + tok), time, parseBinary(tok));
            } else if (c == 'r' || c == 'R') {
                in.require("identifier after " + tok); // real values are not modelled
            } else if ("01xXzZ".indexOf(c) >= 0 && tok.length() > 1) {
                change(tok.substring(1), time, c == '1' ? BigInteger.ONE : BigInteger.ZERO);
            } else {
                throw malformed("unexpected token '" + tok + "'");
            }
        }
    }

    /** Handles one {@code $keyword}; returns true at {@code $enddefinitions}. */
    private boolean keyword(String tok, Tokens in, Deque<String> path) {
        switch (tok) {
            case "$scope" -> {
                in.require("scope type");
                String name = in.require("scope name");
                path.addLast(path.isEmpty() ? name : path.peekLast() + "." + name);
                scopes.add(path.peekLast());
                in.skipToEnd();
            }
            case "$upscope" -> {
                if (path.pollLast() == null) {
                    throw malformed("$upscope without $scope");
                }
                in.skipToEnd();
            }
            case "$var" -> declare(in.untilEnd(), path.peekLast());
            case "$timescale" -> timescale = String.join("", in.untilEnd());
            case "$enddefinitions" -> {
                in.skipToEnd();
                return true;
            }
            // Simulation commands bracket ordinary value changes; their $end is a bare token.
            case "$dumpvars", "$dumpall", "$dumpon", "$dumpoff", "$end" -> { }
            default -> in.skipToEnd(); // $date, $version, $comment and unknown sections
        }
        return false;
    }

    private void declare(List<String> t, String scope) {
        if (t.size() < 4) {
            throw malformed("short $var declaration " + t);
        }
        int width = Integer.parseInt(t.get(1));
        String ref = t.get(3);
        String range = t.size() > 4 ? String.join("", t.subList(4, t.size())) : "";
        int bracket = ref.indexOf('[');
        if (bracket > 0) { // range glued to the name, e.g. count[7:0]
            range = ref.substring(bracket);
            ref = ref.substring(0, bracket);
        }
        int msb = width - 1;
        int lsb = 0;
        if (!range.isEmpty()) {
            String inner = range.substring(1, range.length() - 1);
            int colon = inner.indexOf(':');
            msb = Integer.parseInt(inner.substring(0, colon < 0 ? inner.length() : colon).trim());
            lsb = colon < 0 ? msb : Integer.parseInt(inner.substring(colon + 1).trim());
        }
        String name = scope == null ? ref : scope + "." + ref;
        Signal s = new Signal(name, t.get(0), width, t.get(2), msb, lsb, !range.isEmpty());
        if (signals.putIfAbsent(name, s) != null) {
            throw malformed("duplicate signal " + name);
        }
        byId.computeIfAbsent(s.idCode(), k -> new ArrayList<>(1)).add(s);
    }

    private void change(String id, long time, BigInteger value) {
        List<Signal> targets = byId.get(id);
        if (targets == null) {
            throw malformed("value change for undeclared identifier '" + id + "'");
        }
        for (Signal s : targets) {
            s.record(time, value);
        }
    }

    private static BigInteger parseBinary(String tok) {
        StringBuilder digits = new StringBuilder(tok.length() - 1);
        for (int i = 1; i < tok.length(); i++) {
            char c = tok.charAt(i);
            if (c == '0' || c == '1') {
                digits.append(c);
            } else if ("xXzZ".indexOf(c) >= 0) {
                digits.append('0');
            } else {
                throw malformed("bad binary value '" + tok + "'");
            }
        }
        if (digits.length() == 0) {
            throw malformed("empty binary value");
        }
        return new BigInteger(digits.toString(), 2);
    }

    private static IllegalArgumentException malformed(String message) {
        return new IllegalArgumentException("malformed VCD: " + message);
    }

    /** Whitespace-separated tokens, the only lexical structure VCD has. */
    private static final class Tokens {
        private final Reader in;
        private final char[] buf = new char[1 << 14];
        private int pos;
        private int limit;
        private final StringBuilder sb = new StringBuilder();

        Tokens(Reader in) {
            this.in = in;
        }

        String next() {
            sb.setLength(0);
            int c;
            do {
                c = read();
            } while (c >= 0 && c <= ' ');
            while (c > ' ') {
                sb.append((char) c);
                c = read();
            }
            return sb.length() == 0 ? null : sb.toString();
        }

        private int read() {
            if (pos == limit) {
                try {
                    limit = in.read(buf, 0, buf.length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                pos = 0;
                if (limit <= 0) {
                    limit = 0;
                    return -1;
                }
            }
            return buf[pos++];
        }

        String require(String what) {
            String t = next();
            if (t == null) {
                throw malformed("unexpected end of file, expected " + what);
            }
            return t;
        }

        List<String> untilEnd() {
            List<String> out = new ArrayList<>();
            for (String t = require("$end"); !t.equals("$end"); t = require("$end")) {
                out.add(t);
            }
            return out;
        }

        void skipToEnd() {
            untilEnd();
        }
    }
}
