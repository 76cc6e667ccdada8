package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.rtl.link.LinkLayer;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.link.LinkRegisters;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;

/**
 * The whole NRC: on each of its ports (24 on the TH-2 NRC; fewer in a reduced-port build for differential tests) a link layer (frames on the cable, CRC, retry, training, neighbour
 * identity, BIST), the switch core between them (DAMQ buffers, VCs, virtual cut-through, source and table
 * routing), and the management side ({@link Nrc}: relay stations, NMA, E2PROM) reached through the core.
 * Spec: 20-th2-management.md, "The system" and "Where management packets go"; docs/th2-nrc-switch.md.
 */
public final class NrcChip extends Module {
    public final SwitchParams params;
    public final RsGeometry geometry;
    /** the frames each port's cable delivers / carries away, one per cycle */
    public final Vec<UInt> wireIn;
    public final Vec<UInt> wireOut;
    /**
     * fault levels from outside (bit i = {@code NrcRegisters.faultSources(ports).get(i)}), OR'd with those the chip raises:
     * link down, degraded width and retries over NRC_RETRY_THRESHOLD per port, over-temperature from {@link #temperature}
     */
    public final UInt faults;
    /** the die temperature in degrees C from the chip's sensor (the board drives it) */
    public final UInt temperature;
    public final UInt chipId;
    public final Bool booting;
    public final Bool bootDone;
    public final Bool bootError;

    public final Nrc nrc;
    public final SwitchCore core;
    public final LinkLayer[] links;

    /** The TH-2 NRC with board E2PROM timing and an erased E2PROM. */
    public NrcChip() {
        this(EepParams.DEFAULT, null, SwitchParams.TH2, LinkParams.defaults());
    }

    /**
     * @param eep          E2PROM path timing
     * @param eepromImage  initial E2PROM contents (null: erased)
     * @param switchParams the switch core (24 ports for the TH-2 NRC)
     * @param linkParams   every port's link layer
     */
    public NrcChip(EepParams eep, byte[] eepromImage, SwitchParams switchParams, LinkParams linkParams) {
        this.params = switchParams;
        this.geometry = RsGeometry.of(switchParams);
        int n = switchParams.ports();
        faults = input(UInt(NrcRegisters.faultSources(n).size()));
        temperature = input(UInt(8));
        chipId = output(UInt(Th2.CHIP_ID_BITS));
        booting = output(Bool());
        bootDone = output(Bool());
        bootError = output(Bool());
        wireIn = input(Vec(n, () -> UInt(LinkFrame.BITS)));
        wireOut = output(Vec(n, () -> UInt(LinkFrame.BITS)));
        nrc = instance(new Nrc(eep, eepromImage, switchParams));
        core = instance(new SwitchCore(switchParams));
        links = new LinkLayer[n];

        UInt id = nrc.chipId;
        // the fault levels the chip raises itself: per port link down (a pulse), degraded width and retries over the
        // threshold; over-temperature from the sensor
        UInt raised = lit(0, faults.width());
        UInt transit = lit(0, 64);
        for (int p = 0; p < n; p++) {
            LinkLayer l = links[p] = instance("link" + p, new LinkLayer(linkParams));
            l.wireIn.assign(wireIn.get(p));
            wireOut.get(p).assign(l.wireOut);
            l.chipType.assign(lit(ChipType.NRC.code(), 2));
            l.chipId.assign(id);
            l.port.assign(lit(p, 5));
            l.bist.connect(nrc.sw.bist.get(p));

            core.in.get(p).connect(l.rxFlit);
            l.txCredit.connect(core.creditOut.get(p));
            // while the link is down its output drains into the bin: a packet that was leaving when the link died must
            // not hold the output, and the input VC behind it, forever
            l.txFlit.valid.assign(core.out.get(p).valid.and(l.status.up));
            l.txFlit.bits.assign(core.out.get(p).bits);
            core.out.get(p).ready.assign(mux(l.status.up, l.txFlit.ready, TRUE()));
            core.creditIn.get(p).connect(l.rxCredit);
            core.linkUp.get(p).assign(l.status.up);

            nrc.portIn.get(p).connect(core.toRs.get(p));
            core.fromRs.get(p).connect(nrc.portOut.get(p));
            // the core sends only packets that arrived for this chip to the plane, so nothing leaves here
            nrc.toSwitch.get(p).ready.assign(TRUE());
            LinkRegisters.portStatus(nrc.link.get(p), l.status, l.bistResult);

            Bool degraded = LinkRegisters.degraded(l.status);
            Bool retries = LinkRegisters.retriesOver(l.status, nrc.sw.retryThreshold);
            raised = raised.or(fault(FaultCode.LINK_DOWN, p, l.linkDown)).or(fault(FaultCode.LINK_DEGRADED, p, degraded))
                    .or(fault(FaultCode.RETRY_THRESHOLD, p, retries));
            transit = transit.add(core.forwarded.get(p).pad(64)).trunc(64);
        }
        nrc.sw.temperature.assign(temperature);
        raised = raised.or(fault(FaultCode.OVER_TEMPERATURE, FaultCode.CHIP_LEVEL_PORT, temperature.gt(nrc.sw.temperatureLimit)));
        nrc.faults.assign(faults.or(raised));
        nrc.sw.transit.assign(transit);
        nrc.sw.malformedDrops.assign(core.malformedDrops.add(core.badVcDrops).trunc(SwitchCore.COUNTER_BITS));
        nrc.sw.unroutableDrops.assign(core.unroutableDrops);
        nrc.sw.overflowDrops.assign(core.overflowDrops);
        nrc.sw.framingErrors.assign(core.framingErrors);
        nrc.sw.linkDownDrops.assign(core.linkDownDrops);
        core.tableWrite.connect(nrc.sw.tableWrite);
        core.tableRead.connect(nrc.sw.tableRead);
        core.tableRegions.connect(nrc.sw.tableRegions);
        nrc.sw.tableReadData.assign(core.tableReadData);

        chipId.assign(id);
        booting.assign(nrc.booting);
        bootDone.assign(nrc.bootDone);
        bootError.assign(nrc.bootError);
    }

    /** {@code level} at the fault input of {@code code} at {@code port}, as a word of all fault inputs. */
    private UInt fault(FaultCode code, int port, Bool level) {
        int w = faults.width();
        return level.pad(w).shl(NrcRegisters.faultInput(params.ports(), code.code(), port)).trunc(w);
    }
}
