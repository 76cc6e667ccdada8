package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.Entries;

import org.flitkit.rtl.chpp.PacketBeat;
import static org.flitkit.hdl.Hdl.*;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The receive engine's dispatch (paper section 4.2 and figure 10: receive dispatch by packet type into PUT upload,
 * NAP upload and the GET path; section 3.2: a packet whose QPMagic does not match the destination QP's key is
 * refused): whole packets from the network side go to {@link #putOut}, {@link #napOut} or {@link #getOut}; refused
 * packets are consumed at line rate, counted, and (NAP, or PUT with CE) reported as a QP_MAGIC_REFUSED receive
 * completion on {@link #event}. docs/chpp-receive-engine.md, "ReceiveDispatch".
 */
public final class ReceiveDispatch extends Module {
    private static final HeaderLayout.Header H = HeaderLayout.HEADER;
    /** The header's Fmt and Type bits together (127:120) must read 011_00000: a 4-DW posted memory write. */
    public static final int FMT_TYPE = (Chpp.FMT_MWR_4DW << 5) | Chpp.TYPE_MEM;

    /** Packets from the network side (a crossbar output): header beat first, {@code last} on the final beat. */
    public final Decoupled<PacketBeat> in;
    /** Accepted PUT packets, unchanged (header beat included), toward PUT upload. */
    public final Decoupled<PacketBeat> putOut;
    /** Accepted NAP packets, unchanged, toward NAP upload (which picks the receive buffer). */
    public final Decoupled<PacketBeat> napOut;
    /** Accepted GET packets (header + the 32-byte GET descriptor), toward the send engine's descriptor extract. */
    public final Decoupled<PacketBeat> getOut;
    /** QPMagic key table writes, one per cycle, effective for headers from the next cycle on. */
    public final Valid<QpKeyWrite> keyWrite;
    /**
     * Receive completion entries for refused packets (formats/chpp {@code CompletionLayouts.RECEIVE}, CompletionStatus
     * QP_MAGIC_REFUSED, Phase 0: the ring sets it), toward the receive {@link CompletionRing}.
     */
    public final Decoupled<UInt> event;

    /** Packets accepted, per output (saturating 32-bit). */
    public final UInt putPackets;
    public final UInt napPackets;
    public final UInt getPackets;
    /** Packets dropped because their QPMagic did not match the destination QP's key or the QP was closed. */
    public final UInt refusedMagic;
    /** Packets dropped because Fmt/Type is not a 4-DW memory write or PKTType is 0. */
    public final UInt refusedType;
    /**
     * Packets dropped because Length breaks its type's rule (a PUT of Length 0 passes only with S_Flag CE+LAST+RESP,
     * the end of a failed GET answer) or disagrees with a header-only packet.
     */
    public final UInt refusedLength;
    /** Accepted packets whose beat count disagreed with the header's Length (forwarded as they came). */
    public final UInt framingErrors;
    /** Refusal events handed to {@link #event}. */
    public final UInt events;

    public ReceiveDispatch() {
        in = input(Decoupled.of(PacketBeat::new));
        putOut = output(Decoupled.of(PacketBeat::new));
        napOut = output(Decoupled.of(PacketBeat::new));
        getOut = output(Decoupled.of(PacketBeat::new));
        keyWrite = input(Valid.of(QpKeyWrite::new));
        event = output(Decoupled.of(UInt(8 * Chpp.COMPLETION_BYTES)));
        putPackets = output(UInt(Counters.BITS));
        napPackets = output(UInt(Counters.BITS));
        getPackets = output(UInt(Counters.BITS));
        refusedMagic = output(UInt(Counters.BITS));
        refusedType = output(UInt(Counters.BITS));
        refusedLength = output(UInt(Counters.BITS));
        framingErrors = output(UInt(Counters.BITS));
        events = output(UInt(Counters.BITS));

        // key table: one register pair per local QP (32 x 17 flops; read by every header in the same cycle)
        List<UInt> keys = new ArrayList<>();
        List<Bool> open = new ArrayList<>();
        for (int q = 0; q < QpKeyWrite.LOCAL_QPS; q++) {
            int qq = q;
            UInt k = regInit(UInt(Chpp.QP_MAGIC_BITS), 0).named("key" + q);
            Bool o = regInit(Bool(), 0).named("open" + q);
            when(keyWrite.valid.and(keyWrite.bits.qp.eq(qq)), () -> {
                k.assign(keyWrite.bits.key);
                o.assign(keyWrite.bits.enable);
            });
            keys.add(k);
            open.add(o);
        }

        UInt h = in.bits.data;
        UInt pkt = LayoutBits.get(h, H.PKT_TYPE);
        UInt len = LayoutBits.get(h, H.LENGTH);
        UInt sflag = LayoutBits.get(h, H.S_FLAG);
        UInt dst = LayoutBits.get(h, H.DST_ID);
        UInt qpIdx = dst.bits(QpKeyWrite.QP_INDEX_BITS - 1, 0);
        UInt magic = LayoutBits.get(h, H.QP_MAGIC);
        Bool isNap = pkt.eq(PktType.NAP.code());
        Bool isPut = pkt.eq(PktType.PUT.code());
        Bool isGet = pkt.eq(PktType.GET.code());

        Bool badType = h.bits(127, 120).ne(FMT_TYPE).or(pkt.eq(0));
        Bool lenRange = len.gt(Chpp.MAX_PAYLOAD)
                .or(isNap.and(len.gt(Chpp.MAX_NAP)))
                .or(isGet.and(len.ne(32)))
                // a PUT of Length 0 only as the end of a failed GET answer (S_Flag exactly CE+LAST+RESP)
                .or(isPut.and(len.eq(0)).and(sflag.ne(HeaderLayout.S_FLAG_FAILED_ANSWER)));
        // a header-only packet must say Length 0, and Length 0 must be header-only
        Bool lenFraming = in.bits.last.ne(len.eq(0));
        Bool badLen = badType.not().and(lenRange.or(lenFraming));
        UInt key = MuxLookup(qpIdx, keys.get(0), indexMap(keys));
        Bool isOpen = MuxLookup(qpIdx, open.get(0), indexMap(open));
        Bool keyBad = badType.not().and(badLen.not()).and(isOpen.not().or(key.ne(magic)));
        // the key decision is taken when a header is first offered and held until it is taken: a key write meanwhile
        // must not pull back a beat already offered on an output (Decoupled hold rule)
        Bool hdrHeld = regInit(Bool(), 0).named("hdrHeld");
        Bool hdrHeldBadMagic = regInit(Bool(), 0).named("hdrHeldBadMagic");
        Bool badMagic = mux(hdrHeld, hdrHeldBadMagic, keyBad);
        Bool refuse = badType.or(badLen).or(badMagic);
        Bool ce = sflag.bit(Integer.numberOfTrailingZeros(HeaderLayout.S_FLAG_CE));
        Bool resp = sflag.bit(Integer.numberOfTrailingZeros(HeaderLayout.S_FLAG_RESP));
        // the formats' rule: a refused NAP always, a refused PUT only with CE, a refused GET never posts
        Bool needEvent = badMagic.and(isNap.or(isPut.and(ce)));

        // packet state: held from the header to the last beat
        Bool inPkt = regInit(Bool(), 0).named("inPkt");
        UInt route = regInit(UInt(2), 0).named("route"); // 0 drop, else the PKTType code of the output
        UInt remaining = regInit(UInt(Chpp.LENGTH_BITS), 0).named("remaining"); // payload beats still due
        Bool framingBad = regInit(Bool(), 0).named("framingBad");

        UInt hdrRoute = mux(refuse, lit(0, 2), pkt);
        UInt curRoute = mux(inPkt, route, hdrRoute);
        Bool toNap = curRoute.eq(PktType.NAP.code());
        Bool toPut = curRoute.eq(PktType.PUT.code());
        Bool toGet = curRoute.eq(PktType.GET.code());
        Bool drop = curRoute.eq(0);

        for (Decoupled<PacketBeat> o : List.of(putOut, napOut, getOut)) {
            o.bits.data.assign(in.bits.data);
            o.bits.last.assign(in.bits.last);
        }
        putOut.valid.assign(in.valid.and(toPut));
        napOut.valid.assign(in.valid.and(toNap));
        getOut.valid.assign(in.valid.and(toGet));

        Bool hdr = in.valid.andNot(inPkt);
        Bool eventValid = hdr.and(needEvent);
        event.valid.assign(eventValid);
        event.bits.assign(Entries.receive(mux(isPut, LayoutBits.get(h, H.ADDRESS).pad(64), lit(0, 64)), pkt, isPut.and(resp),
                lit(CompletionStatus.QP_MAGIC_REFUSED.code(), CompletionStatus.BITS), LayoutBits.get(h, H.SRC_ID), dst, len));

        // a refused header waits only for its event slot; every other refused beat is taken at once
        Bool outReady = mux(toPut, putOut.ready, mux(toNap, napOut.ready, mux(toGet, getOut.ready, FALSE())));
        Bool dropReady = mux(inPkt, TRUE(), needEvent.not().or(event.ready));
        in.ready.assign(mux(drop, dropReady, outReady));

        Bool fire = in.valid.and(in.ready);
        Bool hdrFire = fire.andNot(inPkt);
        hdrHeld.assign(hdr.andNot(fire));
        hdrHeldBadMagic.assign(badMagic);
        // payload beats the header's Length asks for: ceil(len / 16)
        UInt beats = len.add(PacketBeat.DATA_BYTES - 1).shr(4);
        Bool framingNow = wireDefault(Bool(), 0);
        when(fire, () -> {
            inPkt.assign(in.bits.last.not());
            when(inPkt.not(), () -> {
                route.assign(hdrRoute);
                remaining.assign(beats);
                framingBad.assign(FALSE());
            }).otherwise(() -> {
                remaining.assign(remaining.sub(1));
                // last too early (more beats due) or too late (none due): one error per packet, on its last beat
                Bool wrong = framingBad.or(in.bits.last.ne(remaining.eq(1)));
                framingBad.assign(wrong);
                framingNow.assign(in.bits.last.and(wrong).andNot(route.eq(0)));
            });
        });

        putPackets.assign(Counters.count(hdrFire.and(hdrRoute.eq(PktType.PUT.code())), "putCount"));
        napPackets.assign(Counters.count(hdrFire.and(hdrRoute.eq(PktType.NAP.code())), "napCount"));
        getPackets.assign(Counters.count(hdrFire.and(hdrRoute.eq(PktType.GET.code())), "getCount"));
        refusedMagic.assign(Counters.count(hdrFire.and(badMagic), "refusedMagicCount"));
        refusedType.assign(Counters.count(hdrFire.and(badType), "refusedTypeCount"));
        refusedLength.assign(Counters.count(hdrFire.and(badLen), "refusedLengthCount"));
        framingErrors.assign(Counters.count(framingNow, "framingCount"));
        events.assign(Counters.count(eventValid.and(event.ready), "eventCount"));
    }

    private static <T> Map<Integer, T> indexMap(List<T> xs) {
        Map<Integer, T> m = new TreeMap<>();
        for (int i = 0; i < xs.size(); i++) {
            m.put(i, xs.get(i));
        }
        return m;
    }
}
