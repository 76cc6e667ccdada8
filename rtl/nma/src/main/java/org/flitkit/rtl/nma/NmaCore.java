package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.nma.NmaRegisters.*;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.link.PortStatus;

/**
 * The NMA shared by NRC and NIC: request packets in, responses and fault reports out, through
 * nmp_distributor, reg_access, active_report, nmp_collector and the register file (common registers plus
 * the chip's own, e.g. per-port banks). With {@link EepParams} it also holds eep_access and the power-up
 * BootLoader ({@link #pins} to the E2PROM); without, E2PROM requests leave on {@link #eepReq} and their
 * answers come back on {@link #eepResp}. Spec: 20-th2-management.md, "NMA submodules".
 */
public final class NmaCore extends Module {
    /**
     * E2PROM requests that can wait in front of a busy eep_access while register requests go past them.
     * Only with this many already waiting does a further E2PROM request hold the distributor.
     */
    public static final int EEP_QUEUE_DEPTH = 2;

    /** Request packets addressed to this chip (HopPtr = HopNum on the NRC; from the network interface on the NIC). */
    public final Decoupled<UInt> in = input(PacketWords.packetStream());
    /** Responses, error responses and fault reports, CRC included, whole packets. */
    public final Decoupled<UInt> out = output(PacketWords.packetStream());
    /** Seam to an external eep_access (only without EepParams, else null): E2PROM requests out, answers back in. */
    public final Decoupled<UInt> eepReq;
    public final Decoupled<UInt> eepResp;
    /** With EepParams (else null): the I2C pins of the internal eep_access, and the power-up load status. */
    public final I2cPins pins;
    public final Bool booting;
    public final Bool bootDone;
    public final Bool bootError;
    public final UInt bootStatus;
    /** Fault levels, bit i = fault input i of the {@link FaultSource} list. */
    public final UInt faults;
    /** The free-running cycle count (CYCLE_COUNT), for the chip's own timestamps. */
    public final UInt cycle = output(UInt(64));
    /** CHIP_ID register value (0xFFFF until configured), for the chip's DestID rule. */
    public final UInt chipId = output(UInt(Th2.CHIP_ID_BITS));
    /** Pulses from the chip for request packets it dropped itself before the NMA (counted in the registers). */
    public final Bool extCrcDrop = input(Bool());
    public final Bool extDestIdDrop = input(Bool());

    public final ChipType chip;
    public final int addrBits;
    public final int ports;
    public final List<FaultSource> faultSources;
    public final List<RegDef> regMap;

    public final RegisterFile regs;
    public final NmpDistributor distributor;
    public final RegAccess regAccess;
    public final ActiveReport activeReport;
    public final NmpCollector collector;
    /** With EepParams (else null). */
    public final EepAccess eepAccess;
    public final BootLoader bootLoader;
    public final RegBusArbiter regBusArbiter;
    public final EepParams eepParams;
    /** E2PROM requests waiting for eep_access, so that they do not block register requests (head of line). */
    public final Queue<UInt> eepQueue;

    private final UInt cycleCount = regInit(UInt(64), 0);
    private final UInt requests = regInit(UInt(64), 0);
    private final UInt crcErrors = regInit(UInt(64), 0);
    private final UInt destIdDrops = regInit(UInt(64), 0);
    private final UInt malformedDrops = regInit(UInt(64), 0);
    private final Map<String, UInt> chipHw = new LinkedHashMap<>();
    private final Map<String, UInt> chipValue = new LinkedHashMap<>();
    private final Map<String, Bool> chipWritten = new LinkedHashMap<>();
    private final UInt writeData;

    /** A core with the E2PROM seam ({@link #eepReq}/{@link #eepResp}): eep_access lives outside. */
    public NmaCore(ChipType chip, int addrBits, int ports, List<FaultSource> faultSources, List<RegDef> chipRegs) {
        this(chip, addrBits, ports, faultSources, chipRegs, null);
    }

    /**
     * @param eepParams E2PROM path timing: non-null builds eep_access and the BootLoader in (requests wait
     *                  while the power-up load runs); null leaves the {@link #eepReq}/{@link #eepResp} seam
     */
    public NmaCore(ChipType chip, int addrBits, int ports, List<FaultSource> faultSources, List<RegDef> chipRegs,
                   EepParams eepParams) {
        this.chip = chip;
        this.eepParams = eepParams;
        this.addrBits = addrBits;
        this.ports = ports;
        this.faultSources = List.copyOf(faultSources);
        List<RegDef> all = new ArrayList<>(common(faultSources.size()));
        all.addAll(chipRegs);
        this.regMap = RegisterFile.check(addrBits, all);
        faults = input(UInt(faultSources.size()));

        regs = instance(new RegisterFile(addrBits, regMap));
        writeData = output(UInt(64)).named("write_data");
        writeData.assign(regs.writeData);
        distributor = instance(new NmpDistributor(chip));
        regAccess = instance(new RegAccess(addrBits, regMap));
        activeReport = instance(new ActiveReport(chip, faultSources));
        collector = instance(new NmpCollector());

        UInt id = regs.value(CHIP_ID).bits(Th2.CHIP_ID_BITS - 1, 0);
        chipId.assign(id);

        distributor.in.connect(in);
        distributor.chipId.assign(id);
        regAccess.in.connect(distributor.reg);
        regAccess.chipId.assign(id);
        // flow queue: an E2PROM request reaches an idle eep_access in the cycle it leaves the distributor,
        // and waits here (not in the distributor) while eep_access is busy, so register requests go past it;
        // their answers may then leave before the E2PROM answer (the TransactionID matches them)
        eepQueue = instance("eep_queue", new Queue<>(() -> UInt(Th2.PACKET_BITS), Queue.depth(EEP_QUEUE_DEPTH).flow()));
        eepQueue.enq.connect(distributor.eep);
        if (eepParams == null) {
            eepReq = output(PacketWords.packetStream());
            eepResp = input(PacketWords.packetStream());
            pins = null;
            booting = null;
            bootDone = null;
            bootError = null;
            bootStatus = null;
            eepAccess = null;
            bootLoader = null;
            regBusArbiter = null;
            distributor.hold.assign(regAccess.busyOut);
            regs.bus.connect(regAccess.bus);
            eepReq.connect(eepQueue.deq);
            collector.eep.connect(eepResp);
        } else {
            eepReq = null;
            eepResp = null;
            pins = output(new I2cPins());
            booting = output(Bool());
            bootDone = output(Bool());
            bootError = output(Bool());
            bootStatus = output(UInt(3));
            eepAccess = instance(new EepAccess(eepParams, chip));
            bootLoader = instance(new BootLoader(eepParams, addrBits));
            regBusArbiter = instance(new RegBusArbiter(addrBits));
            wireBootPath(id);
        }

        connectActiveReport(id);
        collector.reg.connect(regAccess.out);
        collector.err.connect(distributor.err);
        collector.report.connect(activeReport.out);
        out.connect(collector.out);
        countStatistics();
        hardwareRegisters();
        chipRegisterPorts(chipRegs);
    }

    /** The E2PROM path on chip: the BootLoader owns the register bus and the I2C master while the power-up load runs. */
    private void wireBootPath(UInt id) {
        // while the power-up load runs it owns the register bus and the I2C master: requests wait
        distributor.hold.assign(regAccess.busyOut.or(bootLoader.booting));
        regBusArbiter.bootOwns.assign(bootLoader.booting);
        regBusArbiter.boot.connect(bootLoader.reg);
        regBusArbiter.main.connect(regAccess.bus);
        regs.bus.connect(regBusArbiter.out);
        eepAccess.req.connect(eepQueue.deq);
        collector.eep.connect(eepAccess.rsp);
        eepAccess.chipId.assign(id);
        eepAccess.bootActive.assign(bootLoader.booting);
        eepAccess.bootCmd.connect(bootLoader.i2cCmd);
        bootLoader.i2cRsp.connect(eepAccess.bootRsp);
        eepAccess.bootAbort.assign(bootLoader.i2cAbort);
        pins.connect(eepAccess.pins);
        booting.assign(bootLoader.booting);
        bootDone.assign(bootLoader.bootDone);
        bootError.assign(bootLoader.bootError);
        bootStatus.assign(bootLoader.bootStatus);
    }

    /** The active report's inputs: the fault lines, and its configuration from the registers (docs/th2-nma.md). */
    private void connectActiveReport(UInt id) {
        activeReport.faults.assign(faults);
        activeReport.chipId.assign(id);
        activeReport.cycle.assign(cycleCount);
        activeReport.enable.assign(regs.value(REPORT_ENABLE));
        activeReport.mask.assign(regs.value(FAULT_MASK));
        activeReport.routeLo.assign(regs.value(REPORT_ROUTE_LO));
        activeReport.routeHi.assign(regs.value(REPORT_ROUTE_HI));
        activeReport.dest.assign(regs.value(REPORT_DEST));
    }

    /** The NMA's statistics: the cycle count and the NMP requests served and dropped. */
    private void countStatistics() {
        cycleCount.assign(cycleCount.add(1));
        cycle.assign(cycleCount);
        when(distributor.dispatched, () -> requests.assign(requests.add(1)));
        crcErrors.assign(crcErrors.add(distributor.crcDrop.addW(extCrcDrop)));
        destIdDrops.assign(destIdDrops.add(distributor.destIdDrop.addW(extDestIdDrop)));
        when(distributor.malformedDrop, () -> malformedDrops.assign(malformedDrops.add(1)));
    }

    /** The common registers the hardware drives: identity, statistics, fault status and pending faults. */
    private void hardwareRegisters() {
        regs.hw(CHIP_TYPE).assign(lit(chip.code(), 64));
        regs.hw(NMA_VERSION).assign(lit(VERSION, 64));
        regs.hw(PORT_COUNT).assign(lit(ports, 64));
        regs.hw(CYCLE_COUNT).assign(cycleCount);
        regs.hw(FAULT_STATUS).assign(activeReport.status);
        regs.hw(REPORT_SEQ).assign(activeReport.seq.pad(64));
        regs.hw(NMP_REQUESTS).assign(requests);
        regs.hw(NMP_CRC_ERRORS).assign(crcErrors);
        regs.hw(NMP_DESTID_DROPS).assign(destIdDrops);
        regs.hw(NMP_MALFORMED_DROPS).assign(malformedDrops);
        int n = faultSources.size();
        for (int k = 0; k * 64 < n; k++) {
            int hi = Math.min(n, 64 * k + 64) - 1;
            regs.hw(FAULT_PENDING + k).assign(activeReport.pendingSet.bits(hi, 64 * k).pad(64));
        }

    }

    /** The chip's own registers: hooks and values become ports of the core. */
    private void chipRegisterPorts(List<RegDef> chipRegs) {
        Set<String> common = Set.copyOf(common(faultSources.size()).stream().map(RegDef::name).toList());
        for (RegDef d : chipRegs) {
            if (common.contains(d.name())) {
                throw new HdlException("chip register " + d.name() + " clashes with a common NMA register");
            }
            if (d.access() != RegDef.Access.RW) {
                UInt u = input(UInt(64)).named("hw_" + d.name());
                regs.hw(d.name()).assign(u);
                chipHw.put(d.name(), u);
            }
            if (d.access() != RegDef.Access.RO) {
                UInt v = output(UInt(64)).named(d.name());
                v.assign(regs.value(d.name()));
                chipValue.put(d.name(), v);
            }
            if (d.access() == RegDef.Access.RW) {
                Bool w = output(Bool()).named("wr_" + d.name());
                w.assign(regs.written(d.name()));
                chipWritten.put(d.name(), w);
            }
        }
    }

    /** NRC core with the E2PROM seam: 15-bit addresses, 24 ports. */
    public static NmaCore nrc(List<FaultSource> faults, List<RegDef> chipRegs) {
        return new NmaCore(ChipType.NRC, ChipType.NRC.registerAddressBits(), Th2.NRC_PORTS, faults, chipRegs);
    }

    /** NRC core with eep_access and the power-up load built in. */
    public static NmaCore nrc(EepParams eep, List<FaultSource> faults, List<RegDef> chipRegs) {
        return new NmaCore(ChipType.NRC, ChipType.NRC.registerAddressBits(), Th2.NRC_PORTS, faults, chipRegs, eep);
    }

    /** NIC core with eep_access and the power-up load built in: 12-bit addresses, {@code ports} network ports. */
    public static NmaCore nic(EepParams eep, int ports, List<FaultSource> faults, List<RegDef> chipRegs) {
        return new NmaCore(ChipType.NIC, ChipType.NIC.registerAddressBits(), ports, faults, chipRegs, eep);
    }

    /** Input of a chip register's hardware hook (RO value or W1C set bits), driven by the chip. */
    public UInt hw(String name) {
        UInt u = chipHw.get(name);
        if (u == null) {
            throw new HdlException("no chip RO/W1C register " + name + "; chip registers: " + chipHw.keySet());
        }
        return u;
    }

    /** Value output of a chip RW or W1C register. */
    public UInt value(String name) {
        UInt u = chipValue.get(name);
        if (u == null) {
            throw new HdlException("no chip RW/W1C register " + name + "; chip registers: " + chipValue.keySet());
        }
        return u;
    }

    /** The value a register write carries, valid in the cycle a {@link #written} strobe is high. */
    public UInt writeData() {
        return writeData;
    }

    /**
     * Write strobe of a chip RW register: high in the cycle it is written (management or power-up load); the value
     * written is {@link #writeData()} then, and {@link #value} from the next cycle on.
     */
    public Bool written(String name) {
        Bool b = chipWritten.get(name);
        if (b == null) {
            throw new HdlException("no chip RW register " + name + "; chip RW registers: " + chipWritten.keySet());
        }
        return b;
    }

    /** Drives port {@code p}'s bank from its link layer's status and this chip's identity word for the port. */
    public void portStatus(int p, PortStatus s, UInt ownIdentity) {
        hw(portReg(p, PORT_IDENTITY)).assign(ownIdentity);
        UInt[] w = s.words();
        for (int i = 0; i < w.length; i++) {
            hw(portReg(p, PORT_STATUS_REGISTERS[i])).assign(w[i]);
        }
    }

    /** Names of the chip registers whose hardware hook the chip must drive. */
    public List<String> chipHooks() {
        return List.copyOf(chipHw.keySet());
    }

    /** The register map of this core, one line per register (what {@code ./hdl regmap} prints). */
    public String map() {
        return RegisterFile.map(addrBits, regMap);
    }
}
