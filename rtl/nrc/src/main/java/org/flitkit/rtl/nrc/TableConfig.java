package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.rtl.nrc.switchcore.TableAddr;
import org.flitkit.rtl.nrc.switchcore.TableWrite;

/**
 * The routing tables reached indirectly through table-config registers: NRC_TABLE_ADDR sets a pointer (port,
 * entry, all ports), each NRC_TABLE_DATA write stores one entry there and advances the entry, NRC_TABLE_READ
 * shows the entry at the pointer. The power-up load writes the same registers. Spec: 20-th2-management.md,
 * "Hardware primitives" (routing-table entries reached indirectly); docs/th2-nrc-switch.md, "Table access".
 */
public final class TableConfig extends Module {
    /** NRC_TABLE_ADDR / NRC_TABLE_PTR layout: entry [15:0], port [20:16], all ports [24]. */
    public static final int PORT_LSB = 16;
    public static final int ALL_BIT = 24;

    /** NRC_TABLE_ADDR was written (the value written below, in the same cycle) */
    public final Bool addrWritten = input(Bool());
    public final UInt addrValue = input(UInt(64));
    /** NRC_TABLE_DATA was written (value below) */
    public final Bool dataWritten = input(Bool());
    public final UInt dataValue = input(UInt(64));

    /** to the switch's table write port */
    public final Valid<TableWrite> write;
    /** to the switch's table read port, and the entry it returns */
    public final TableAddr read;
    public final UInt readData;
    /** NRC_TABLE_PTR and NRC_TABLE_READ */
    public final UInt pointer = output(UInt(64));
    public final UInt entry = output(UInt(64));

    public TableConfig(SwitchParams p) {
        write = output(Valid.of(() -> new TableWrite(p)));
        read = output(new TableAddr(p));
        readData = input(UInt(p.ports()));

        UInt index = regInit(UInt(16), 0).named("index");
        UInt port = regInit(UInt(5), 0).named("port");
        Bool all = regInit(Bool(), 0).named("all");
        // an entry or port beyond the tables is not an address: such writes change nothing (docs: "Table access")
        Bool inRange = index.lt(p.tableEntries()).and(port.lt(p.ports()).or(all));

        write.valid.assign(dataWritten.and(inRange));
        write.bits.port.assign(port);
        write.bits.index.assign(index.trunc(p.indexBits()));
        write.bits.mask.assign(dataValue.trunc(p.ports()));
        write.bits.all.assign(all);
        read.port.assign(port);
        read.index.assign(index.trunc(p.indexBits()));
        pointer.assign(cat(all, lit(0, ALL_BIT - PORT_LSB - 5), port, index).pad(64));
        entry.assign(mux(inRange.and(all.not()), readData, lit(0, p.ports())).pad(64));

        when(addrWritten, () -> {
            index.assign(addrValue.bits(PORT_LSB - 1, 0));
            port.assign(addrValue.bits(PORT_LSB + 4, PORT_LSB));
            all.assign(addrValue.bit(ALL_BIT));
        }).elsewhen(dataWritten, () -> index.assign(index.add(1).trunc(16)));
    }
}
