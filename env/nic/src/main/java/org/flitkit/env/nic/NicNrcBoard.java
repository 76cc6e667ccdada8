package org.flitkit.env.nic;


import static org.flitkit.hdl.Hdl.*;

import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.fabric.Cable;
import org.flitkit.fabric.CableOptions;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.PortStatus;
import org.flitkit.rtl.nic.Nic;
import org.flitkit.rtl.nic.NicRegisters;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * The management server's board: its NIC (host interface as board pins) cabled to one port of an NRC, the
 * port chosen by {@link #patch} (a patch panel: change it only while the cable is idle). The NRC's other
 * ports stay board pins, so packets leaving elsewhere can still be watched. The NIC's port learns the NRC's
 * identity from the cable. Spec: 20-th2-management.md, "The system"; docs/th2-nic.md, "End to end".
 */
public final class NicNrcBoard extends Module {
    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    public final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    public final Valid<UInt> irq = output(Valid.of(UInt(8)));
    /** NRC port the NIC's cable is plugged into. */
    public final UInt patch = input(UInt(5));
    public final Vec<Decoupled<UInt>> portIn = input(Vec(RsGeometry.TH2.ports(), () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
    public final Vec<Decoupled<UInt>> portOut = output(Vec(RsGeometry.TH2.ports(), () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
    public final Vec<Decoupled<UInt>> toSwitch = output(Vec(RsGeometry.TH2.ports(), () -> Decoupled.of(UInt(Th2.FLIT_BITS))));
    public final Vec<PortStatus> nrcLink = input(Vec(RsGeometry.TH2.ports(), PortStatus::new));
    public final UInt nrcFaults = input(UInt(NrcRegisters.faultSources().size()));
    public final UInt nicFaults = input(UInt(NicRegisters.externalFaults()));
    public final Bool booting = output(Bool());
    /** Bit errors to inject into the flit entering the cable toward the NRC this cycle (0 = none). */
    public final UInt upFlip = input(UInt(Th2.FLIT_BITS));
    /** Both directions of the cable are empty. */
    public final Bool cableIdle = output(Bool());

    public final Nic nic;
    public final Nrc nrc;
    public final Cable up;
    public final Cable down;
    public final int cableLatency;

    /**
     * @param eep          E2PROM timing of both chips
     * @param nicEeprom    the NIC's E2PROM image (its power-up configuration; null: erased)
     * @param nrcEeprom    the NRC's E2PROM image (null: erased)
     * @param cableLatency cycles a flit takes from one end of the cable to the other
     */
    public NicNrcBoard(EepParams eep, byte[] nicEeprom, byte[] nrcEeprom, int cableLatency) {
        this.cableLatency = cableLatency;
        nic = instance(new Nic(eep, nicEeprom, Th2.VP_COUNT, 4));
        nrc = instance(new Nrc(eep, nrcEeprom));
        up = instance("cableUp", new Cable(CableOptions.credits(Th2.FLIT_BITS, cableLatency)));
        down = instance("cableDown", new Cable(CableOptions.credits(Th2.FLIT_BITS, cableLatency)));

        nic.mmio.connect(mmio);
        dmaRq.connect(nic.dmaRq);
        nic.dmaCpl.connect(dmaCpl);
        irq.connect(nic.irq);
        up.in.connect(nic.linkOut);
        up.flip.assign(upFlip);
        down.flip.assign(lit(0, Th2.FLIT_BITS));
        cableIdle.assign(up.idle.and(down.idle));
        nic.linkIn.connect(down.out);
        nic.faults.assign(nicFaults);
        nic.temperature.assign(lit(Th2Machine.TEMPERATURE, 8));
        nrc.faults.assign(nrcFaults);
        booting.assign(nic.booting.or(nrc.booting));

        Bool upReady = FALSE();
        Bool downValid = FALSE();
        UInt downBits = lit(0, Th2.FLIT_BITS);
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            Bool here = patch.eq(p);
            Decoupled<UInt> in = nrc.portIn.get(p);
            in.valid.assign(mux(here, up.out.valid, portIn.get(p).valid));
            in.bits.assign(mux(here, up.out.bits, portIn.get(p).bits));
            portIn.get(p).ready.assign(in.ready.and(here.not()));
            upReady = mux(here, in.ready, upReady);
            Decoupled<UInt> out = nrc.portOut.get(p);
            portOut.get(p).valid.assign(out.valid.and(here.not()));
            portOut.get(p).bits.assign(out.bits);
            out.ready.assign(mux(here, down.in.ready, portOut.get(p).ready));
            downValid = mux(here, out.valid, downValid);
            downBits = mux(here, out.bits, downBits);
            toSwitch.get(p).connect(nrc.toSwitch.get(p));
            nrc.link.get(p).connect(nrcLink.get(p));
        }
        up.out.ready.assign(upReady);
        down.in.valid.assign(downValid);
        down.in.bits.assign(downBits);

        // the NIC's port learns who is at the other end of its cable
        nic.link.neighbour.assign(NmaRegisters.identity(lit(ChipType.NRC.code(), 2), nrc.chipId, patch));
        nic.link.linkStatus.assign(lit(8L << 8 | 1, 64));
        nic.link.retryCount.assign(lit(0, 64));
        nic.link.handshakeCount.assign(lit(1, 64));
        nic.link.bistResult.assign(lit(0, 64));
        nic.link.zeroExcept(nic.link.neighbour, nic.link.linkStatus, nic.link.retryCount, nic.link.handshakeCount, nic.link.bistResult);
    }
}
