package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.formats.th2.Th2;

/**
 * nmp_output_fifo: the queue of whole outgoing packets (responses and fault reports from the
 * collector) waiting for nmp_packer. Spec: 20-th2-management.md, "NMA submodules".
 */
public final class NmpOutputFifo extends Module {
    public static final int DEFAULT_DEPTH = 4;

    public final Decoupled<UInt> enq = input(PacketWords.packetStream());
    public final Decoupled<UInt> deq = output(PacketWords.packetStream());
    public final UInt count;

    public NmpOutputFifo() {
        this(DEFAULT_DEPTH);
    }

    public NmpOutputFifo(int depth) {
        Queue<UInt> q = instance("q", new Queue<>(() -> UInt(Th2.PACKET_BITS), depth));
        q.enq.connect(enq);
        deq.connect(q.deq);
        count = output(UInt(q.count.width()));
        count.assign(q.count);
    }
}
