package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.RsGeometry;

/**
 * Software reference of an NRC answering well-formed requests: the register map with RW/RO/W1C
 * semantics, the E2PROM bytes, CHIP_ID and the DestID rule; answers are built with the format model
 * ({@link ManagementPacket#response}, {@link ManagementPacket#errorResponse}). Counters and other
 * registers that change by themselves are "volatile": {@link #predictable} says which to avoid.
 * Spec: 20-th2-management.md; DestID rule in docs/th2-nrc.md.
 */
public final class NrcReference {
    private final Map<Integer, RegDef> byAddr = new HashMap<>();
    private final Map<Integer, Long> stored = new HashMap<>();
    private final byte[] eeprom = new byte[65536];
    private int chipId = Th2.CHIP_ID_ANY;

    public NrcReference(byte[] eepromImage) {
        for (RegDef d : NrcRegisters.map()) {
            byAddr.put(d.addr(), d);
            if (d.access() != RegDef.Access.RO) {
                stored.put(d.addr(), d.resetValue());
            }
        }
        Arrays.fill(eeprom, (byte) 0xFF);
        if (eepromImage != null) {
            System.arraycopy(eepromImage, 0, eeprom, 0, eepromImage.length);
        }
    }

    public int chipId() {
        return chipId;
    }

    public List<RegDef> registers() {
        return new ArrayList<>(byAddr.values());
    }

    /** A register whose value the model knows at any time (not a counter or live status). */
    public boolean predictable(int addr) {
        RegDef d = byAddr.get(addr);
        return d != null && roValue(d) != null;
    }

    /** Whether the chip executes a packet with this DestID (docs/th2-nrc.md, DestID rule). */
    public boolean accepts(int destId) {
        return destId == Th2.CHIP_ID_ANY || destId == chipId;
    }

    /** The answer to a well-formed request with a good CRC, or null if the chip drops it (DestID). */
    public ManagementPacket answer(ManagementPacket req) {
        return answer(req, null);
    }

    /**
     * {@link #answer(ManagementPacket)} for requests that may read registers which change by themselves
     * (counters, live status): the value read by access i of such a register is {@code live.applyAsLong(i)},
     * taken from what the chip answered; everything else is predicted.
     */
    public ManagementPacket answer(ManagementPacket req, IntToLongFunction live) {
        if (!accepts(req.destId())) {
            return null;
        }
        if (req.destType() != ChipType.NRC) {
            return req.errorResponse(chipId, ErrorCode.BAD_DEST_TYPE, 7);
        }
        return switch (req.nmpType()) {
            case REG_READ_REQ, REG_WRITE_REQ -> register(req, live);
            case EEP_READ_REQ, EEP_WRITE_REQ -> eeprom(req);
            default -> req.errorResponse(chipId, ErrorCode.BAD_TYPE, 7);
        };
    }

    private ManagementPacket register(ManagementPacket req, IntToLongFunction live) {
        RegisterPayload p = (RegisterPayload) req.payload();
        boolean write = req.nmpType() == NmpType.REG_WRITE_REQ;
        int responder = chipId;
        List<Long> data = new ArrayList<>();
        for (int i = 0; i < p.count(); i++) {
            RegDef d = byAddr.get(p.addresses().get(i));
            if (d == null) {
                return req.errorResponse(responder, ErrorCode.UNMAPPED_ADDRESS, i);
            }
            if (write && d.access() == RegDef.Access.RO) {
                return req.errorResponse(responder, ErrorCode.READ_ONLY, i);
            }
            if (!write) {
                Long v = d.access() == RegDef.Access.RO ? roValue(d) : stored.get(d.addr());
                if (v == null) {
                    if (live == null) {
                        throw new IllegalArgumentException("register " + d.name() + " is volatile: the model cannot predict it");
                    }
                    v = live.applyAsLong(i);
                }
                data.add(v);
            } else if (d.access() == RegDef.Access.RW) {
                stored.put(d.addr(), p.data().get(i));
                if (d.name().equals(NmaRegisters.CHIP_ID)) {
                    chipId = (int) (p.data().get(i) & 0xFFFF);
                }
            } else {
                stored.put(d.addr(), stored.get(d.addr()) & ~p.data().get(i));
            }
        }
        return req.response(responder, write ? p.withoutData() : p.answeredWith(data));
    }

    private ManagementPacket eeprom(ManagementPacket req) {
        EepromPayload p = (EepromPayload) req.payload();
        boolean write = req.nmpType() == NmpType.EEP_WRITE_REQ;
        List<Integer> data = new ArrayList<>();
        for (int i = 0; i < p.count(); i++) {
            int a = p.addresses().get(i);
            if (write) {
                eeprom[a] = (byte) (int) p.data().get(i);
            } else {
                data.add(eeprom[a] & 0xFF);
            }
        }
        return req.response(chipId, write ? p.withoutData() : p.answeredWith(data));
    }

    /** Sets a register as the power-up load does (any access kind except RO). */
    public void load(int addr, long value) {
        RegDef d = byAddr.get(addr);
        if (d == null || d.access() == RegDef.Access.RO) {
            throw new IllegalArgumentException("no writable register at 0x" + Integer.toHexString(addr));
        }
        stored.put(addr, value);
        if (d.name().equals(NmaRegisters.CHIP_ID)) {
            chipId = (int) (value & 0xFFFF);
        }
    }

    /** The read response to {@code req} with values the caller knows (counters, live status). */
    public ManagementPacket readAnswer(ManagementPacket req, List<Long> values) {
        return req.response(chipId, ((RegisterPayload) req.payload()).answeredWith(values));
    }

    /** Value of a read-only register, or null when it changes by itself (counters, live status). */
    private Long roValue(RegDef d) {
        if (d.access() != RegDef.Access.RO) {
            return d.access() == RegDef.Access.RW ? stored.get(d.addr()) : null;
        }
        String n = d.name();
        switch (n) {
            case NmaRegisters.CHIP_TYPE:
                return (long) ChipType.NRC.code();
            case NmaRegisters.NMA_VERSION:
                return NmaRegisters.VERSION;
            case NmaRegisters.PORT_COUNT:
                return (long) RsGeometry.TH2.ports();
            default:
                break;
        }
        if (n.startsWith("PORT") && n.indexOf('_') > 4) {
            int p = Integer.parseInt(n.substring(4, n.indexOf('_')));
            String r = n.substring(n.indexOf('_') + 1);
            return switch (r) {
                case NmaRegisters.PORT_IDENTITY -> NmaRegisters.identity(ChipType.NRC, chipId, p);
                case NmaRegisters.PORT_NEIGHBOUR -> BoardLinks.neighbour(p);
                case NmaRegisters.PORT_LINK_STATUS -> BoardLinks.linkStatus(p);
                case NmaRegisters.PORT_RETRY_COUNT -> BoardLinks.retryCount(p);
                case NmaRegisters.PORT_HANDSHAKE_COUNT -> BoardLinks.handshakeCount(p);
                case NmaRegisters.PORT_BIST_RESULT -> BoardLinks.bistResult(p);
                default -> null;
            };
        }
        return null;
    }
}
