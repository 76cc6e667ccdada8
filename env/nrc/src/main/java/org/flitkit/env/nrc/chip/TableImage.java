package org.flitkit.env.nrc.chip;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.TableConfig;

/**
 * Routing tables as the register writes that load them (the power-up image or a management script): a pointer
 * write (NRC_TABLE_ADDR) before each run of consecutive entries, then one NRC_TABLE_DATA write per entry. Entries
 * common to every input port are written once with the all-ports bit. docs/th2-nrc-switch.md, "Table access".
 */
public final class TableImage {
    private final Map<Integer, Long> common = new TreeMap<>();

    /** Entry {@code index} of every input's table allows the outputs in {@code outputs} (bit o = output o). */
    public TableImage allPorts(int index, long outputs) {
        if (index < 0 || index > 0xFFFF || outputs < 0 || outputs >= 1L << 24) {
            throw new IllegalArgumentException("table entry " + index + " = 0x" + Long.toHexString(outputs)
                    + ": entries are 0..65535 and allowed outputs 24 bits");
        }
        common.put(index, outputs);
        return this;
    }

    /** The register writes, in order. */
    public List<BootImage.Record> records() {
        int addr = NrcRegisters.address(NrcRegisters.TABLE_ADDR);
        int data = NrcRegisters.address(NrcRegisters.TABLE_DATA);
        List<BootImage.Record> out = new ArrayList<>();
        int next = -1;
        for (Map.Entry<Integer, Long> e : common.entrySet()) {
            if (e.getKey() != next) {
                out.add(new BootImage.Record(addr, 1L << TableConfig.ALL_BIT | e.getKey()));
            }
            out.add(new BootImage.Record(data, e.getValue()));
            next = e.getKey() + 1;
        }
        return out;
    }
}
