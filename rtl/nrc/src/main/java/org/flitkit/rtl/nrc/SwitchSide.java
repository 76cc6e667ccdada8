package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.BistControl;
import org.flitkit.rtl.link.LinkStatus;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.rtl.nrc.switchcore.TableAddr;
import org.flitkit.rtl.nrc.switchcore.TableRegions;
import org.flitkit.rtl.nrc.switchcore.TableWrite;

/**
 * What the NRC's NMA exchanges with the switch core and the link layers, seen from the NMA: routing-table
 * writes and reads (table-config registers), the core's drop counters and transit count, each port's BIST
 * control (BIST_CTRL writes), the die temperature, and the limits of the temperature and retry-threshold faults. Spec: 20-th2-management.md, "Hardware primitives"; docs/th2-nrc-switch.md.
 */
public final class SwitchSide extends Bundle {
    public final Valid<TableWrite> tableWrite;
    public final TableAddr tableRead;
    public final UInt tableReadData;
    /** NRC_TABLE_REGION and NRC_TABLE_DEFAULT */
    public final TableRegions tableRegions;
    public final UInt malformedDrops = flipped(UInt(SwitchCore.COUNTER_BITS));
    public final UInt unroutableDrops = flipped(UInt(SwitchCore.COUNTER_BITS));
    public final UInt overflowDrops = flipped(UInt(SwitchCore.COUNTER_BITS));
    public final UInt framingErrors = flipped(UInt(SwitchCore.COUNTER_BITS));
    public final UInt linkDownDrops = flipped(UInt(SwitchCore.COUNTER_BITS));
    /** packets sent out of all ports (NRC_TRANSIT_PACKETS) */
    public final UInt transit = flipped(UInt(64));
    public final Vec<BistControl> bist;
    /** the die temperature from the chip's sensor (NRC_TEMPERATURE) */
    public final UInt temperature = flipped(UInt(8));
    /** NRC_TEMPERATURE_LIMIT and NRC_RETRY_THRESHOLD, for the chip's fault inputs */
    public final UInt temperatureLimit = UInt(8);
    public final UInt retryThreshold = UInt(LinkStatus.COUNTER_BITS);

    public SwitchSide(SwitchParams p) {
        tableWrite = Valid.of(() -> new TableWrite(p));
        tableRead = new TableAddr(p);
        tableReadData = flipped(UInt(p.ports()));
        tableRegions = new TableRegions(p);
        bist = Vec(p.ports(), BistControl::new);
    }
}
