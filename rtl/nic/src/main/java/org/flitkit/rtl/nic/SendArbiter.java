package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.WidthSerializer;
import org.flitkit.formats.th2.Th2;

/**
 * Send arbitration and packet-to-flit conversion (paper: NIC flows (1) and (3)): the MP send unit's
 * requests and the NIC-NMA's responses and fault reports (through the management response send FIFO)
 * take turns by whole packets, round robin, and leave as 4 flits, head first, toward the link layer.
 * docs/th2-nic.md, "Blocks".
 */
public final class SendArbiter extends Module {
    /** Request packets from the MP send unit. */
    public final Decoupled<UInt> req = input(PacketWords.packetStream());
    /** NIC-NMA responses and fault reports. */
    public final Decoupled<UInt> rsp = input(PacketWords.packetStream());
    public final Decoupled<UInt> linkOut = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** One-cycle pulses: a request / a response or report went to the serializer (for counters). */
    public final Bool reqSent = output(Bool());
    public final Bool rspSent = output(Bool());

    /** @param rspFifo depth of the management response send FIFO, in packets */
    public SendArbiter(int rspFifo) {
        Queue<UInt> fifo = instance(new Queue<>(() -> UInt(Th2.PACKET_BITS), rspFifo));
        fifo.enq.connect(rsp);
        RRArbiter<UInt> arb = instance(new RRArbiter<>(() -> UInt(Th2.PACKET_BITS), 2));
        arb.in.get(0).connect(req);
        arb.in.get(1).connect(fifo.deq);
        WidthSerializer ser = instance(new WidthSerializer(Th2.PACKET_BITS, Th2.FLIT_BITS));
        ser.in.connect(arb.out);
        linkOut.connect(ser.out);
        reqSent.assign(arb.out.fire().and(arb.chosen.eq(0)));
        rspSent.assign(arb.out.fire().and(arb.chosen.eq(1)));
    }
}
