package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.Th2;

/**
 * The 24 relay stations in 4 rows of 6 with their port ingress steering: port p is RS column p % 6 of
 * row p / 6; column 5 of each row connects to the NMA, so a port is 1 (column 5) to 6 (column 0) relay
 * stations away from it. Spec: 20-th2-management.md, "Where management packets go"; docs/th2-nrc.md.
 */
public final class RsMesh extends Module {
    /** flits entering each port from its link layer */
    public final Vec<Decoupled<UInt>> portIn = input(Vec(RsGeometry.PORTS, RsMesh::flits));
    /** flits leaving each port: the management packets the NMA sends out of it */
    public final Vec<Decoupled<UInt>> portOut = output(Vec(RsGeometry.PORTS, RsMesh::flits));
    /** packets entering each port that are for another chip, to the switch core */
    public final Vec<Decoupled<UInt>> toSwitch = output(Vec(RsGeometry.PORTS, RsMesh::flits));
    /** the last RS of each row, toward the NMA (nmp_unpacker) */
    public final Vec<Decoupled<RsBeat>> toNma = output(Vec(RsGeometry.ROWS, () -> Decoupled.of(RsBeat::new)));
    /** from the NMA (nmp_packer) into the last RS of each row */
    public final Vec<Decoupled<RsBeat>> fromNma = input(Vec(RsGeometry.ROWS, () -> Decoupled.of(RsBeat::new)));

    public RsMesh() {
        RelayStation[] rs = new RelayStation[RsGeometry.PORTS];
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            PortIngress ing = instance("ingress" + p, new PortIngress());
            ing.in.connect(portIn.get(p));
            toSwitch.get(p).connect(ing.toSwitch);
            rs[p] = instance("rs" + p, new RelayStation(p));
            rs[p].fromSwitch.connect(ing.toRs);
            portOut.get(p).connect(rs[p].toPort);
        }
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            RelayStation first = rs[RsGeometry.port(r, 0)];
            first.fromLeft.noenq();
            first.toLeft.ready.assign(TRUE()); // nmp_packer never sends a port beyond its row's first RS
            for (int c = 1; c < RsGeometry.COLS; c++) {
                RelayStation left = rs[RsGeometry.port(r, c - 1)];
                RelayStation right = rs[RsGeometry.port(r, c)];
                right.fromLeft.connect(left.towardNma);
                left.fromRight.connect(right.toLeft);
            }
            RelayStation last = rs[RsGeometry.port(r, RsGeometry.LAST_COL)];
            toNma.get(r).connect(last.towardNma);
            last.fromRight.connect(fromNma.get(r));
        }
    }

    static Decoupled<UInt> flits() {
        return Decoupled.of(UInt(Th2.FLIT_BITS));
    }
}
