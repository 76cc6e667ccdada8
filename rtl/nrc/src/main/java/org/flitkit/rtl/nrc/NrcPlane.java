package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;

/**
 * The NRC management plane between the ports (24 on the TH-2 NRC) and the NMA core: the relay-station mesh, nmp_unpacker
 * (rows to whole packets), nmp_output_fifo and nmp_packer (whole packets to the row of their output
 * port). Spec: 20-th2-management.md, "Where management packets go" and "NMA submodules".
 */
public final class NrcPlane extends Module {
    public final RsGeometry geometry;
    public final Vec<Decoupled<UInt>> portIn;
    public final Vec<Decoupled<UInt>> portOut;
    public final Vec<Decoupled<UInt>> toSwitch;
    /** whole packets that arrived for this chip, to the NMA core */
    public final Decoupled<UInt> toNma;
    /** responses and fault reports from the NMA core (nmp_collector) */
    public final Decoupled<UInt> fromNma;
    /** packets nmp_packer dropped for want of a usable hop */
    public final UInt routeDrops;

    public final RsMesh mesh;
    public final NmpUnpacker unpacker;
    public final NmpOutputFifo outputFifo;
    public final NmpPacker packer;

    /** The TH-2 NRC's plane. */
    public NrcPlane() {
        this(RsGeometry.TH2);
    }

    public NrcPlane(RsGeometry geometry) {
        this.geometry = geometry;
        int n = geometry.ports();
        portIn = input(Vec(n, RsMesh::flits));
        portOut = output(Vec(n, RsMesh::flits));
        toSwitch = output(Vec(n, RsMesh::flits));
        toNma = output(PacketWords.packetStream());
        fromNma = input(PacketWords.packetStream());
        routeDrops = output(UInt(32));
        mesh = instance(new RsMesh(geometry));
        unpacker = instance(new NmpUnpacker(geometry.rows()));
        outputFifo = instance(new NmpOutputFifo());
        packer = instance(new NmpPacker(geometry));
        for (int p = 0; p < n; p++) {
            mesh.portIn.get(p).connect(portIn.get(p));
            portOut.get(p).connect(mesh.portOut.get(p));
            toSwitch.get(p).connect(mesh.toSwitch.get(p));
        }
        for (int r = 0; r < geometry.rows(); r++) {
            unpacker.rows.get(r).connect(mesh.toNma.get(r));
            mesh.fromNma.get(r).connect(packer.rows.get(r));
        }
        toNma.connect(unpacker.out);
        outputFifo.enq.connect(fromNma);
        packer.in.connect(outputFifo.deq);
        routeDrops.assign(packer.routeDrops);
    }
}
