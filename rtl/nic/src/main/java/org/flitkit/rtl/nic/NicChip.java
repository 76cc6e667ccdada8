package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Arbiter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.BufferShape;
import org.flitkit.rtl.link.LinkParams;
import org.flitkit.rtl.link.LinkPort;
import org.flitkit.rtl.link.LinkRegisters;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * The whole NIC: its management path ({@link Nic}) and the node's data traffic ({@link DataTraffic}) behind its one
 * network port ({@link LinkPort}: the link layer, credits for the far NRC's buffer, the receive buffer), management
 * packets first; the port's status, BIST and faults (link down, degraded width, retries over NIC_RETRY_THRESHOLD,
 * over-temperature) in the NIC's registers. The host side is
 * the Nic's; the cable side one frame per cycle each way. Spec: 20-th2-management.md, "The system"; docs/th2-nic.md.
 */
public final class NicChip extends Module {
    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    public final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    /** interrupt messages, as {@link Nic#irq} */
    public final Valid<UInt> irq = output(Valid.of(UInt(8)));
    /** the frames the cable delivers / carries away, one per cycle */
    public final UInt wireIn = input(UInt(LinkFrame.BITS));
    public final UInt wireOut = output(UInt(LinkFrame.BITS));
    /** the die temperature in degrees C from the chip's sensor (the board drives it) */
    public final UInt temperature = input(UInt(8));
    public final UInt chipId = output(UInt(Th2.CHIP_ID_BITS));
    public final Bool booting = output(Bool());
    /** the node's data traffic ({@link DataTraffic}): on, the machine's nodes, cycles between packet starts */
    public final Bool trafficEnable = input(Bool());
    public final UInt trafficNodes = input(UInt(Th2.CHIP_ID_BITS));
    public final UInt trafficInterval = input(UInt(16));
    /** data packets sent and received */
    public final UInt dataSent = output(UInt(32));
    public final UInt dataReceived = output(UInt(32));

    public final Nic nic;
    public final LinkPort port;
    public final DataTraffic traffic;

    /**
     * @param eep         E2PROM path timing
     * @param eeprom      the NIC's E2PROM (its CHIP_ID; null: erased)
     * @param farBuffer   the input buffer of the NRC port at the far end (its credits)
     * @param linkParams  the port's link layer
     */
    public NicChip(EepParams eep, byte[] eeprom, BufferShape farBuffer, LinkParams linkParams) {
        nic = instance(new Nic(eep, eeprom, Th2.VP_COUNT, 4));
        port = instance("nicPort", new LinkPort(farBuffer, farBuffer, linkParams));
        nic.mmio.connect(mmio);
        dmaRq.connect(nic.dmaRq);
        nic.dmaCpl.connect(dmaCpl);
        irq.connect(nic.irq);
        nic.temperature.assign(temperature);
        traffic = instance(new DataTraffic(DataLayouts.MAX_FLITS));
        traffic.enable.assign(trafficEnable);
        traffic.nodes.assign(trafficNodes);
        traffic.interval.assign(trafficInterval);
        traffic.self.assign(nic.chipId);
        dataSent.assign(traffic.sent);
        dataReceived.assign(traffic.received);

        // out: management packets first, whole packets at a time (the link port takes one packet after another)
        Arbiter<UInt> send = instance(new Arbiter<>(() -> UInt(Th2.FLIT_BITS), 2,
                Lock.until(f -> LayoutBits.get(f, DataLayouts.HEAD.KIND).bit(0))));
        send.in.get(0).connect(nic.linkOut);
        send.in.get(1).connect(traffic.out);
        port.in.connect(send.out);
        // in: VC3 (management) to the NIC's management path, the other VCs to the data traffic, packet by packet
        Decoupled<UInt> rx = port.out;
        Bool rxHead = LayoutBits.get(rx.bits, DataLayouts.HEAD.KIND).bit(1);
        Bool mgmtVc = LayoutBits.get(rx.bits, DataLayouts.HEAD.VC).eq(Th2.MANAGEMENT_VC);
        Bool toMgmtReg = regInit(Bool(), 1).named("rxToMgmt");
        Bool toMgmt = mux(rxHead, mgmtVc, toMgmtReg);
        when(rx.fire(), () -> toMgmtReg.assign(toMgmt));
        nic.linkIn.valid.assign(rx.valid.and(toMgmt));
        nic.linkIn.bits.assign(rx.bits);
        traffic.in.valid.assign(rx.valid.and(toMgmt.not()));
        traffic.in.bits.assign(rx.bits);
        rx.ready.assign(mux(toMgmt, nic.linkIn.ready, traffic.in.ready));
        port.chipType.assign(lit(ChipType.NIC.code(), 2));
        port.chipId.assign(nic.chipId);
        port.port.assign(lit(0, 5));
        port.bist.connect(nic.bist);
        LinkRegisters.portStatus(nic.link, port.status, port.bistResult);
        // the fault levels the chip raises, in NicRegisters order: the port's (link down, degraded, retries over the
        // threshold), then over-temperature
        nic.faults.assign(cat(temperature.gt(nic.temperatureLimit), LinkRegisters.retriesOver(port.status, nic.retryThreshold),
                LinkRegisters.degraded(port.status), port.linkDown));
        port.wireIn.assign(wireIn);
        wireOut.assign(port.wireOut);
        chipId.assign(nic.chipId);
        booting.assign(nic.booting);
    }
}
