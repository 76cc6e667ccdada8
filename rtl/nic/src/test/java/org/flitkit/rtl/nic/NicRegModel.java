package org.flitkit.rtl.nic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;

/**
 * Software reference of the NIC answering register requests (docs/th2-nma.md, "Decisions"): the DestID rule,
 * a request for another chip type dropped (a NIC does not forward), BAD_TYPE, reg_access's checks in order (count, reserved bits, 12-bit addresses, unmapped,
 * read-only), RW/W1C storage and CHIP_ID; answers built with {@link ManagementPacket#response} and
 * {@link ManagementPacket#errorResponseTo}. Read-only values the test knows are set with {@link #ro}; reading
 * one that was never set fails, so a test cannot compare against a value it did not predict.
 */
final class NicRegModel {
    private static final PayloadLayouts.RegisterAccess L = PayloadLayouts.REGISTER;
    private final Map<Integer, RegDef> byAddr = new HashMap<>();
    private final Map<String, Long> values = new HashMap<>();
    private int chipId;

    NicRegModel(int chipId) {
        this.chipId = chipId;
        for (RegDef d : NicRegisters.map()) {
            byAddr.put(d.addr(), d);
            if (d.access() != RegDef.Access.RO) {
                values.put(d.name(), d.resetValue());
            }
        }
        values.put(NmaRegisters.CHIP_ID, (long) chipId);
        ro(NmaRegisters.CHIP_TYPE, ChipType.NIC.code());
        ro(NmaRegisters.NMA_VERSION, NmaRegisters.VERSION);
        ro(NmaRegisters.PORT_COUNT, NicRegisters.PORTS);
        ro(NmaRegisters.portReg(0, NmaRegisters.PORT_NEIGHBOUR), NicChip.NEIGHBOUR);
        ro(NmaRegisters.portReg(0, NmaRegisters.PORT_LINK_STATUS), NicChip.LINK_STATUS);
        ro(NmaRegisters.portReg(0, NmaRegisters.PORT_RETRY_COUNT), NicChip.RETRY_COUNT);
        ro(NmaRegisters.portReg(0, NmaRegisters.PORT_HANDSHAKE_COUNT), NicChip.HANDSHAKE_COUNT);
        ro(NmaRegisters.portReg(0, NmaRegisters.PORT_BIST_RESULT), NicChip.BIST_RESULT);
    }

    int chipId() {
        return chipId;
    }

    /** Sets the value a read-only (or W1C) register must read as now. */
    NicRegModel ro(String name, long value) {
        values.put(name, value);
        return this;
    }

    long value(String name) {
        if (name.equals(NmaRegisters.portReg(0, NmaRegisters.PORT_IDENTITY))) {
            return NmaRegisters.identity(ChipType.NIC, chipId, 0);
        }
        Long v = values.get(name);
        if (v == null) {
            throw new IllegalStateException("the test did not say what " + name + " reads as");
        }
        return v;
    }

    /** The answer the NIC sends to request bits {@code req} (good CRC), or null when it drops it (DestID, DestType). */
    BitVector answer(BitVector req) {
        int destId = (int) req.get(PacketLayout.HEAD.DEST_ID);
        if (destId != chipId && destId != Th2.CHIP_ID_ANY) {
            return null;
        }
        long type = req.get(PacketLayout.BODY1.NMP_TYPE);
        if (req.get(PacketLayout.HEAD.DEST_TYPE) != ChipType.NIC.code()) {
            return null; // a NIC does not forward: RecvDispatch drops it before NIC-NMA (NIC_RX_DESTTYPE_DROPS)
        }
        if (type != NmpType.REG_READ_REQ.code() && type != NmpType.REG_WRITE_REQ.code()) {
            return err(req, ErrorCode.BAD_TYPE, 7);
        }
        boolean write = type == NmpType.REG_WRITE_REQ.code();
        BitVector nmp = req.slice(PacketLayout.BODY2.NMP_DATA);
        int count = (int) nmp.get(L.COUNT);
        if (count < 1 || count > Th2.MAX_REGISTERS) {
            return err(req, ErrorCode.BAD_COUNT, 7);
        }
        boolean reserved = false;
        for (Field gap : L.layout().reserved()) {
            reserved |= !nmp.slice(gap).isZero();
        }
        reserved |= count == 1 && (nmp.get(L.addr(1)) != 0 || nmp.get(L.data(1)) != 0);
        reserved |= !write && (nmp.get(L.data(0)) != 0 || nmp.get(L.data(1)) != 0);
        if (reserved) {
            return err(req, ErrorCode.RESERVED_NOT_ZERO, 7);
        }
        int bits = ChipType.NIC.registerAddressBits();
        for (int i = 0; i < count; i++) {
            if (nmp.get(L.addr(i)) >> bits != 0) {
                return err(req, ErrorCode.ADDRESS_OUT_OF_RANGE, i);
            }
        }
        int responder = chipId;
        List<Long> data = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RegDef d = byAddr.get((int) nmp.get(L.addr(i)));
            if (d == null) {
                return err(req, ErrorCode.UNMAPPED_ADDRESS, i);
            }
            if (write && d.access() == RegDef.Access.RO) {
                return err(req, ErrorCode.READ_ONLY, i);
            }
            long v = nmp.get(L.data(i));
            if (!write) {
                data.add(value(d.name()));
            } else if (d.access() == RegDef.Access.RW) {
                values.put(d.name(), v);
                if (d.name().equals(NmaRegisters.CHIP_ID)) {
                    chipId = (int) (v & 0xFFFF);
                }
            } else {
                values.put(d.name(), values.get(d.name()) & ~v);
            }
        }
        ManagementPacket r = ManagementPacket.parse(req);
        RegisterPayload p = (RegisterPayload) r.payload();
        return r.response(responder, write ? p.withoutData() : p.answeredWith(data)).toBits();
    }

    private BitVector err(BitVector req, ErrorCode e, int index) {
        return ManagementPacket.errorResponseTo(req, ChipType.NIC, chipId, e, index).toBits();
    }
}
