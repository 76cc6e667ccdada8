package org.flitkit.rtl.nma;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
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

/**
 * Software reference of reg_access + RegisterFile: the answer to a register request, built with the
 * format model ({@link ManagementPacket#response}, {@link ManagementPacket#errorResponseTo}).
 */
public final class RegModel {
    static final PayloadLayouts.RegisterAccess L = PayloadLayouts.REGISTER;
    public final ChipType chip;
    public final int addrBits;
    public final Map<Integer, RegDef> byAddr = new HashMap<>();
    public final Map<String, Long> values = new HashMap<>();

    public RegModel(ChipType chip, int addrBits, List<RegDef> defs) {
        this.chip = chip;
        this.addrBits = addrBits;
        for (RegDef d : defs) {
            byAddr.put(d.addr(), d);
            values.put(d.name(), d.resetValue());
        }
    }

    public long get(String name) {
        return values.get(name);
    }

    public void set(String name, long v) {
        values.put(name, v);
    }

    /** The answer of reg_access to register request bits {@code req}, answered by chip {@code chipId}. */
    public BitVector answer(BitVector req, int chipId) {
        BitVector nmp = req.slice(PacketLayout.BODY2.NMP_DATA);
        long type = req.get(PacketLayout.BODY1.NMP_TYPE);
        boolean write = type == NmpType.REG_WRITE_REQ.code();
        int count = (int) nmp.get(L.COUNT);
        if (count < 1 || count > Th2.MAX_REGISTERS) {
            return err(req, chipId, ErrorCode.BAD_COUNT, 7);
        }
        boolean reserved = false;
        for (Field gap : L.layout().reserved()) {
            reserved |= !nmp.slice(gap).isZero();
        }
        if (count == 1) {
            reserved |= nmp.get(L.addr(1)) != 0 || nmp.get(L.data(1)) != 0;
        }
        if (!write) {
            reserved |= nmp.get(L.data(0)) != 0 || nmp.get(L.data(1)) != 0;
        }
        if (reserved) {
            return err(req, chipId, ErrorCode.RESERVED_NOT_ZERO, 7);
        }
        List<Integer> addrs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            addrs.add((int) nmp.get(L.addr(i)));
        }
        for (int i = 0; i < count; i++) {
            if (addrs.get(i) >> addrBits != 0) {
                return err(req, chipId, ErrorCode.ADDRESS_OUT_OF_RANGE, i);
            }
        }
        List<Long> data = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RegDef d = byAddr.get(addrs.get(i));
            if (d == null) {
                return err(req, chipId, ErrorCode.UNMAPPED_ADDRESS, i);
            }
            if (write && d.access() == RegDef.Access.RO) {
                return err(req, chipId, ErrorCode.READ_ONLY, i);
            }
            long v = nmp.get(L.data(i));
            if (!write) {
                data.add(values.get(d.name()));
            } else if (d.access() == RegDef.Access.RW) {
                values.put(d.name(), v);
            } else {
                values.put(d.name(), values.get(d.name()) & ~v);
            }
        }
        ManagementPacket r = ManagementPacket.parse(req);
        RegisterPayload p = (RegisterPayload) r.payload();
        return r.response(chipId, write ? p.withoutData() : p.answeredWith(data)).toBits();
    }

    BitVector err(BitVector req, int chipId, ErrorCode e, int index) {
        return ManagementPacket.errorResponseTo(req, chip, chipId, e, index).toBits();
    }

    /**
     * A register request, often malformed: mostly mapped addresses (some unmapped, some beyond addrBits),
     * sometimes a bad count, a reserved bit, an unused slot or read data set.
     */
    public BitVector randomRequest(RandomGenerator rnd, int destId, List<RegDef> defs) {
        boolean write = rnd.nextBoolean();
        int n = 1 + rnd.nextInt(2);
        List<Integer> a = new ArrayList<>();
        List<Long> d = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(10);
            a.add(k < 8 ? defs.get(rnd.nextInt(defs.size())).addr() : rnd.nextInt(1 << (k == 9 ? 15 : addrBits)));
            d.add(rnd.nextLong());
        }
        List<Integer> fit = a.stream().map(x -> x & (1 << addrBits) - 1).toList();
        ManagementPacket p = TestPackets.header(rnd, chip, destId)
                .nmpType(write ? NmpType.REG_WRITE_REQ : NmpType.REG_READ_REQ)
                .payload(new RegisterPayload(fit, write ? d : List.of())).build();
        BitVector nmp = p.payload().encode();
        for (int i = 0; i < n; i++) {
            nmp = nmp.with(L.addr(i), a.get(i));
        }
        switch (rnd.nextInt(14)) {
            case 0 -> nmp = nmp.with(L.COUNT, rnd.nextBoolean() ? 0 : 3 + rnd.nextInt(5));
            case 1 -> {
                Field gap = L.layout().reserved().get(rnd.nextInt(L.layout().reserved().size()));
                nmp = nmp.flip(gap.lsb() + rnd.nextInt(gap.width()));
            }
            case 2 -> nmp = n == 1 ? nmp.with(L.addr(1), 1 + rnd.nextInt(0x7FFF)) : nmp;
            case 3 -> nmp = write ? nmp : nmp.with(L.data(rnd.nextInt(2)), 1L << rnd.nextInt(64));
            default -> { }
        }
        return TestPackets.withRawData(p, nmp);
    }
}
