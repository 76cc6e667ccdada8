package org.flitkit.env.nic.mgmt;

import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.IdentityWord;

/**
 * What a port of an NRC is connected to, as discovery reads it: the paper's neighbour cases (an NRC, a NIC, nothing,
 * a link that is down). {@code chipId} and {@code port} are the far end's for NRC and NIC, -1 otherwise.
 */
public record Neighbour(Kind kind, int chipId, int port) {
    public enum Kind {
        /** another NRC, learnt over the link */
        NRC,
        /** a compute node's NIC */
        NIC,
        /** no link ever came up (LINK_DOWNS 0): nothing plugged, or a cable dead since power-up */
        NONE,
        /** the link was up and went down (LINK_DOWNS above 0) */
        DOWN
    }

    public static final Neighbour NONE = new Neighbour(Kind.NONE, -1, -1);
    public static final Neighbour DOWN = new Neighbour(Kind.DOWN, -1, -1);

    /** The neighbour a valid PORTn_NEIGHBOUR word names, or null if the word is not valid. */
    static Neighbour fromWord(long word) {
        if (IdentityWord.LAYOUT.field("valid").get(word) == 0) {
            return null;
        }
        int type = (int) IdentityWord.LAYOUT.field("chip_type").get(word);
        int id = (int) IdentityWord.LAYOUT.field("chip_id").get(word);
        int port = (int) IdentityWord.LAYOUT.field("port").get(word);
        return new Neighbour(type == ChipType.NRC.code() ? Kind.NRC : Kind.NIC, id, port);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NRC -> String.format("NRC 0x%04x port %d", chipId, port);
            case NIC -> String.format("NIC 0x%04x", chipId);
            case NONE -> "none";
            case DOWN -> "down";
        };
    }
}
