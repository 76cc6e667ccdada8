package org.flitkit.rtl.nma;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A register map's addresses by name, for software that builds requests (the management server, boot images): one
 * per chip type, built once from its map.
 */
public final class AddressBook {
    private final String chip;
    private final Map<String, Integer> byName = new HashMap<>();

    public AddressBook(String chip, List<RegDef> map) {
        this.chip = chip;
        for (RegDef d : map) {
            byName.put(d.name(), d.addr());
        }
    }

    /** The address of register {@code name}; a name the map lacks is an error that names the chip. */
    public int address(String name) {
        Integer a = byName.get(name);
        if (a == null) {
            throw new IllegalArgumentException("the " + chip + " has no register " + name);
        }
        return a;
    }
}
