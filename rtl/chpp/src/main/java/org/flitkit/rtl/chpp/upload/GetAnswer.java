package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.Counters;

import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.receive.ReceiveDispatch;
import org.flitkit.rtl.chpp.send.DescriptorBeat;
import org.flitkit.rtl.chpp.send.DescriptorExtract;
import org.flitkit.rtl.chpp.send.DescriptorRead;
import org.flitkit.rtl.chpp.send.Doorbell;
import static org.flitkit.hdl.Hdl.*;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.DescriptorLayouts;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;

/**
 * The receive engine's GET path (paper section 4.2: the descriptor of a GET packet goes to the send engine's
 * descriptor extract; section 3.4.3: the receiver rebuilds the GET as its own PUT): each accepted GET packet
 * (header + the 32-byte GET descriptor in wire order) becomes the PUT descriptor formats/chpp
 * {@code Packets.answerGet} defines, as two {@link DescriptorBeat}s (function and QP from the packet's DST_ID,
 * status OK, length 32) for {@link DescriptorExtract}. A payload {@code answerGet} refuses, or a packet that is
 * not one GET header and two payload beats, is dropped and counted. docs/chpp-upload.md, "GetAnswer".
 */
public final class GetAnswer extends Module {
    private static final HeaderLayout.Header H = HeaderLayout.HEADER;
    private static final DescriptorLayouts.Transfer G = DescriptorLayouts.GET;
    private static final DescriptorLayouts.Transfer P = DescriptorLayouts.PUT;

    /** Accepted GET packets ({@link ReceiveDispatch#getOut}). */
    public final Decoupled<PacketBeat> in;
    /** The PUT descriptors, toward descriptor extract (muxed with {@link DescriptorRead#out} by the integrator). */
    public final Decoupled<DescriptorBeat> out;
    /** Saturating counters: GETs turned into PUT descriptors. */
    public final UInt answered;
    /** GET payloads {@code answerGet} refuses (kind, reserved bits, zero length, 48-bit range, DST_ID or key unlike the header's). */
    public final UInt refused;
    /** Packets that are not a GET header (PKTType GET, Length 32) followed by exactly two payload beats. */
    public final UInt malformed;

    public GetAnswer() {
        in = input(Decoupled.of(PacketBeat::new));
        out = output(Decoupled.of(DescriptorBeat::new));
        answered = output(UInt(Counters.BITS));
        refused = output(UInt(Counters.BITS));
        malformed = output(UInt(Counters.BITS));

        // beats of the packet: 0 header, 1 and 2 the descriptor; 3 = draining a packet that is too long
        UInt beatIndex = regInit(UInt(2), 0).named("beatIndex");
        UInt header = regInit(UInt(Chpp.HEADER_BITS), 0).named("header");
        UInt desc0 = regInit(UInt(128), 0).named("desc0"); // descriptor bits 127:0 (PCIe byte order)
        UInt desc1 = regInit(UInt(128), 0).named("desc1"); // bits 255:128
        Bool full = regInit(Bool(), 0).named("full"); // a whole packet held, being judged or sent
        UInt outBeat = regInit(UInt(1), 0).named("outBeat");

        in.ready.assign(full.not());
        Bool fire = in.fire();
        Bool last = in.bits.last;
        UInt swapped = LayoutBits.byteReverse(in.bits.data);
        Bool bad = wireDefault(Bool(), 0);
        Bool got = wireDefault(Bool(), 0);
        when(fire, () -> {
            when(beatIndex.eq(0), () -> {
                header.assign(in.bits.data);
                when(last, () -> bad.assign(TRUE())).otherwise(() -> beatIndex.assign(1));
            }).elsewhen(beatIndex.eq(1), () -> {
                desc0.assign(swapped);
                when(last, () -> {
                    bad.assign(TRUE());
                    beatIndex.assign(0);
                }).otherwise(() -> beatIndex.assign(2));
            }).elsewhen(beatIndex.eq(2), () -> {
                desc1.assign(swapped);
                when(last, () -> {
                    got.assign(TRUE());
                    beatIndex.assign(0);
                }).otherwise(() -> {
                    bad.assign(TRUE());
                    beatIndex.assign(3);
                });
            }).otherwise(() -> when(last, () -> beatIndex.assign(0)));
        });

        // judging the held packet: the header must be a GET of 32 bytes; then answerGet's rules on the payload
        Bool hdrOk = LayoutBits.get(header, H.PKT_TYPE).eq(PktType.GET.code()).and(LayoutBits.get(header, H.LENGTH).eq(32));
        UInt kind = DescriptorExtract.field(desc0, G.KIND, 0);
        UInt length = DescriptorExtract.field(desc0, G.LENGTH, 0);
        UInt dstAddr = DescriptorExtract.field(desc1, G.DST_ADDR, 1);
        Bool payloadOk = kind.eq(DescKind.GET.code())
                .andNot(DescriptorExtract.reservedSet(desc0, G, 0)).andNot(DescriptorExtract.reservedSet(desc1, G, 1))
                .and(length.ne(0))
                .andNot(DescriptorExtract.remoteTooWide(dstAddr, length))
                .and(DescriptorExtract.field(desc0, G.DST_ID, 0).eq(LayoutBits.get(header, H.DST_ID)))
                .and(DescriptorExtract.field(desc0, G.QP_MAGIC, 0).eq(LayoutBits.get(header, H.QP_MAGIC)));
        Bool accept = hdrOk.and(payloadOk);
        when(got, () -> full.assign(TRUE()));
        // a refused packet leaves at once; an accepted one when its second beat is taken
        Bool outLast = outBeat.eq(1);
        Bool outFire = out.fire();
        when(full.andNot(accept), () -> full.assign(FALSE()));
        when(outFire, () -> {
            outBeat.assign(mux(outLast, lit(0, 1), lit(1, 1)));
            when(outLast, () -> full.assign(FALSE()));
        });

        // the PUT: from this QP (the GET's DST_ID) back to the GET's sender, same key, Length, addresses, RCE, Cookie; no SCE
        UInt dst = LayoutBits.get(header, H.DST_ID);
        UInt qp = dst.bits(EndpointId.LAYOUT.QP.msb(), EndpointId.LAYOUT.QP.lsb());
        UInt function = dst.bits(EndpointId.LAYOUT.FUNCTION.msb(), EndpointId.LAYOUT.FUNCTION.lsb());
        UInt put0 = LayoutBits.pack(128, List.of(
                new LayoutBits.Slot(P.KIND, lit(DescKind.PUT.code(), P.KIND.width())),
                new LayoutBits.Slot(P.QP, qp),
                new LayoutBits.Slot(P.SCE, lit(0, 1)),
                new LayoutBits.Slot(P.RCE, DescriptorExtract.field(desc0, G.RCE, 0)),
                new LayoutBits.Slot(P.DST_ID, LayoutBits.get(header, H.SRC_ID)),
                new LayoutBits.Slot(P.QP_MAGIC, LayoutBits.get(header, H.QP_MAGIC)),
                new LayoutBits.Slot(P.COOKIE, DescriptorExtract.field(desc0, G.COOKIE, 0)),
                new LayoutBits.Slot(P.LENGTH, length)));
        if (P.SRC_ADDR.lsb() != G.SRC_ADDR.lsb() || P.DST_ADDR.lsb() != G.DST_ADDR.lsb() || P.SRC_ADDR.lsb() != 128) {
            throw new IllegalStateException("GET and PUT descriptors must keep SrcAddr and DstAddr in bits 255:128");
        }
        out.valid.assign(full.and(accept));
        out.bits.function.assign(function.pad(Doorbell.FUNCTION_BITS));
        out.bits.qp.assign(qp);
        out.bits.length.assign(lit(org.flitkit.formats.chpp.Descriptor.PUT_BYTES, Doorbell.LENGTH_BITS));
        out.bits.status.assign(lit(CompletionStatus.OK.code(), 8));
        out.bits.data.assign(mux(outLast, desc1, put0));
        out.bits.last.assign(outLast);
        out.bits.resp.assign(TRUE());

        answered.assign(Counters.count(outFire.and(outLast), "answeredCount"));
        refused.assign(Counters.count(full.and(hdrOk).andNot(payloadOk), "refusedCount"));
        malformed.assign(Counters.count(bad.or(full.andNot(hdrOk)), "malformedCount"));
    }
}
