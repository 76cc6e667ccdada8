package org.flitkit.rtl.ring;

/** Which access rule the stops of a multi-ring use (docs/multiring.md, "RTL"). */
public enum RingKind {
    /** {@link SlottedRingNode}: fill only an empty slot, no buffering on the way. */
    SLOTTED,
    /** {@link RegisterInsertionNode}: the source always transmits, passing traffic waits in the insertion buffer. */
    REGISTER_INSERTION;

    /** Insertion buffer of a register-insertion stop, in packets. */
    public static final int INSERTION_BUFFER = 4;

    RingStop stop(RingParams p) {
        return this == SLOTTED ? new SlottedRingNode(p) : new RegisterInsertionNode(p, INSERTION_BUFFER);
    }

    /** By command-line name: {@code slotted} or {@code insertion}. */
    public static RingKind named(String name) {
        return switch (name) {
            case "slotted" -> SLOTTED;
            case "insertion" -> REGISTER_INSERTION;
            default -> throw new IllegalArgumentException("unknown ring kind '" + name + "'; use slotted or insertion");
        };
    }
}
