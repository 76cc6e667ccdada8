package org.flitkit.hdl;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The message of a {@link Hdl#printf} or {@link Hdl#check}: text with {@code %d} (decimal; negative for
 * an SInt), {@code %x} (hexadecimal bit pattern) and {@code %b} (binary bit pattern) conversions of
 * arguments of any width, written without padding, and {@code %%} for a percent sign.
 */
public final class Format {
    /** A run of text ({@code conversion == 0}) or one argument written in base 10, 16 or 2. */
    public record Part(String text, char conversion, Bits arg) {
    }

    private final String source;
    private final List<Part> parts;
    private final List<Bits> args;

    private Format(String source, List<Part> parts, List<Bits> args) {
        this.source = source;
        this.parts = List.copyOf(parts);
        this.args = List.copyOf(args);
    }

    /** Splits {@code fmt} into text and conversions, pairing each conversion with its argument. */
    static Format parse(String fmt, Bits[] args, String what) {
        if (fmt == null) {
            throw new HdlException(what + " at " + SrcLoc.here() + " has no message");
        }
        List<Part> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int next = 0;
        for (int i = 0; i < fmt.length(); i++) {
            char ch = fmt.charAt(i);
            if (ch != '%') {
                text.append(ch);
                continue;
            }
            char conv = i + 1 < fmt.length() ? fmt.charAt(++i) : ' ';
            if (conv == '%') {
                text.append('%');
                continue;
            }
            if (conv != 'd' && conv != 'x' && conv != 'b') {
                throw new HdlException(what + " at " + SrcLoc.here() + ": unsupported conversion '%" + conv + "' in \"" + fmt
                        + "\"; use %d, %x, %b or %% (no width or flags: values print without padding)");
            }
            if (next == args.length) {
                throw new HdlException(what + " at " + SrcLoc.here() + ": \"" + fmt + "\" has more conversions than the "
                        + args.length + " argument(s) given");
            }
            if (text.length() > 0) {
                parts.add(new Part(text.toString(), (char) 0, null));
                text.setLength(0);
            }
            parts.add(new Part(null, conv, args[next++]));
        }
        if (next != args.length) {
            throw new HdlException(what + " at " + SrcLoc.here() + ": \"" + fmt + "\" has " + next + " conversion(s) for "
                    + args.length + " argument(s)");
        }
        if (text.length() > 0) {
            parts.add(new Part(text.toString(), (char) 0, null));
        }
        return new Format(fmt, parts, List.of(args));
    }

    /** The format as the user wrote it. */
    public String source() {
        return source;
    }

    public List<Part> parts() {
        return parts;
    }

    /** The arguments, in the order of their conversions. */
    public List<Bits> args() {
        return args;
    }

    /**
     * The text with the arguments' values filled in; {@code values} in {@link #args()} order, negative for
     * an SInt whose sign bit is set (as {@code Simulator.peekBig} returns them).
     */
    public String render(List<BigInteger> values) {
        StringBuilder sb = new StringBuilder();
        int k = 0;
        for (Part p : parts) {
            if (p.conversion() == 0) {
                sb.append(p.text());
                continue;
            }
            BigInteger v = values.get(k++);
            BigInteger pattern = v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(p.arg().width())) : v;
            switch (p.conversion()) {
                case 'd' -> sb.append(v);
                case 'x' -> sb.append(pattern.toString(16));
                default -> sb.append(pattern.toString(2));
            }
        }
        return sb.toString();
    }
}
