package org.flitkit.env.nic.fabric;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.env.nic.NicEnv;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.NicDriver;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nrc.Requests;
import org.flitkit.env.nrc.chip.FabricSpec;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * The management server's machine cabled to a fabric of whole NRCs: host memory and PCIe, the driver and the
 * request and report endpoints (as {@link NicEnv}), and {@link NicFabricBoard}. NRC i configures CHIP_ID
 * {@link #chipId}(i) from its E2PROM at power-up. docs/th2-nrc-switch.md, "Fabrics".
 */
public final class FabricEnv implements AutoCloseable {
    public final Testbench<NicFabricBoard> tb;
    public final NicFabricBoard dut;
    public final FabricSpec spec;
    public final PcieHost host;
    public final NicDriver driver;
    public final MgmtEndpoint endpoint;
    public final MgmtEndpoint reports;

    /** CHIP_ID of NRC {@code i} in a fabric. */
    public static int chipId(int i) {
        return 0x0010 + i;
    }

    /** NRC {@code i}'s E2PROM: a boot image setting its CHIP_ID. */
    public static byte[] nrcEeprom(int i) {
        return BootImage.at(0, BootImage.build(List.of(new BootImage.Record(0x000, chipId(i)))));
    }

    public static NicFabricBoard board(FabricSpec spec, EepParams eep, int cableLatency) {
        List<byte[]> images = new ArrayList<>();
        for (int i = 0; i < spec.chips(); i++) {
            images.add(nrcEeprom(i));
        }
        return new NicFabricBoard(spec, eep, NicEnv.nicEeprom(), images, cableLatency);
    }

    /** Builds the board, resets it, waits for every power-up load and for the server's link, opens the endpoints. */
    public FabricEnv(FabricSpec spec, RunConfig cfg, EepParams eep, int cableLatency, PcieParams pcie, HostSoftware software) {
        this(spec, cfg, eep, cableLatency, pcie, software, java.util.Map.of());
    }

    /**
     * As above, with dead lanes on some fabric cables from power-up: {@code lanesDown} maps a cable's index in
     * {@link FabricSpec#cables()} to its dead lanes (8-bit mask, both directions); those links train narrower.
     */
    public FabricEnv(FabricSpec spec, RunConfig cfg, EepParams eep, int cableLatency, PcieParams pcie, HostSoftware software,
            java.util.Map<Integer, Integer> lanesDown) {
        this.spec = spec;
        lanesDown.forEach((cable, mask) -> {
            if (cable < 0 || cable >= spec.cables().size()) {
                throw new IllegalArgumentException("fabric " + spec.name() + " has cables 0.." + (spec.cables().size() - 1) + ", got " + cable);
            }
            if (mask < 0 || mask > 0xFF) {
                throw new IllegalArgumentException("a dead-lane mask has 8 bits (0..0xFF), got 0x" + Integer.toHexString(mask));
            }
        });
        tb = Testbench.create(spec.chips() + " NRCs of fabric " + spec.name() + " and the server's NIC", () -> board(spec, eep, cableLatency), cfg);
        dut = tb.dut();
        lanesDown.forEach((cable, mask) -> tb.sim().poke(dut.lanesDown.get(cable), mask));
        host = tb.add(new PcieHost("host", new HostMemory(), pcie).dma(dut.dmaRq, dut.dmaCpl).mmio(dut.mmio).irq(dut.irq));
        tb.traces(dut.nicChip.nic.linkOut.valid, dut.nicChip.nic.linkIn.valid, dut.nicChip.port.status.up, dut.booting);
        tb.phase("booting: power-up E2PROM loads of the NIC and " + spec.chips() + " NRCs");
        tb.reset(2);
        tb.runUntil("the power-up loads of the NIC and every NRC", () -> !tb.sim().peekBool(dut.booting), NicEnv.BOOT_TIMEOUT);
        tb.phase("training the server's link");
        tb.runUntil("the server's link", () -> tb.sim().peekBool(dut.nicChip.port.status.up), 10_000);
        tb.phase("opening the driver's rings");
        driver = new NicDriver(tb, host, software);
        endpoint = driver.open(NicEnv.REQUEST_VP, NicEnv.RING_LOG2);
        reports = driver.open(NicEnv.REPORT_VP, NicEnv.RING_LOG2);
        tb.runUntil("the BAR set-up", host::idle, 1_000);
        tb.phase(null);
    }

    /** NRC {@code chip} as a request target: its source routes there and back ({@link FabricSpec#path}). */
    public Target target(int chip) {
        Requests.Path p = spec.path(chip);
        return new Target(ChipType.NRC, Th2.CHIP_ID_ANY, new RoutingField(p.forward()), new RoutingField(p.returnRoute(spec.serverPort())));
    }

    @Override
    public void close() {
        tb.close();
    }
}
