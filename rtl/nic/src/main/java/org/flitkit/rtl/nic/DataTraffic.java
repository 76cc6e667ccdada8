package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;

/**
 * The node's data traffic, standing in for the NIC's data path (which the management paper does not describe): with
 * {@code enable}, AlltoAll, packet k to node (self + k) mod {@code nodes} for k = 1 .. nodes - 1, then round again,
 * table-routed on VC0, {@code flits} flits each, a packet started at most every {@code interval} cycles; data packets
 * that arrive are taken at once and counted. Spec: 20-th2-management.md, "Evaluation" (discovery under AlltoAll
 * traffic); docs/th2-nic.md, "Data traffic".
 */
public final class DataTraffic extends Module {
    public final Bool enable = input(Bool());
    /** nodes of the machine (NIC CHIP_IDs 0 .. nodes - 1) */
    public final UInt nodes = input(UInt(Th2.CHIP_ID_BITS));
    /** cycles from one packet's start to the next's, at least (the offered load is flits / interval per cycle) */
    public final UInt interval = input(UInt(16));
    /** this NIC's CHIP_ID */
    public final UInt self = input(UInt(Th2.CHIP_ID_BITS));
    /** packets to send, flit by flit */
    public final Decoupled<UInt> out = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** data packets received, flit by flit */
    public final Decoupled<UInt> in = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** packets sent and received */
    public final UInt sent = output(UInt(32));
    public final UInt received = output(UInt(32));

    /** @param flits the packets' length, 1 .. {@link DataLayouts#MAX_FLITS} */
    public DataTraffic(int flits) {
        if (flits < 1 || flits > DataLayouts.MAX_FLITS) {
            throw new IllegalArgumentException("data packets are 1.." + DataLayouts.MAX_FLITS + " flits, got " + flits);
        }
        int w = Th2.CHIP_ID_BITS;
        UInt k = regInit(UInt(w), 1).named("k");
        UInt timer = regInit(UInt(16), 0).named("timer");
        Bool busy = regInit(Bool(), 0).named("busy");
        Bool first = regInit(Bool(), 0).named("first");
        UInt left = regInit(UInt(4), 0).named("left");
        UInt sentCount = regInit(UInt(32), 0).named("sentCount");
        UInt receivedCount = regInit(UInt(32), 0).named("receivedCount");

        UInt sum = self.pad(w + 1).add(k.pad(w + 1)).trunc(w + 1);
        UInt dest = mux(sum.ge(nodes.pad(w + 1)), sum.sub(nodes.pad(w + 1)), sum).trunc(w).named("dest");
        Bool start = enable.and(busy.not()).and(timer.eq(0)).and(nodes.gt(1)).named("start");

        UInt head = lit(0, Th2.FLIT_BITS);
        head = LayoutBits.with(head, DataLayouts.HEAD.KIND, flits == 1 ? 3 : 2);
        head = LayoutBits.with(head, DataLayouts.HEAD.VC, 0);
        head = LayoutBits.with(head, DataLayouts.HEAD.LEN, flits);
        head = LayoutBits.with(head, DataLayouts.HEAD.RT_TYPE, Th2.RT_TABLE);
        head = LayoutBits.with(head, DataLayouts.HEAD.DEST_ID, dest);
        head = LayoutBits.with(head, DataLayouts.HEAD.SRC_ID, self);
        head = LayoutBits.with(head, DataLayouts.HEAD.PACKET_ID, sentCount.pad(36));
        UInt body = LayoutBits.with(lit(0, Th2.FLIT_BITS), DataLayouts.BODY.PAYLOAD, cat(self, sentCount, left.pad(4)).pad(196));
        body = LayoutBits.with(body, DataLayouts.BODY.KIND, mux(left.eq(1), lit(1, 2), lit(0, 2)));

        out.valid.assign(busy);
        out.bits.assign(mux(first, head, body));
        when(timer.ne(0), () -> timer.assign(timer.sub(1)));
        when(start, () -> {
            busy.assign(TRUE());
            first.assign(TRUE());
            left.assign(flits);
            timer.assign(mux(interval.eq(0), lit(0, 16), interval.sub(1)));
        });
        when(out.fire(), () -> {
            first.assign(FALSE());
            left.assign(left.sub(1));
            when(left.eq(1), () -> {
                busy.assign(FALSE());
                sentCount.assign(sentCount.add(1));
                k.assign(mux(k.pad(w + 1).add(1).ge(nodes.pad(w + 1)), lit(1, w), k.add(1).trunc(w)));
            });
        });

        in.ready.assign(TRUE());
        Bool headIn = LayoutBits.get(in.bits, DataLayouts.HEAD.KIND).bit(1);
        when(in.fire().and(headIn), () -> receivedCount.assign(receivedCount.add(1)));
        sent.assign(sentCount);
        received.assign(receivedCount);
    }
}
