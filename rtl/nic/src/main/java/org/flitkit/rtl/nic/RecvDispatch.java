package org.flitkit.rtl.nic;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;

/**
 * Packet conversion and dispatch (NIC flows (2) and (4)): 4 flits from the link become one packet; a request
 * for this NIC goes to the management request receive FIFO ({@link #toNma}), a response, error response or
 * fault report that passes the checks to the management response receive FIFO ({@link #toHost}). Spec:
 * 20-th2-management.md, "Where management packets go inside the chips"; docs/th2-nic.md, "Blocks".
 */
public final class RecvDispatch extends Module {
    /** Depth, in packets, of the management request receive FIFO in front of NIC-NMA. */
    public static final int NMA_FIFO_DEPTH = 2;
    /** Depth, in packets, of the management response receive FIFO in front of the MPQ writer. */
    public static final int HOST_FIFO_DEPTH = 4;

    public final Decoupled<UInt> linkIn = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** This NIC's CHIP_ID (0xFFFF while not configured): responses must carry it as DestID. */
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    public final Decoupled<UInt> toNma = output(PacketWords.packetStream());
    public final Decoupled<UInt> toHost = output(PacketWords.packetStream());
    /** One-cycle pulses, one per dropped packet, for the first check it failed (in this order). */
    public final Bool crcDrop = output(Bool());
    public final Bool malformedDrop = output(Bool());
    public final Bool destTypeDrop = output(Bool());
    public final Bool destIdDrop = output(Bool());
    public final Bool vpDrop = output(Bool());

    /** Flits of the packet being assembled (0..3), head at the bottom. */
    private final UInt held = regInit(UInt(3 * Th2.FLIT_BITS), 0);
    private final UInt count = regInit(UInt(2), 0);
    /** Discarding flits after a broken sequence until the next head (the break is counted once). */
    private final Bool hunting = regInit(Bool(), 0);
    /** A whole packet waiting to be checked and queued. */
    private final UInt pkt = regInit(UInt(Th2.PACKET_BITS), 0);
    private final Bool full = regInit(Bool(), 0);

    public RecvDispatch() {
        this(Th2.VP_COUNT);
    }

    public RecvDispatch(int vpCount) {
        if (vpCount < 1 || vpCount > 64) {
            throw new IllegalArgumentException("VP count must be in 1..64 (6-bit DestVP), got " + vpCount);
        }
        Queue<UInt> nmaFifo = instance("nmaFifo", new Queue<>(() -> UInt(Th2.PACKET_BITS), NMA_FIFO_DEPTH));
        Queue<UInt> hostFifo = instance("hostFifo", new Queue<>(() -> UInt(Th2.PACKET_BITS), HOST_FIFO_DEPTH));
        toNma.connect(nmaFifo.deq);
        toHost.connect(hostFifo.deq);

        // ---- checks on the staged packet: requests only need to be for a NIC (NIC-NMA does the rest)
        UInt type = LayoutBits.get(pkt, BODY1.NMP_TYPE);
        Bool isRequest = type.bit(0).not();
        Bool crcOk = Crc32cHw.of(pkt).eq(LayoutBits.get(pkt, PacketLayout.CRC));
        Bool forNic = LayoutBits.get(pkt, HEAD.DEST_TYPE).eq(ChipType.NIC.code());
        Bool idOk = LayoutBits.get(pkt, HEAD.DEST_ID).eq(chipId);
        Bool vpOk = LayoutBits.get(pkt, HEAD.DEST_VP).lt(vpCount);
        Bool framed = framingOk(type);

        Bool toNmaNow = full.and(isRequest).and(forNic);
        Bool crcBad = full.and(crcOk.not()).and(toNmaNow.not());
        Bool malformed = full.and(isRequest.not()).and(crcOk).and(framed.not());
        // a request for an NRC (a NIC does not forward), or a well-framed response for an NRC
        Bool typeBad = full.and(crcOk).and(forNic.not()).and(isRequest.or(framed));
        Bool respOk = full.and(isRequest.not()).and(crcOk).and(framed).and(forNic);
        Bool idBad = respOk.and(idOk.not());
        Bool vpBad = respOk.and(idOk).and(vpOk.not());
        Bool toHostNow = respOk.and(idOk).and(vpOk);

        nmaFifo.enq.valid.assign(toNmaNow);
        nmaFifo.enq.bits.assign(pkt);
        hostFifo.enq.valid.assign(toHostNow);
        hostFifo.enq.bits.assign(pkt);
        Bool dropped = crcBad.or(malformed).or(typeBad).or(idBad).or(vpBad);
        Bool leaving = dropped.or(nmaFifo.enq.fire()).or(hostFifo.enq.fire());
        when(leaving, () -> full.assign(FALSE()));
        crcDrop.assign(crcBad);
        // a broken flit sequence and a malformed staged packet can fall in the same cycle: the second pulse is
        // owed and sent in the next cycle (events are at most one per flit, so at most one is ever owed)
        Bool broken = assemble(full.not().or(leaving));
        UInt owed = regInit(UInt(2), 0);
        Bool pulse = malformed.or(broken).or(owed.ne(0));
        UInt events = malformed.pad(2).add(broken.pad(2)).add(owed);
        owed.assign(events.sub(pulse.pad(2)));
        malformedDrop.assign(pulse);
        destTypeDrop.assign(typeBad);
        destIdDrop.assign(idBad);
        vpDrop.assign(vpBad);
    }

    /** Framing of a chip-to-server packet: the management framing, a known type, reserved bits 0. */
    private Bool framingOk(UInt type) {
        Bool known = FALSE();
        for (NmpType t : NmpType.values()) {
            if (!t.isRequest()) {
                known = known.or(type.eq(t.code()));
            }
        }
        return known.and(PacketWords.managementFraming(pkt)).and(LayoutBits.reservedSet(pkt, PacketLayout.PACKET).not());
    }

    /**
     * The flit assembler; returns the pulse for a broken sequence. Expected kinds: head, body, body, tail. A stray
     * body (or an invalid kind) starts discarding until the next head; a head where a body or tail was due starts
     * a new packet; a tail where a body was due ends the broken packet. Each break counts once.
     */
    private Bool assemble(Bool stageFree) {
        UInt flit = linkIn.bits;
        UInt kind = LayoutBits.get(flit, HEAD.KIND);
        Bool head = kind.eq(Th2.KIND_HEAD);
        Bool body = kind.eq(Th2.KIND_BODY);
        Bool tail = kind.eq(Th2.KIND_TAIL);
        Bool expectHead = count.eq(0);
        Bool expectTail = count.eq(3);
        Bool good = mux(expectHead, head, mux(expectTail, tail, body));
        // the tail completes a packet into the stage: wait for it to be free (or to free up this cycle)
        linkIn.ready.assign(expectTail.not().or(stageFree));
        Bool fire = linkIn.fire();
        // inside a packet any wrong kind breaks it; between packets only the first stray flit after a good packet
        Bool broken = fire.and(good.not()).and(expectHead.not().or(hunting.not()));
        when(fire, () -> {
            when(good, () -> {
                when(expectTail, () -> {
                    pkt.assign(cat(flit, held));
                    full.assign(TRUE());
                    count.assign(0);
                }).otherwise(() -> {
                    held.assign(mux(count.eq(0), cat(held.bits(3 * Th2.FLIT_BITS - 1, Th2.FLIT_BITS), flit),
                            mux(count.eq(1), cat(held.bits(3 * Th2.FLIT_BITS - 1, 2 * Th2.FLIT_BITS), flit,
                                    held.bits(Th2.FLIT_BITS - 1, 0)), cat(flit, held.bits(2 * Th2.FLIT_BITS - 1, 0)))));
                    count.assign(count.add(1));
                });
                hunting.assign(FALSE());
            }).otherwise(() -> {
                when(head, () -> {
                    held.assign(cat(held.bits(3 * Th2.FLIT_BITS - 1, Th2.FLIT_BITS), flit));
                    count.assign(1);
                    hunting.assign(FALSE());
                }).otherwise(() -> {
                    count.assign(0);
                    // a tail ends the broken packet; a body or an invalid kind leaves us hunting for a head
                    hunting.assign(tail.not());
                });
            });
        });
        return broken;
    }
}
