package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.I2cEeprom;
import org.flitkit.rtl.nma.I2cPins;
import org.flitkit.rtl.nma.NmaCore;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.PortStatus;
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
    /** Fault levels driven from outside: the port's link faults, then over-temperature. */
    public final UInt faults = input(UInt(NicRegisters.externalFaults()));
    public final UInt chipId = output(UInt(Th2.CHIP_ID_BITS));
    public final Bool scl = output(Bool());
    public final Bool sda = output(Bool());
    public final Bool booting = output(Bool());

    public final int vps;
    public final EepParams eepParams;
    public final VpQueues queues;
    public final DescArbiter arbiter;
    public final DescFetch fetch;
    public final DescDispatch dispatch;
    public final MpSendUnit sendUnit;
    public final SendArbiter sendArbiter;
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
        queues = instance(new VpQueues(vps));
        arbiter = instance(new DescArbiter(vps));
        fetch = instance(new DescFetch(fetchTags));
        dispatch = instance(new DescDispatch(vps));
        sendUnit = instance(new MpSendUnit());
        sendArbiter = instance(new SendArbiter(2));
        recv = instance(new RecvDispatch());
        mpqWriter = instance(new MpqWriter(vps));
        eventWriter = instance(new EventWriter(vps));
        dmaMux = instance(new DmaMux(3));
        nma = instance(NmaCore.nic(eepParams, NicRegisters.PORTS, NicRegisters.faultSources(), NicRegisters.chipRegisters(vps)));
        eeprom = instance(new I2cEeprom(eepParams, eepromImage));
        UInt id = nma.chipId;
        chipId.assign(id);
        booting.assign(nma.booting);

        // flow (1): BAR -> queues -> arbitration -> fetch -> dispatch -> MP send unit -> send arbitration -> link
        queues.mmio.connect(mmio);
        arbiter.pending.assign(queues.pending);
        arbiter.parked.assign(dispatch.parked);
        arbiter.done.connect(dispatch.done);
        fetch.req.connect(arbiter.grant);
        fetch.sdq.connect(queues.sdq);
        queues.hdqAddr.assign(fetch.hdqAddr);
        fetch.hdqData.assign(queues.hdqData);
        fetch.cpl.connect(dmaCpl);
        fetch.cplTimeout.assign(nma.value(NicRegisters.CPL_TIMEOUT).bits(31, 0));
        dispatch.in.connect(fetch.out);
        queues.consume.connect(dispatch.consume);
        dispatch.fenceTimeout.assign(nma.value(NicRegisters.FENCE_TIMEOUT).bits(15, 0));
        sendUnit.in.connect(dispatch.toSend);
        sendUnit.chipId.assign(id);
        sendArbiter.req.connect(sendUnit.out);
        linkOut.connect(sendArbiter.linkOut);

        // flows (2) and (3): link -> request receive FIFO -> NIC-NMA -> response send FIFO -> send arbitration
        recv.linkIn.connect(linkIn);
        recv.chipId.assign(id);
        nma.in.connect(recv.toNma);
        sendArbiter.rsp.connect(nma.out);

        // flow (4): link -> response receive FIFO -> MPQ -> EQ event, interrupt
        mpqWriter.in.connect(recv.toHost);
        mpqWriter.mpq.connect(queues.mpq);
        dispatch.answered.connect(mpqWriter.answered);
        RRArbiter<EventReq> events = instance(new RRArbiter<>(EventReq::new, 3));
        events.in.get(0).connect(dispatch.events);
        events.in.get(1).connect(sendUnit.events);
        events.in.get(2).connect(mpqWriter.events);
        eventWriter.in.connect(events.out);
        eventWriter.eq.connect(queues.eq);
        UInt cycle = regInit(UInt(64), 0).named("cycle");
        cycle.assign(cycle.add(1));
        eventWriter.cycle.assign(cycle);
        irq.connect(eventWriter.irq);

        dmaMux.in.get(0).connect(fetch.dma);
        dmaMux.in.get(1).connect(mpqWriter.dma);
        dmaMux.in.get(2).connect(eventWriter.dma);
        dmaRq.connect(dmaMux.out);

        // NIC-NMA's fault inputs: external levels, then the NIC's own pulses
        List<Bool> internal = new ArrayList<>();
        for (FaultCode c : NicRegisters.INTERNAL_FAULTS) {
            internal.add(switch (c) {
                case EEPROM_LOAD_FAILED -> nma.bootError;
                case DMA_ERROR -> dispatch.fetchError;
                case MPQ_OVERFLOW -> mpqWriter.overflow;
                default -> throw new IllegalStateException("no NIC source for fault " + c);
            });
        }
        // fault vector: external inputs in the low bits, then the NIC's own in NicRegisters order
        List<Bits> parts = new ArrayList<>(internal);
        Collections.reverse(parts);
        parts.add(faults);
        nma.faults.assign(cat(parts));
        nma.extCrcDrop.assign(FALSE());
        nma.extDestIdDrop.assign(FALSE());

        Bool sclLine = wire(Bool()).named("i2c_scl");
        Bool sdaLine = wire(Bool()).named("i2c_sda");
        I2cPins.bus(sclLine, sdaLine, null, null, nma.pins, eeprom.pins);
        scl.assign(sclLine);
        sda.assign(sdaLine);

        registers(id);
    }

    private void registers(UInt id) {
        counter(NicRegisters.TX_REQUESTS, sendArbiter.reqSent);
        counter(NicRegisters.TX_RESPONSES, sendArbiter.rspSent);
        counter(NicRegisters.RX_REQUESTS, recv.toNma.fire());
        counter(NicRegisters.RX_RESPONSES, recv.toHost.fire());
        counter(NicRegisters.RX_CRC_DROPS, recv.crcDrop);
        counter(NicRegisters.RX_DESTTYPE_DROPS, recv.destTypeDrop);
        counter(NicRegisters.RX_DESTID_DROPS, recv.destIdDrop);
        counter(NicRegisters.RX_VP_DROPS, recv.vpDrop);
        counter(NicRegisters.RX_MALFORMED_DROPS, recv.malformedDrop);
        counter(NicRegisters.DESCRIPTORS, dispatch.toSend.fire());
        counter(NicRegisters.DESC_ERRORS, dispatch.descError);
        counter(NicRegisters.FETCH_ERRORS, dispatch.fetchError);
        counter(NicRegisters.DOORBELL_ERRORS, queues.doorbellError);
        counter(NicRegisters.HDQ_OVERFLOWS, queues.hdqOverflow);
        counter(NicRegisters.MMIO_ERRORS, queues.badWrite);
        counter(NicRegisters.FENCE_TIMEOUTS, dispatch.fenceExpired);
        counter(NicRegisters.STALE_COMPLETIONS, fetch.staleCpl);
        counter(NicRegisters.MPQ_DROPS, mpqWriter.overflow);
        counter(NicRegisters.EQ_DROPS, eventWriter.dropped);

        nma.hw(NmaRegisters.portReg(0, NmaRegisters.PORT_IDENTITY)).assign(NmaRegisters.identity(lit(ChipType.NIC.code(), 2), id, lit(0, 5)));
        nma.hw(NmaRegisters.portReg(0, NmaRegisters.PORT_NEIGHBOUR)).assign(link.neighbour);
        nma.hw(NmaRegisters.portReg(0, NmaRegisters.PORT_LINK_STATUS)).assign(link.linkStatus);
        nma.hw(NmaRegisters.portReg(0, NmaRegisters.PORT_RETRY_COUNT)).assign(link.retryCount);
        nma.hw(NmaRegisters.portReg(0, NmaRegisters.PORT_HANDSHAKE_COUNT)).assign(link.handshakeCount);
        nma.hw(NmaRegisters.portReg(0, NmaRegisters.PORT_BIST_RESULT)).assign(link.bistResult);
        for (int v = 0; v < vps; v++) {
            nma.hw(NicRegisters.vpReg(v, NicRegisters.VP_SDQ)).assign(cat(lit(0, 23), dispatch.parked.bit(v),
                    dispatch.outstanding.get(v), queues.head.get(v), queues.tail.get(v)));
            nma.hw(NicRegisters.vpReg(v, NicRegisters.VP_MPQ)).assign(cat(mpqWriter.drops.get(v), queues.mpqHead.get(v), mpqWriter.producer.get(v)));
            nma.hw(NicRegisters.vpReg(v, NicRegisters.VP_EQ)).assign(cat(eventWriter.drops.get(v), queues.eqHead.get(v), eventWriter.producer.get(v)));
        }
    }

    private void counter(String name, Bool pulse) {
        UInt c = regInit(UInt(64), 0).named(name.toLowerCase(Locale.ROOT));
        when(pulse, () -> c.assign(c.add(1)));
        nma.hw(name).assign(c);
    }
}
