package org.flitkit.env.nic.host;

import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;

/**
 * The chip a management request is for: its type, its ID (0xFFFF while unconfigured), the source route
 * from the server to it and the route back. Spec: 20-th2-management.md, "Management packets and descriptors".
 */
public record Target(ChipType type, int chipId, RoutingField forward, RoutingField backward) {
    public Target {
        if (type == null || forward == null || backward == null) {
            throw new IllegalArgumentException("a target needs a chip type and both routes");
        }
        if (chipId < 0 || chipId > Th2.CHIP_ID_ANY) {
            throw new IllegalArgumentException("chip ID must be 0..0xFFFF, got 0x" + Integer.toHexString(chipId));
        }
    }

    /** The NRC at the far end of the server NIC's cable, which leaves the NRC by {@code port} toward the server. */
    public static Target adjacentNrc(int chipId, int port) {
        return new Target(ChipType.NRC, chipId, RoutingField.EMPTY, RoutingField.of(port));
    }

    /** The same chip with another DestID. */
    public Target withChipId(int id) {
        return new Target(type, id, forward, backward);
    }
}
