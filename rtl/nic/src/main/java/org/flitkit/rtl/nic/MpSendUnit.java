package org.flitkit.rtl.nic;

import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import java.util.Map;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.DescriptorLayout;
import org.flitkit.formats.th2.DescriptorMapping;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nma.hw.Responses;

/**
 * MP send unit (paper: NIC flow (1)): builds the request packet from a checked descriptor, field by field
 * as {@link DescriptorMapping} says (the one definition shared with the host software), with this NIC as
 * source and the CRC last; with Lint, a SEND_DONE event leaves together with the packet.
 * docs/th2-nic.md; docs/th2-formats.md, "Descriptor to request packet".
 */
public final class MpSendUnit extends Module {
    public final Decoupled<FetchedDesc> in = input(Decoupled.of(FetchedDesc::new));
    public final Decoupled<UInt> out = output(PacketWords.packetStream());
    public final Decoupled<EventReq> events = output(Decoupled.of(EventReq::new));
    /** This NIC's CHIP_ID (SrcID of its requests). */
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));

    public MpSendUnit() {
        DescriptorLayout.Descriptor D = DescriptorLayout.DESCRIPTOR;
        // one register stage: the descriptor, then packet and CRC built from it
        Bool full = regInit(Bool(), 0).named("full");
        UInt desc = reg(UInt(Th2.DESCRIPTOR_BITS)).named("desc");
        UInt vp = reg(UInt(6)).named("vp");
        UInt index = reg(UInt(NicHost.INDEX_BITS)).named("index");
        Queue<EventReq> evq = instance(new Queue<>(EventReq::new, 2));

        Map<Field, Bits> m = Responses.framing();
        for (DescriptorMapping.Entry e : DescriptorMapping.COPIED) {
            m.put(e.packetField(), LayoutBits.get(desc, e.descriptorField()));
        }
        m.put(HEAD.SRC_TYPE, lit(ChipType.NIC.code(), 2));
        m.put(HEAD.SRC_ID, chipId);
        UInt packet = Crc32cHw.withCrc(LayoutBits.build(PacketLayout.PACKET, m));

        Bool lint = LayoutBits.get(desc, D.LINT).eq(1);
        out.valid.assign(full.and(lint.not().or(evq.enq.ready)));
        out.bits.assign(packet);
        evq.enq.valid.assign(full.and(lint).and(out.ready));
        evq.enq.bits.vp.assign(vp);
        evq.enq.bits.type.assign(lit(NicEvent.SEND_DONE.code(), NicEvent.BITS));
        evq.enq.bits.code.assign(lit(0, 8));
        evq.enq.bits.tid.assign(LayoutBits.get(desc, D.TRANSACTION_ID));
        evq.enq.bits.index.assign(index);
        evq.enq.bits.irq.assign(lit(NicHost.IRQ_COMPLETION, 2));
        events.connect(evq.deq);

        in.ready.assign(full.not().or(out.fire()));
        when(out.fire(), () -> full.assign(FALSE()));
        when(in.fire(), () -> {
            full.assign(TRUE());
            desc.assign(in.bits.desc);
            vp.assign(in.bits.vp);
            index.assign(in.bits.index);
        });
    }
}
