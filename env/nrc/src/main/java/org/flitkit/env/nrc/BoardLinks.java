package org.flitkit.env.nrc;


import static org.flitkit.hdl.Hdl.lit;

import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.link.PortStatus;
import org.flitkit.rtl.nrc.RsGeometry;

/**
 * What the link layers of a test board report on each NRC port (neighbour identity and counters), as
 * fixed values the reference model also knows: ports 0..11 lead to NICs 0x0100+p, ports 12..23 to port
 * 23-p of NRCs 0x0200+p; every link is up at 8 lanes. Spec: 20-th2-management.md, topology discovery.
 */
public final class BoardLinks {
    private BoardLinks() {
    }

    public static long neighbour(int p) {
        return p < 12 ? NmaRegisters.identity(ChipType.NIC, 0x0100 + p, 0)
                : NmaRegisters.identity(ChipType.NRC, 0x0200 + p, RsGeometry.TH2.ports() - 1 - p);
    }

    public static long linkStatus(int p) {
        return 8L << 8 | 1;
    }

    public static long retryCount(int p) {
        return 3L * p;
    }

    public static long handshakeCount(int p) {
        return 1 + p % 3;
    }

    public static long bistResult(int p) {
        return 0;
    }

    /** Drives port {@code p}'s link status inputs with these values in hardware (closed benchmark designs). */
    public static void tie(PortStatus s, int p) {
        s.neighbour.assign(lit(neighbour(p), 64));
        s.linkStatus.assign(lit(linkStatus(p), 64));
        s.retryCount.assign(lit(retryCount(p), 64));
        s.handshakeCount.assign(lit(handshakeCount(p), 64));
        s.bistResult.assign(lit(bistResult(p), 64));
        s.zeroExcept(s.neighbour, s.linkStatus, s.retryCount, s.handshakeCount, s.bistResult);
    }

    /** Pokes every port's link status inputs. */
    public static void apply(Simulator sim, Nrc nrc) {
        apply(sim, nrc.link);
    }

    /** Pokes the link status inputs of 24 ports (an NRC's, or a board's that passes them on). */
    public static void apply(Simulator sim, org.flitkit.hdl.Vec<PortStatus> links) {
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            PortStatus s = links.get(p);
            sim.poke(s.neighbour, neighbour(p));
            sim.poke(s.linkStatus, linkStatus(p));
            sim.poke(s.retryCount, retryCount(p));
            sim.poke(s.handshakeCount, handshakeCount(p));
            sim.poke(s.bistResult, bistResult(p));
        }
    }
}
