package org.flitkit.env.xud;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.xud.XudHca;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.rtl.xud.XudPorts;
import org.flitkit.rtl.xud.XudPorts.DmaWrite;
import org.flitkit.rtl.xud.XudPorts.QpCreate;
import org.flitkit.rtl.xud.XudPorts.RecvWqe;
import org.flitkit.rtl.xud.XudPorts.SendWqe;

/**
 * The test harness: {@code n} XUD adapters in one design, every adapter's ports brought out so the
 * testbench can put its host (driver, window layer) on the host side and the lossy network between the
 * network ports. Adapter i has LID {@code i + 1}.
 */
public final class XudBoard extends Module {
    public final Vec<Valid<QpCreate>> create;
    public final Vec<Decoupled<SendWqe>> sendWqe;
    public final Vec<Decoupled<RecvWqe>> postRecv;
    public final Vec<Decoupled<UInt>> netOut;
    public final Vec<Decoupled<UInt>> netIn;
    public final Vec<Decoupled<DmaWrite>> dma;
    public final XudParams params;
    private final List<XudHca> hcas = new ArrayList<>();

    public XudBoard(int n, XudParams p) {
        if (n < 1 || n > 64) {
            throw new IllegalArgumentException("a cluster has 1..64 adapters, got " + n);
        }
        this.params = p;
        create = input(Vec(n, XudPorts::qpCreate));
        sendWqe = input(Vec(n, () -> Decoupled.of(SendWqe::new)));
        postRecv = input(Vec(n, () -> Decoupled.of(RecvWqe::new)));
        netOut = output(Vec(n, XudPorts::packetStream));
        netIn = input(Vec(n, XudPorts::packetStream));
        dma = output(Vec(n, () -> Decoupled.of(DmaWrite::new)));
        for (int i = 0; i < n; i++) {
            XudHca h = instance("hca" + i, new XudHca(p));
            h.lid.assign(lit(lidOf(i), 16));
            h.create.connect(create.get(i));
            h.sendWqe.connect(sendWqe.get(i));
            h.postRecv.connect(postRecv.get(i));
            netOut.get(i).connect(h.netOut);
            h.netIn.connect(netIn.get(i));
            dma.get(i).connect(h.dma);
            hcas.add(h);
        }
    }

    public static int lidOf(int endpoint) {
        return endpoint + 1;
    }

    public int size() {
        return hcas.size();
    }

    public List<XudHca> hcas() {
        return Collections.unmodifiableList(hcas);
    }
}
