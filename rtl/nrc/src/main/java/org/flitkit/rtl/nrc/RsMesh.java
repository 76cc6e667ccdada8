package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.Th2;

/**
 * The relay stations, one per port, in rows (the TH-2 NRC: 4 rows of 6) with their port ingress steering: port p
 * is RS column p % cols of row p / cols; the last column of each row connects to the NMA, so on the TH-2 NRC a
 * port is 1 (column 5) to 6 (column 0) relay stations away from it ({@link RsGeometry}). Spec: 20-th2-management.md, "Where management packets go"; docs/th2-nrc.md.
 */
public final class RsMesh extends Module {
    public final RsGeometry geometry;
    /** flits entering each port from its link layer */
    public final Vec<Decoupled<UInt>> portIn;
    /** flits leaving each port: the management packets the NMA sends out of it */
    public final Vec<Decoupled<UInt>> portOut;
    /** packets entering each port that are for another chip, to the switch core */
    public final Vec<Decoupled<UInt>> toSwitch;
    /** the last RS of each row, toward the NMA (nmp_unpacker) */
    public final Vec<Decoupled<RsBeat>> toNma;
    /** from the NMA (nmp_packer) into the last RS of each row */
    public final Vec<Decoupled<RsBeat>> fromNma;

    /** The TH-2 NRC's plane. */
    public RsMesh() {
        this(RsGeometry.TH2);
    }

    public RsMesh(RsGeometry geometry) {
        this.geometry = geometry;
        int n = geometry.ports();
        portIn = input(Vec(n, RsMesh::flits));
        portOut = output(Vec(n, RsMesh::flits));
        toSwitch = output(Vec(n, RsMesh::flits));
        toNma = output(Vec(geometry.rows(), () -> Decoupled.of(RsBeat::new)));
        fromNma = input(Vec(geometry.rows(), () -> Decoupled.of(RsBeat::new)));
        RelayStation[] rs = new RelayStation[n];
        for (int p = 0; p < n; p++) {
            PortIngress ing = instance("ingress" + p, new PortIngress());
            ing.in.connect(portIn.get(p));
            toSwitch.get(p).connect(ing.toSwitch);
            rs[p] = instance("rs" + p, new RelayStation(geometry, p));
            rs[p].fromSwitch.connect(ing.toRs);
            portOut.get(p).connect(rs[p].toPort);
        }
        for (int r = 0; r < geometry.rows(); r++) {
            RelayStation first = rs[geometry.port(r, 0)];
            first.fromLeft.noenq();
            first.toLeft.ready.assign(TRUE()); // nmp_packer never sends a port beyond its row's first RS
            for (int c = 1; c < geometry.cols(); c++) {
                RelayStation left = rs[geometry.port(r, c - 1)];
                RelayStation right = rs[geometry.port(r, c)];
                right.fromLeft.connect(left.towardNma);
                left.fromRight.connect(right.toLeft);
            }
            RelayStation last = rs[geometry.port(r, geometry.lastCol())];
            toNma.get(r).connect(last.towardNma);
            last.fromRight.connect(fromNma.get(r));
        }
    }

    static Decoupled<UInt> flits() {
        return Decoupled.of(UInt(Th2.FLIT_BITS));
    }
}
