package org.flitkit.env.nrc.benchmark;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.BODY2;
import static org.flitkit.hdl.Hdl.*;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.hdl.lib.WidthSerializer;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.RegDef;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.RsGeometry;

/**
 * LFSR-driven management requests into all NRC ports (24 on the TH-2 NRC), in hardware. One request maker offers a fresh
 * register read or write (1 or 2 registers) to one port per cycle, round robin; a port takes it when its
 * previous packet has left and its random gap has run out, and sends it as 4 flits. The packets are those
 * the server's NIC sends ({@link Requests}: DestID 0xFFFF, empty forward route, the entry port as return
 * route) with a TransactionID from a counter and the CRC-32C of {@link Crc32cHw}. Reads go to random
 * mapped registers (all but CHIP_ID), writes of random data to random writable ones, but 1 in 8 to any
 * mapped register (most are read-only); 1 access in 16 goes to an unmapped address. On a whole chip the ports'
 * BIST_CTRL registers can be left out ({@link #RequestGenerator(int, boolean)}).
 * Spec: 20-th2-management.md, "Management packets and descriptors".
 */
public final class RequestGenerator extends Module {
    /** Unmapped accesses go to 0x7000 + a random 12-bit offset, above every NRC register. */
    public static final int UNMAPPED_BASE = 0x7000;
    /** Idle cycles a port waits after a packet: a random 0..2^GAP_BITS-1. */
    public static final int GAP_BITS = 6;
    static final int ROM_INDEX_BITS = 8;

    public final Vec<Decoupled<UInt>> ports;

    private static final PayloadLayouts.RegisterAccess REG = PayloadLayouts.REGISTER;

    /** Requests for the TH-2 NRC's 24 ports. */
    public RequestGenerator() {
        this(RsGeometry.TH2.ports(), true);
    }

    /**
     * Requests for an NRC of {@code portCount} ports, to the registers of its map; without {@code bistControl}, none to
     * a port's BIST_CTRL. On a whole chip a random write there starts a link BIST of random length, which takes the
     * port out of data service (as the paper's offline test does) and, with it, the traffic a load benchmark is for.
     */
    public RequestGenerator(int portCount, boolean bistControl) {
        ports = output(Vec(portCount, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        UInt data0 = Lfsr.galois(64, TRUE(), 0x0123_4567_89AB_CDEFL).named("data0");
        UInt data1 = Lfsr.galois(64, TRUE(), 0x7EDC_BA98_7654_3210L).named("data1");
        // decisions: [0] write, [1] two registers, [5:2]/[9:6] == 0: access 0/1 unmapped,
        // [17:10]/[25:18] register index of access 0/1, [31:26] the taking port's next gap
        UInt pick = Lfsr.galois(32, TRUE(), 0xC0FF_EE01L).named("pick");
        // [2:0] != 0: a write goes to a writable register
        UInt pick2 = Lfsr.galois(16, TRUE(), 0xACE1L).named("pick2");
        Bool write = pick.bit(0);
        Bool two = pick.bit(1);
        Mem<UInt> registers = registerTable(portCount, bistControl);
        Bool writable = write.and(pick2.bits(2, 0).ne(0));
        UInt addr0 = mux(pick.bits(5, 2).eq(0), unmapped(data0), registers.read(writable.cat(pick.bits(17, 10))));
        UInt addr1 = mux(pick.bits(9, 6).eq(0), unmapped(data1), registers.read(writable.cat(pick.bits(25, 18))));

        Map<Field, Bits> payload = new LinkedHashMap<>();
        payload.put(REG.COUNT, mux(two, lit(2, REG.COUNT.width()), lit(1, REG.COUNT.width())));
        payload.put(REG.addr(0), addr0);
        payload.put(REG.addr(1), mux(two, addr1, lit(0, addr1.width())));
        payload.put(REG.data(0), mux(write, data0, lit(0, 64)));
        payload.put(REG.data(1), mux(write.and(two), data1, lit(0, 64)));

        Counter slot = Counter.enabled(TRUE(), portCount).named("slot");
        UInt tid = regInit(UInt(BODY1.TRANSACTION_ID.width()), 0).named("tid");
        UInt type = mux(write, lit(NmpType.REG_WRITE_REQ.code(), NmpType.BITS), lit(NmpType.REG_READ_REQ.code(), NmpType.BITS));
        UInt packet = request(slot.value, tid, type, LayoutBits.build(REG.layout(), payload)).named("packet");

        Bool taken = FALSE();
        for (int p = 0; p < portCount; p++) {
            WidthSerializer flits = instance("flits" + p, new WidthSerializer(Th2.PACKET_BITS, Th2.FLIT_BITS));
            UInt gap = regInit(UInt(GAP_BITS), 0).named("gap" + p);
            flits.in.valid.assign(slot.value.eq(p).and(gap.eq(0)));
            flits.in.bits.assign(packet);
            ports.get(p).connect(flits.out);
            when(flits.in.fire(), () -> gap.assign(pick.bits(31, 26)))
                    .elsewhen(gap.ne(0).and(flits.in.ready), () -> gap.assign(gap.sub(1)));
            taken = taken.or(flits.in.fire());
        }
        when(taken, () -> tid.assign(tid.add(1)));
    }

    /**
     * The request as {@link Requests#read} builds it in software (framing, DestID 0xFFFF, server NIC and
     * VPs, empty forward route) with the return route, TransactionID, NMPType and NMPData given, CRC filled in.
     */
    static UInt request(UInt port, UInt tid, UInt nmpType, UInt nmpData) {
        BitVector template = Requests.read(0, Th2.CHIP_ID_ANY, 0, List.of(0)).toBits();
        Map<Field, Bits> fields = new LinkedHashMap<>();
        for (Field f : PacketLayout.PACKET.fields()) {
            fields.put(f, lit(template.getBig(f), f.width()));
        }
        UInt route = lit(RoutingField.of(0).encode().toBigInteger(), Th2.ROUTE_BITS);
        fields.put(BODY1.RETURN_ROUTE, LayoutBits.with(route, FlitLayouts.ROUTE.hop(0), port));
        fields.put(BODY1.TRANSACTION_ID, tid);
        fields.put(BODY1.NMP_TYPE, nmpType);
        fields.put(BODY2.NMP_DATA, nmpData);
        return Crc32cHw.withCrc(LayoutBits.build(PacketLayout.PACKET, fields));
    }

    /** {@link #UNMAPPED_BASE} plus the low 12 bits of {@code random}. */
    private static UInt unmapped(UInt random) {
        return lit(UNMAPPED_BASE >> 12, REG.addr(0).width() - 12).cat(random.bits(11, 0));
    }

    /**
     * Register addresses by a 9-bit index: the lower half every NRC register, the upper half the writable
     * ones (RW and W1C), each list repeated to fill its 2^ROM_INDEX_BITS entries. CHIP_ID is left out: the
     * SrcID of the answer to a request that changes it is not settled (reg_access answers a 2-register
     * write with the new ID, a 1-register write and the reference model with the old one).
     */
    private static Mem<UInt> registerTable(int portCount, boolean bistControl) {
        long[] addrs = registerAddresses(portCount, bistControl);
        return mem(addrs.length, UInt(REG.addr(0).width())).init(addrs).named("registers");
    }

    /** The contents of {@link #registerTable}: the addresses requests go to, by index. */
    static long[] registerAddresses(int portCount, boolean bistControl) {
        List<RegDef> map = NrcRegisters.map(portCount).stream().filter(d -> !d.name().equals(NmaRegisters.CHIP_ID))
                .filter(d -> bistControl || !d.name().endsWith(NmaRegisters.PORT_BIST_CTRL)).toList();
        for (RegDef d : map) {
            if (d.addr() >= UNMAPPED_BASE) {
                throw new HdlException("register " + d.name() + " at 0x" + Integer.toHexString(d.addr())
                        + " lies in the range the generator uses for unmapped accesses");
            }
        }
        List<RegDef> writable = map.stream().filter(d -> d.access() != RegDef.Access.RO).toList();
        int half = 1 << ROM_INDEX_BITS;
        long[] addrs = new long[2 * half];
        for (int i = 0; i < half; i++) {
            addrs[i] = map.get(i % map.size()).addr();
            addrs[half + i] = writable.get(i % writable.size()).addr();
        }
        return addrs;
    }
}
