package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.xud.XudPorts.DmaWrite;
import org.flitkit.rtl.xud.XudPorts.QpCreate;
import org.flitkit.rtl.xud.XudPorts.RecvWqe;
import org.flitkit.rtl.xud.XudPorts.SendWqe;

/**
 * The XUD host channel adapter (paper section 4.1, the FPGA HCA): the {@link XudSendEngine} and the
 * {@link XudRecvEngine} behind one network port and one DMA write port. Data packets and ACKs share the
 * outgoing link round-robin; arriving ACKs go to the send engine, everything else to the receive engine
 * (which NAKs what is not an XUD send). Send CQEs and receive-side writes share the DMA port round-robin.
 */
public final class XudHca extends Module {
    public final Valid<QpCreate> create = input(XudPorts.qpCreate());
    public final Decoupled<SendWqe> sendWqe = input(Decoupled.of(SendWqe::new));
    public final Decoupled<RecvWqe> postRecv = input(Decoupled.of(RecvWqe::new));
    public final Decoupled<UInt> netOut = output(XudPorts.packetStream());
    public final Decoupled<UInt> netIn = input(XudPorts.packetStream());
    public final Decoupled<DmaWrite> dma = output(Decoupled.of(DmaWrite::new));
    public final UInt lid = input(UInt(16));

    public final XudSendEngine send;
    public final XudRecvEngine recv;

    public XudHca(XudParams p) {
        send = instance("send", new XudSendEngine(p));
        recv = instance("recv", new XudRecvEngine(p));
        send.lid.assign(lid);
        recv.lid.assign(lid);
        send.create.connect(create);
        recv.create.connect(create);
        send.wqe.connect(sendWqe);
        recv.postRecv.connect(postRecv);

        RRArbiter<UInt> link = instance("link", new RRArbiter<>(() -> UInt(XudFormat.CONTAINER_BITS), 2));
        link.in.get(0).connect(send.pktOut);
        link.in.get(1).connect(recv.ackOut);
        netOut.connect(link.out);

        Bool isAck = LayoutBits.get(netIn.bits, XudFormat.OPCODE).eq(XudFormat.OP_XUD_ACK);
        send.ackIn.valid.assign(netIn.valid.and(isAck));
        send.ackIn.bits.assign(netIn.bits);
        recv.pktIn.valid.assign(netIn.valid.and(isAck.not()));
        recv.pktIn.bits.assign(netIn.bits);
        netIn.ready.assign(mux(isAck, send.ackIn.ready, recv.pktIn.ready));

        CqWriter sendCq = instance("sendCq", new CqWriter(p.sendCqBase(), p.cqDepth()));
        sendCq.in.connect(send.cqe);
        RRArbiter<DmaWrite> host = instance("host", new RRArbiter<>(DmaWrite::new, 2));
        host.in.get(0).connect(recv.dma);
        host.in.get(1).connect(sendCq.out);
        dma.connect(host.out);
    }

    /** The adapter with {@link XudParams#defaults()}. */
    public XudHca() {
        this(XudParams.defaults());
    }
}
