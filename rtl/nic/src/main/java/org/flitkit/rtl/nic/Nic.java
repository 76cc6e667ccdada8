package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.BistControl;
import org.flitkit.rtl.link.LinkRegisters;
import org.flitkit.rtl.link.LinkStatus;
import org.flitkit.rtl.link.PortStatus;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.I2cEeprom;
import org.flitkit.rtl.nma.I2cPins;
import org.flitkit.rtl.nma.NmaCore;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * The TH-2 NIC's management path: host interface (BAR writes, DMA requests and completions, interrupts),
 * the four flows of the paper (descriptor to packet, request to NIC-NMA, NIC-NMA answer to the link, answer
 * to the host's MPQ), NIC-NMA with its E2PROM, and one network port as a flit stream to the link layer.
 * Spec: 20-th2-management.md, "Where management packets go inside the chips" (NIC); docs/th2-nic.md.
 */
public final class Nic extends Module {
    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    public final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    /** Interrupt messages: VP [5:0], cause [7:6] ({@code NicHost.IRQ_*}). */
    public final Valid<UInt> irq = output(Valid.of(UInt(8)));
    /** The network port: flits to and from the link layer. */
    public final Decoupled<UInt> linkOut = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    public final Decoupled<UInt> linkIn = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** What the port's link layer reports (neighbour identity, status, counters). */
    public final PortStatus link = input(new PortStatus());
    /** Fault levels raised outside the management path: the port's link faults, then over-temperature. */
    public final UInt faults = input(UInt(NicRegisters.externalFaults()));
    /** The die temperature in degrees C from the chip's sensor (NIC_TEMPERATURE). */
    public final UInt temperature = input(UInt(8));
    /** NIC_TEMPERATURE_LIMIT and NIC_RETRY_THRESHOLD, for the chip's fault levels. */
    public final UInt temperatureLimit = output(UInt(8));
    public final UInt retryThreshold = output(UInt(LinkStatus.COUNTER_BITS));
    /** The port's link BIST, from its BIST_CTRL register. */
    public final BistControl bist = output(new BistControl());
    public final UInt chipId = output(UInt(Th2.CHIP_ID_BITS));
    public final Bool scl = output(Bool());
    public final Bool sda = output(Bool());
    public final Bool booting = output(Bool());

    public final int vps;
    public final EepParams eepParams;
    public final SendPath send;
    public final RecvDispatch recv;
    public final MpqWriter mpqWriter;
    public final EventWriter eventWriter;
    public final DmaMux dmaMux;
    public final NmaCore nma;
    public final I2cEeprom eeprom;

    /** A NIC with 40 VPs, 4 descriptor reads in flight, board E2PROM timing and an erased E2PROM. */
    public Nic() {
        this(EepParams.DEFAULT, null, Th2.VP_COUNT, 4);
    }

    /**
     * @param eepParams   E2PROM path timing (EepParams.FAST in unit tests)
     * @param eepromImage initial E2PROM contents (null: erased)
     * @param vps         virtual ports (the paper: 40)
     * @param fetchTags   descriptor reads in flight at once
     */
    public Nic(EepParams eepParams, byte[] eepromImage, int vps, int fetchTags) {
        this.vps = vps;
        this.eepParams = eepParams;
        send = instance(new SendPath(vps, fetchTags));
        recv = instance(new RecvDispatch(vps));
        mpqWriter = instance(new MpqWriter(vps));
        eventWriter = instance(new EventWriter(vps));
        dmaMux = instance(new DmaMux(3));
        nma = instance(NmaCore.nic(eepParams, NicRegisters.PORTS, NicRegisters.faultSources(), NicRegisters.chipRegisters(vps)));
        eeprom = instance(new I2cEeprom(eepParams, eepromImage));
        UInt id = nma.chipId;
        chipId.assign(id);
        booting.assign(nma.booting);

        // flows (1) and (3): BAR -> queues -> arbitration -> fetch -> dispatch -> MP send unit -> send arbitration -> link,
        // NIC-NMA's answers joining at send arbitration
        send.mmio.connect(mmio);
        send.dmaCpl.connect(dmaCpl);
        send.chipId.assign(id);
        send.cplTimeout.assign(nma.value(NicRegisters.CPL_TIMEOUT).bits(31, 0));
        send.fenceTimeout.assign(nma.value(NicRegisters.FENCE_TIMEOUT).bits(15, 0));
        send.rsp.connect(nma.out);
        linkOut.connect(send.linkOut);

        // flow (2): link -> request receive FIFO -> NIC-NMA
        recv.linkIn.connect(linkIn);
        recv.chipId.assign(id);
        nma.in.connect(recv.toNma);

        // flow (4): link -> response receive FIFO -> MPQ -> EQ event, interrupt
        mpqWriter.in.connect(recv.toHost);
        mpqWriter.mpq.connect(send.mpq);
        send.answered.connect(mpqWriter.answered);
        RRArbiter<EventReq> events = instance(new RRArbiter<>(EventReq::new, 2));
        events.in.get(0).connect(send.events);
        events.in.get(1).connect(mpqWriter.events);
        eventWriter.in.connect(events.out);
        eventWriter.eq.connect(send.eq);
        eventWriter.cycle.assign(nma.cycle);
        irq.connect(eventWriter.irq);

        dmaMux.in.get(0).connect(send.dmaRq);
        dmaMux.in.get(1).connect(mpqWriter.dma);
        dmaMux.in.get(2).connect(eventWriter.dma);
        dmaRq.connect(dmaMux.out);

        List<Bool> internal = new ArrayList<>();
        for (FaultCode c : NicRegisters.INTERNAL_FAULTS) {
            internal.add(switch (c) {
                case EEPROM_LOAD_FAILED -> nma.bootError;
                case DMA_ERROR -> send.fetchError;
                case MPQ_OVERFLOW -> mpqWriter.overflow;
                default -> throw new IllegalStateException("no NIC source for fault " + c);
            });
        }
        // NIC-NMA's fault vector: the external levels in the low bits, then the NIC's own pulses in NicRegisters order
        List<Bits> parts = new ArrayList<>(internal);
        Collections.reverse(parts);
        parts.add(faults);
        nma.faults.assign(cat(parts));
        nma.extCrcDrop.assign(FALSE());
        nma.extDestIdDrop.assign(FALSE());

        Bool i2cScl = wire(Bool()).named("i2cScl");
        Bool i2cSda = wire(Bool()).named("i2cSda");
        I2cPins.bus(i2cScl, i2cSda, null, null, nma.pins, eeprom.pins);
        scl.assign(i2cScl);
        sda.assign(i2cSda);

        registers(id);
        nma.hw(NicRegisters.TEMPERATURE).assign(temperature.pad(64));
        temperatureLimit.assign(nma.value(NicRegisters.TEMPERATURE_LIMIT).trunc(8));
        retryThreshold.assign(nma.value(NicRegisters.RETRY_THRESHOLD).trunc(LinkStatus.COUNTER_BITS));
        LinkRegisters.bistControl(bist, nma.value(NmaRegisters.portReg(0, NmaRegisters.PORT_BIST_CTRL)));
    }

    private void registers(UInt id) {
        counter(NicRegisters.TX_REQUESTS, send.reqSent);
        counter(NicRegisters.TX_RESPONSES, send.rspSent);
        counter(NicRegisters.RX_REQUESTS, recv.toNma.fire());
        counter(NicRegisters.RX_RESPONSES, recv.toHost.fire());
        counter(NicRegisters.RX_CRC_DROPS, recv.crcDrop);
        counter(NicRegisters.RX_DESTTYPE_DROPS, recv.destTypeDrop);
        counter(NicRegisters.RX_DESTID_DROPS, recv.destIdDrop);
        counter(NicRegisters.RX_VP_DROPS, recv.vpDrop);
        counter(NicRegisters.RX_MALFORMED_DROPS, recv.malformedDrop);
        counter(NicRegisters.DESCRIPTORS, send.descriptorSent);
        counter(NicRegisters.DESC_ERRORS, send.descError);
        counter(NicRegisters.FETCH_ERRORS, send.fetchError);
        counter(NicRegisters.DOORBELL_ERRORS, send.doorbellError);
        counter(NicRegisters.HDQ_OVERFLOWS, send.hdqOverflow);
        counter(NicRegisters.MMIO_ERRORS, send.badWrite);
        counter(NicRegisters.FENCE_TIMEOUTS, send.fenceExpired);
        counter(NicRegisters.STALE_COMPLETIONS, send.staleCpl);
        counter(NicRegisters.MPQ_DROPS, mpqWriter.overflow);
        counter(NicRegisters.EQ_DROPS, eventWriter.dropped);

        nma.portStatus(0, link, NmaRegisters.identity(lit(ChipType.NIC.code(), 2), id, lit(0, 5)));
        for (int v = 0; v < vps; v++) {
            nma.hw(NicRegisters.vpReg(v, NicRegisters.VP_SDQ)).assign(cat(lit(0, 23), send.parked.bit(v),
                    send.outstanding.get(v), send.head.get(v), send.tail.get(v)));
            nma.hw(NicRegisters.vpReg(v, NicRegisters.VP_MPQ)).assign(cat(mpqWriter.drops.get(v), send.mpqHead.get(v), mpqWriter.producer.get(v)));
            nma.hw(NicRegisters.vpReg(v, NicRegisters.VP_EQ)).assign(cat(eventWriter.drops.get(v), send.eqHead.get(v), eventWriter.producer.get(v)));
        }
    }

    private void counter(String name, Bool pulse) {
        UInt c = regInit(UInt(64), 0).named(name.toLowerCase(Locale.ROOT));
        when(pulse, () -> c.assign(c.add(1)));
        nma.hw(name).assign(c);
    }
}
