package org.flitkit.env.nrc.chip;

import static org.flitkit.hdl.Hdl.*;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.flitkit.fabric.Cable;
import org.flitkit.fabric.CableOptions;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.link.BufferShape;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.link.LinkPort;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.NrcChip;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * A test board: one whole NRC with a cable on each of its ports (24 on the TH-2 NRC) to a testbench-side link port (the far chip's
 * link layer and receive buffer), so tests send and take whole packets as flit streams while the NRC sees real
 * link traffic: frames, CRC, retries, training, identity exchange. The far ends identify themselves as the
 * neighbours {@link PeerIdentity} names. docs/th2-nrc-switch.md, "Chip-level tests".
 */
public final class NrcPeerBoard extends Module {
    /** packets into / out of the far end of each port's cable */
    public final Vec<Decoupled<UInt>> portIn;
    public final Vec<Decoupled<UInt>> portOut;
    /** bit errors XORed into the frame entering each cable toward the NRC / away from it this cycle */
    public final Vec<UInt> errorIn;
    public final Vec<UInt> errorOut;
    /** cut the cable toward the NRC / away from it */
    public final Vec<Bool> cutIn;
    public final Vec<Bool> cutOut;
    /** dead lanes of each port's cable, both directions (the link trains to a narrower width) */
    public final Vec<UInt> lanesDown;
    public final UInt faults;
    /** the NRC's die temperature, degrees C (its sensor) */
    public final UInt temperature;

    public final NrcChip nrc;
    public final Cable[] cables;
    public final LinkPort[] peers;
    public final int cableLatency;

    /**
     * @param eep          the NRC's E2PROM timing
     * @param eepromImage  the NRC's E2PROM (null: erased)
     * @param sp           the NRC's switch core
     * @param lp           every link layer (the NRC's and the peers')
     * @param cableLatency cycles a frame takes over each cable, each way
     */
    public NrcPeerBoard(EepParams eep, byte[] eepromImage, SwitchParams sp, LinkParams lp, int cableLatency) {
        this.cableLatency = cableLatency;
        int n = sp.ports();
        faults = input(UInt(NrcRegisters.faultSources(n).size()));
        temperature = input(UInt(8));
        portIn = input(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        portOut = output(Vec(n, () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
        int w = org.flitkit.formats.th2.LinkFrame.BITS;
        errorIn = input(Vec(n, () -> UInt(w)));
        errorOut = input(Vec(n, () -> UInt(w)));
        cutIn = input(Vec(n, () -> Bool()));
        cutOut = input(Vec(n, () -> Bool()));
        lanesDown = input(Vec(n, () -> UInt(LinkFrame.LANES)));
        nrc = instance(new NrcChip(eep, eepromImage, sp, lp));
        nrc.faults.assign(faults);
        nrc.temperature.assign(temperature);
        BufferShape nrcBuffer = new BufferShape(sp.vcs(), sp.reservedFlits(), sp.sharedFlits());
        cables = new Cable[n];
        peers = new LinkPort[n];
        for (int p = 0; p < n; p++) {
            LinkPort peer = peers[p] = instance("peer" + p, new LinkPort(nrcBuffer, nrcBuffer, lp));
            Cable c = cables[p] = instance("cable" + p, new Cable(CableOptions.lanes(LinkFrame.BITS, LinkFrame.LANES, cableLatency)));
            PeerIdentity id = PeerIdentity.of(p);
            peer.chipType.assign(lit(id.type().code(), 2));
            peer.chipId.assign(lit(id.chipId(), Th2.CHIP_ID_BITS));
            peer.port.assign(lit(id.port(), 5));
            peer.bist.start.assign(FALSE());
            peer.bist.stop.assign(FALSE());
            peer.bist.duration.assign(lit(0, 32));
            peer.bist.interval.assign(lit(0, 8));
            peer.in.connect(portIn.get(p));
            portOut.get(p).connect(peer.out);
            // A = the peer, B = the NRC
            c.aTx.assign(peer.wireOut);
            peer.wireIn.assign(c.aRx);
            c.bTx.assign(nrc.wireOut.get(p));
            nrc.wireIn.get(p).assign(c.bRx);
            c.errorAB.assign(errorIn.get(p));
            c.errorBA.assign(errorOut.get(p));
            c.cutAB.assign(cutIn.get(p));
            c.cutBA.assign(cutOut.get(p));
            c.lanesDownAB.assign(lanesDown.get(p));
            c.lanesDownBA.assign(lanesDown.get(p));
        }
    }

    /** Who sits at the far end of port p: ports 0..11 NICs 0x0100+p (port 0), 12..23 NRCs 0x0200+p (port 23-p). */
    public record PeerIdentity(ChipType type, int chipId, int port) {
        public static PeerIdentity of(int p) {
            return p < 12 ? new PeerIdentity(ChipType.NIC, 0x0100 + p, 0) : new PeerIdentity(ChipType.NRC, 0x0200 + p, 23 - p);
        }
    }

    private static final Map<Integer, Simulator> COMPILED = new ConcurrentHashMap<>();

    /**
     * A testbench on a fresh instance of the board with the TH-2 core and link layers, fast E2PROM timing and
     * {@link NrcChipTrafficScenario#eeprom()} (CHIP_ID and the traffic's tables), compiled once per cable latency in this JVM
     * (the board takes tens of seconds to compile; the chip-level tests share it).
     */
    public static Testbench<NrcPeerBoard> testbench(int cableLatency, RunConfig cfg) {
        long t0 = System.nanoTime();
        boolean[] built = {false};
        Simulator s = COMPILED.computeIfAbsent(cableLatency, k -> {
            built[0] = true;
            return Simulator.of(() -> new NrcPeerBoard(EepParams.FAST, NrcChipTrafficScenario.eeprom(), SwitchParams.TH2,
                    LinkParams.defaults(), k));
        });
        return Testbench.create(s.newInstance(), cfg, built[0] ? (System.nanoTime() - t0) / 1e9 : 0);
    }
}
