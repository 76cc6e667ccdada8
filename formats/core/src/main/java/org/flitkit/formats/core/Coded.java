package org.flitkit.formats.core;

import java.util.Optional;

/** A constant carried on the wire as a numeric code; {@link #find} is the one code lookup (docs/th2-formats.md, code tables). */
public interface Coded {

    int code();

    /** The value among {@code values} whose code is {@code code}, if any. */
    static <E extends Coded> Optional<E> find(E[] values, long code) {
        for (E e : values) {
            if (e.code() == code) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
