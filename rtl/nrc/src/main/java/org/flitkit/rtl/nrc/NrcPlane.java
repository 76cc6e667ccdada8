package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;

/**
 * The NRC management plane between the 24 ports and the NMA core: the relay-station mesh, nmp_unpacker
 * (rows to whole packets), nmp_output_fifo and nmp_packer (whole packets to the row of their output
 * port). Spec: 20-th2-management.md, "Where management packets go" and "NMA submodules".
 */
public final class NrcPlane extends Module {
    public final Vec<Decoupled<UInt>> portIn = input(Vec(RsGeometry.PORTS, RsMesh::flits));
    public final Vec<Decoupled<UInt>> portOut = output(Vec(RsGeometry.PORTS, RsMesh::flits));
    public final Vec<Decoupled<UInt>> toSwitch = output(Vec(RsGeometry.PORTS, RsMesh::flits));
    /** whole packets that arrived for this chip, to the NMA core */
    public final Decoupled<UInt> toNma = output(PacketWords.packetStream());
    /** responses and fault reports from the NMA core (nmp_collector) */
    public final Decoupled<UInt> fromNma = input(PacketWords.packetStream());
    /** packets nmp_packer dropped for want of a usable hop */
    public final UInt routeDrops = output(UInt(32));

    public final RsMesh mesh = instance(new RsMesh());
    public final NmpUnpacker unpacker = instance(new NmpUnpacker());
    public final NmpOutputFifo outputFifo = instance(new NmpOutputFifo());
    public final NmpPacker packer = instance(new NmpPacker());

    public NrcPlane() {
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            mesh.portIn.get(p).connect(portIn.get(p));
            portOut.get(p).connect(mesh.portOut.get(p));
            toSwitch.get(p).connect(mesh.toSwitch.get(p));
        }
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            unpacker.rows.get(r).connect(mesh.toNma.get(r));
            mesh.fromNma.get(r).connect(packer.rows.get(r));
        }
        toNma.connect(unpacker.out);
        outputFifo.enq.connect(fromNma);
        packer.in.connect(outputFifo.deq);
        routeDrops.assign(packer.routeDrops);
    }
}
