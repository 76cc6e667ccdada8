package org.flitkit.env.nic.fabric;

import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import org.flitkit.fabric.Cable;
import org.flitkit.fabric.CableOptions;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.BufferShape;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.nic.NicChip;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.NrcChip;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.env.nrc.chip.FabricSpec;

/**
 * The management server's NIC (its network port: a link layer and receive buffer) cabled to a small fabric of
 * whole NRCs ({@link FabricSpec}), every cable with the same latency; NRC ports without a cable stay down.
 * Spec: 20-th2-management.md, "The system"; docs/th2-nrc-switch.md, "Fabrics".
 */
public final class NicFabricBoard extends Module {
    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    public final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    public final Valid<UInt> irq = output(Valid.of(UInt(8)));
    public final Bool booting = output(Bool());
    /** fault inputs of chip 0 other than link down (NrcRegisters.faultSources order) */
    public final UInt nrcFaults = input(UInt(NrcRegisters.faultSources().size()));

    /** cut fabric cable k (both directions), in {@link FabricSpec#cables()} order */
    public final Vec<Bool> cut;
    /** dead lanes of fabric cable k, both directions (the link trains to a narrower width) */
    public final Vec<UInt> lanesDown;

    public final FabricSpec spec;
    /** the server's NIC */
    public final NicChip nicChip;
    public final NrcChip[] nrcs;
    public final Cable[] cables;

    /**
     * @param eep          E2PROM timing of every chip
     * @param nicEeprom    the NIC's E2PROM (its CHIP_ID)
     * @param nrcEeproms   each NRC's E2PROM, in chip order (null entries: erased)
     * @param cableLatency cycles a frame takes over any cable
     */
    public NicFabricBoard(FabricSpec spec, EepParams eep, byte[] nicEeprom, List<byte[]> nrcEeproms, int cableLatency) {
        if (nrcEeproms.size() != spec.chips()) {
            throw new IllegalArgumentException(spec.chips() + " NRCs need " + spec.chips() + " E2PROM images, got " + nrcEeproms.size());
        }
        this.spec = spec;
        cut = input(Vec(spec.cables().size(), () -> Bool()));
        lanesDown = input(Vec(spec.cables().size(), () -> UInt(LinkFrame.LANES)));
        SwitchParams sp = SwitchParams.TH2;
        LinkParams lp = LinkParams.defaults();
        BufferShape buffer = new BufferShape(sp.vcs(), sp.reservedFlits(), sp.sharedFlits());
        nicChip = instance(new NicChip(eep, nicEeprom, buffer, lp));
        nrcs = new NrcChip[spec.chips()];
        for (int i = 0; i < spec.chips(); i++) {
            nrcs[i] = instance("nrc" + i, new NrcChip(eep, nrcEeproms.get(i), sp, lp));
            nrcs[i].faults.assign(i == 0 ? nrcFaults : lit(0, NrcRegisters.faultSources().size()));
            nrcs[i].temperature.assign(lit(Th2Machine.TEMPERATURE, 8));
        }
        // the server's node sends no data
        nicChip.temperature.assign(lit(Th2Machine.TEMPERATURE, 8));
        nicChip.trafficEnable.assign(FALSE());
        nicChip.trafficNodes.assign(lit(0, Th2.CHIP_ID_BITS));
        nicChip.trafficInterval.assign(lit(0, 16));
        nicChip.mmio.connect(mmio);
        dmaRq.connect(nicChip.dmaRq);
        nicChip.dmaCpl.connect(dmaCpl);
        irq.connect(nicChip.irq);

        boolean[][] cabled = new boolean[spec.chips()][sp.ports()];
        cables = new Cable[spec.cables().size() + 1];
        Cable server = cables[0] = instance("cableServer", new Cable(CableOptions.lanes(LinkFrame.BITS, LinkFrame.LANES, cableLatency)));
        plug(server, nicChip.wireOut, nicChip.wireIn, nrcs[0], spec.serverPort(), FALSE(), lit(0, LinkFrame.LANES));
        cabled[0][spec.serverPort()] = true;
        for (int k = 0; k < spec.cables().size(); k++) {
            FabricSpec.Cable c = spec.cables().get(k);
            Cable cable = cables[k + 1] = instance("cable" + k, new Cable(CableOptions.lanes(LinkFrame.BITS, LinkFrame.LANES, cableLatency)));
            plug(cable, nrcs[c.a()].wireOut.get(c.portA()), nrcs[c.a()].wireIn.get(c.portA()), nrcs[c.b()], c.portB(), cut.get(k), lanesDown.get(k));
            cabled[c.a()][c.portA()] = true;
            cabled[c.b()][c.portB()] = true;
        }
        for (int i = 0; i < spec.chips(); i++) {
            for (int p = 0; p < sp.ports(); p++) {
                if (!cabled[i][p]) {
                    nrcs[i].wireIn.get(p).assign(lit(0, LinkFrame.BITS));
                }
            }
        }
        Bool boot = nicChip.booting;
        for (NrcChip n : nrcs) {
            boot = boot.or(n.booting);
        }
        booting.assign(boot);
    }

    /** A = {@code aOut}/{@code aIn} (driven here), B = NRC {@code b} port {@code portB}. */
    private static void plug(Cable cable, UInt aOut, UInt aIn, NrcChip b, int portB, Bool cut, UInt lanes) {
        cable.aTx.assign(aOut);
        aIn.assign(cable.aRx);
        cable.bTx.assign(b.wireOut.get(portB));
        b.wireIn.get(portB).assign(cable.bRx);
        cable.errorAB.assign(lit(0, LinkFrame.BITS));
        cable.errorBA.assign(lit(0, LinkFrame.BITS));
        cable.cutAB.assign(cut);
        cable.cutBA.assign(cut);
        cable.lanesDownAB.assign(lanes);
        cable.lanesDownBA.assign(lanes);
    }
}
