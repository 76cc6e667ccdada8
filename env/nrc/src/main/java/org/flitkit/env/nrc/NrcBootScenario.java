package org.flitkit.env.nrc;

import java.util.List;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.Throttle;

/**
 * Power-up load from an E2PROM image: the registers it names (CHIP_ID, SCRATCH0, the report route,
 * a port's BIST_CTRL) read back through the ports with their loaded values, DestID = the loaded
 * CHIP_ID is accepted, and the image bytes read back by E2PROM requests; a request sent during the
 * load waits for it. A corrupted image leaves every register at reset and raises EEPROM_LOAD_FAILED.
 * Spec: 20-th2-management.md, "At power-up the chip loads its configuration registers".
 */
public final class NrcBootScenario {
    static final int PORT = 11;

    private NrcBootScenario() {
    }

    public static List<BootImage.Record> records() {
        return List.of(
                new BootImage.Record(0x000, 0x0042),
                new BootImage.Record(0x008, 0x5EED_0000_0000_0001L),
                new BootImage.Record(0x013, RoutingField.of(PORT).encode().toBigInteger().longValue()),
                new BootImage.Record(NmaRegisters.PORT_BASE + 4 * NmaRegisters.PORT_STRIDE + 8, 0xB157L));
    }

    public static ScenarioResult run(RunConfig cfg) {
        byte[] image = BootImage.at(0, BootImage.build(records()));
        ScenarioResult good;
        try (NrcEnv env = new NrcEnv(Testbench.create(() -> new Nrc(EepParams.FAST, image), cfg), image, Throttle.NONE)) {
            if (!env.tb.sim().peekBool(env.dut.bootDone) || env.tb.sim().peekBool(env.dut.bootError)) {
                throw env.tb.fail("the power-up load did not end cleanly");
            }
            for (BootImage.Record r : records()) {
                env.ref.load(r.address(), r.value());
            }
            env.submit(PORT, Requests.read(PORT, 0x0042, env.tid(), List.of(0x000, 0x008)));
            env.submit(PORT, Requests.read(PORT, 0x0042, env.tid(), List.of(0x013, NmaRegisters.PORT_BASE + 4 * NmaRegisters.PORT_STRIDE + 8)));
            env.submit(PORT, Requests.eepromRead(PORT, 0x0042, env.tid(), List.of(0, 1, 2, 3, 4, 5)));
            env.drain(100_000);
            env.tb.finish();
            good = env.result();
        }
        // a request sent while the load runs waits for it; a bad image leaves the registers at reset
        byte[] bad = image.clone();
        bad[10] ^= 0x01;
        try (Testbench<Nrc> tb = Testbench.create(() -> new Nrc(EepParams.FAST, bad), RunConfig.of(cfg.seed(), 0))) {
            MgmtServer server = new MgmtServer(tb, Throttle.NONE);
            List<MgmtServer.Received> got = new java.util.ArrayList<>();
            server.onReceive(got::add);
            BoardLinks.apply(tb.sim(), tb.dut());
            tb.reset(2);
            ManagementPacket req = Requests.read(PORT, 0xFFFF, 1, List.of(0x000, 0x012));
            server.send(PORT, req.toBits());
            tb.runUntil("the answer after the failed load", () -> !got.isEmpty(), 200_000);
            if (!tb.sim().peekBool(tb.dut().bootError)) {
                throw tb.fail("a corrupted image must fail the load");
            }
            long status = 1L << FaultCode.EEPROM_LOAD_FAILED.code();
            ManagementPacket expected = req.response(0xFFFF, ((org.flitkit.formats.th2.RegisterPayload) req.payload())
                    .answeredWith(List.of(0xFFFFL, status))).advance();
            if (!got.get(0).bits().equals(expected.toBits())) {
                throw tb.fail("after a failed load: expected CHIP_ID 0xffff and FAULT_STATUS 0x" + Long.toHexString(status)
                        + ", got " + ManagementPacket.parse(got.get(0).bits()));
            }
        }
        return good;
    }
}
