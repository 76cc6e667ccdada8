package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import java.util.List;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.link.LinkRegisters;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.I2cEeprom;
import org.flitkit.rtl.nma.I2cPins;
import org.flitkit.rtl.nma.NmaCore;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.link.PortStatus;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.Th2;

/**
 * The NRC as the management plane sees it: its ports (24 on the TH-2 NRC; flits in and out, packets for other chips on
 * {@code toSwitch}), the relay-station plane, the NMA core (register map, eep_access, power-up load)
 * on the I2C pins of the board's 24xx512 model, per-port link status and fault inputs.
 * Spec: 20-th2-management.md, "Where management packets go" and "NMA submodules"; docs/th2-nrc.md.
 */
public final class Nrc extends Module {
    public final RsGeometry geometry;
    public final Vec<Decoupled<UInt>> portIn;
    public final Vec<Decoupled<UInt>> portOut;
    public final Vec<Decoupled<UInt>> toSwitch;
    /** what each port's link layer reports (neighbour identity, counters) */
    public final Vec<PortStatus> link;
    /** fault levels, bit i = {@code NrcRegisters.faultSources(ports).get(i)} */
    public final UInt faults;
    /** CHIP_ID (0xFFFF until configured) */
    public final UInt chipId;
    /** the I2C lines between eep_access and the E2PROM (wired-AND, for waveforms) */
    public final Bool scl;
    public final Bool sda;

    /** the power-up configuration load from the E2PROM is running (requests wait), has ended, has failed */
    public final Bool booting;
    public final Bool bootDone;
    public final Bool bootError;

    /** the switch core's side of the NMA (null for the management plane alone): tables, counters, BIST */
    public final SwitchSide sw;

    public final EepParams eepParams;
    public final NrcPlane plane;
    public final TableConfig tables;
    public final NmaCore nma;
    public final I2cEeprom eeprom;

    /** An NRC with the default (board) E2PROM timing and an erased E2PROM. */
    public Nrc() {
        this(EepParams.DEFAULT, null);
    }

    /**
     * @param eepParams E2PROM path timing (EepParams.FAST in unit tests)
     * @param eepromImage initial E2PROM contents from address 0 (null: erased, all 0xFF)
     */
    public Nrc(EepParams eepParams, byte[] eepromImage) {
        this(eepParams, eepromImage, null);
    }

    /**
     * @param eepParams E2PROM path timing (EepParams.FAST in unit tests)
     * @param eepromImage initial E2PROM contents from address 0 (null: erased, all 0xFF)
     * @param switchParams the switch core this NMA serves ({@link NrcChip}), or null for the management plane
     *                     alone: packets for other chips leave on {@code toSwitch}, the table registers read 0
     */
    public Nrc(EepParams eepParams, byte[] eepromImage, SwitchParams switchParams) {
        // the relay-station plane has the core's rows and columns (RsGeometry.of); the TH-2 one without a core
        RsGeometry geometry = switchParams == null ? RsGeometry.TH2 : RsGeometry.of(switchParams);
        this.geometry = geometry;
        int n = geometry.ports();
        portIn = input(Vec(n, RsMesh::flits));
        portOut = output(Vec(n, RsMesh::flits));
        toSwitch = output(Vec(n, RsMesh::flits));
        link = input(Vec(n, PortStatus::new));
        faults = input(UInt(NrcRegisters.faultSources(n).size()));
        chipId = output(UInt(Th2.CHIP_ID_BITS));
        scl = output(Bool());
        sda = output(Bool());
        booting = output(Bool());
        bootDone = output(Bool());
        bootError = output(Bool());
        plane = instance(new NrcPlane(geometry));
        this.eepParams = eepParams;
        nma = instance(NmaCore.nrc(eepParams, NrcRegisters.faultSources(n), NrcRegisters.chipRegisters(n)));
        eeprom = instance(new I2cEeprom(eepParams, eepromImage));

        for (int p = 0; p < n; p++) {
            plane.portIn.get(p).connect(portIn.get(p));
            portOut.get(p).connect(plane.portOut.get(p));
            toSwitch.get(p).connect(plane.toSwitch.get(p));
        }
        nma.in.connect(plane.toNma);
        plane.fromNma.connect(nma.out);
        // a failed power-up load is the chip-level EEPROM_LOAD_FAILED fault
        int loadFailed = NrcRegisters.faultInput(n, FaultCode.EEPROM_LOAD_FAILED.code(), FaultCode.CHIP_LEVEL_PORT);
        nma.faults.assign(faults.or(nma.bootError.pad(faults.width()).shl(loadFailed).trunc(faults.width())));
        booting.assign(nma.booting);
        bootDone.assign(nma.bootDone);
        bootError.assign(nma.bootError);
        nma.extCrcDrop.assign(FALSE());
        nma.extDestIdDrop.assign(FALSE());
        UInt id = nma.chipId;
        chipId.assign(id);

        Bool sclLine = wire(Bool()).named("sclLine");
        Bool sdaLine = wire(Bool()).named("sdaLine");
        I2cPins.bus(sclLine, sdaLine, null, null, nma.pins, eeprom.pins);
        scl.assign(sclLine);
        sda.assign(sdaLine);

        tables = instance(new TableConfig(switchParams == null ? SwitchParams.TH2 : switchParams));
        tables.addrWritten.assign(nma.written(NrcRegisters.TABLE_ADDR));
        tables.addrValue.assign(nma.writeData());
        tables.dataWritten.assign(nma.written(NrcRegisters.TABLE_DATA));
        tables.dataValue.assign(nma.writeData());
        nma.hw(NrcRegisters.TABLE_PTR).assign(tables.pointer);
        nma.hw(NrcRegisters.TABLE_READ).assign(tables.entry);
        if (switchParams == null) {
            sw = null;
            tables.readData.assign(lit(0, SwitchParams.TH2.ports()));
            for (String r : List.of(NrcRegisters.MALFORMED_DROPS, NrcRegisters.UNROUTABLE_DROPS, NrcRegisters.OVERFLOW_DROPS,
                    NrcRegisters.FRAMING_ERRORS, NrcRegisters.LINK_DOWN_DROPS, NrcRegisters.TEMPERATURE)) {
                nma.hw(r).assign(lit(0, 64));
            }
        } else {
            sw = output(new SwitchSide(switchParams)).named("sw");
            sw.tableWrite.connect(tables.write);
            sw.tableRead.connect(tables.read);
            tables.readData.assign(sw.tableReadData);
            UInt regions = nma.value(NrcRegisters.TABLE_REGION);
            sw.tableRegions.localBits.assign(LayoutBits.get(regions, NrcRegisters.TABLE_REGION_FIELDS.field("local_bits")));
            sw.tableRegions.region.assign(LayoutBits.get(regions, NrcRegisters.TABLE_REGION_FIELDS.field("region")));
            sw.tableRegions.fallback.assign(nma.value(NrcRegisters.TABLE_DEFAULT).trunc(switchParams.ports()));
            nma.hw(NrcRegisters.MALFORMED_DROPS).assign(sw.malformedDrops.pad(64));
            nma.hw(NrcRegisters.UNROUTABLE_DROPS).assign(sw.unroutableDrops.pad(64));
            nma.hw(NrcRegisters.OVERFLOW_DROPS).assign(sw.overflowDrops.pad(64));
            nma.hw(NrcRegisters.FRAMING_ERRORS).assign(sw.framingErrors.pad(64));
            nma.hw(NrcRegisters.LINK_DOWN_DROPS).assign(sw.linkDownDrops.pad(64));
            nma.hw(NrcRegisters.TEMPERATURE).assign(sw.temperature.pad(64));
            sw.temperatureLimit.assign(nma.value(NrcRegisters.TEMPERATURE_LIMIT).trunc(8));
            sw.retryThreshold.assign(nma.value(NrcRegisters.RETRY_THRESHOLD).trunc(sw.retryThreshold.width()));
            for (int p = 0; p < switchParams.ports(); p++) {
                LinkRegisters.bistControl(sw.bist.get(p), nma.value(NmaRegisters.portReg(p, NmaRegisters.PORT_BIST_CTRL)));
            }
        }
        counters();
        for (int p = 0; p < n; p++) {
            nma.portStatus(p, link.get(p), NmaRegisters.identity(lit(ChipType.NRC.code(), 2), id, lit(p, RsBeat.PORT_BITS)));
        }
    }

    /** The NRC's own counters: route drops (nmp_packer), packets into the NMA, packets to the switch. */
    private void counters() {
        nma.hw(NrcRegisters.ROUTE_DROPS).assign(plane.routeDrops.pad(64));
        UInt nmpIn = regInit(UInt(64), 0).named("nmpIn");
        when(plane.toNma.fire(), () -> nmpIn.assign(nmpIn.add(1)));
        nma.hw(NrcRegisters.NMP_IN).assign(nmpIn);
        if (sw != null) {
            // in the chip every port's packets reach the switch core first, which counts what it forwards
            nma.hw(NrcRegisters.TRANSIT).assign(sw.transit);
            return;
        }
        UInt transit = regInit(UInt(64), 0).named("transit");
        Bool[] heads = new Bool[geometry.ports()];
        UInt sum = lit(0, 5);
        for (int p = 0; p < heads.length; p++) {
            Decoupled<UInt> s = plane.toSwitch.get(p);
            heads[p] = s.fire().and(s.bits.bits(Th2.FLIT_BITS - 1, Th2.FLIT_BITS - 2).eq(Th2.KIND_HEAD));
            sum = sum.add(heads[p].pad(5));
        }
        UInt total = sum;
        transit.assign(transit.add(total.pad(64)));
        nma.hw(NrcRegisters.TRANSIT).assign(transit);
    }
}
