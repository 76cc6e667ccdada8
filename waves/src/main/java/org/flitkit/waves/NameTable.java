package org.flitkit.waves;

import java.util.HashMap;
import java.util.Map;

/**
 * The names already used in one scope (signals and child scopes share it, because both become
 * {@code parent.name} in a viewer). Remembers the caller's original spelling so a clash created by
 * sanitising, e.g. {@code "a b"} vs {@code "a.b"}, can be reported with both names.
 */
final class NameTable {
    private final String owner;
    private final Map<String, String> originals = new HashMap<>();

    NameTable(String owner) {
        this.owner = owner;
    }

    /** Sanitises {@code raw} and reserves it, or throws naming both colliding declarations. */
    String claim(String raw) {
        String name = Names.sanitise(raw);
        String earlier = originals.putIfAbsent(name, raw);
        if (earlier != null) {
            throw new IllegalArgumentException("duplicate name '" + name + "' in " + owner + ": '" + raw
                    + "' clashes with earlier '" + earlier + "'");
        }
        return name;
    }
}
