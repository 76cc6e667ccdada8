package org.flitkit.rtl.nma.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.random.RandomGenerator;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.Runs;
import org.flitkit.rtl.nma.TestPackets;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpPayload;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link Responses}: the hardware response and error-response builders against the software format model. */
@ExtendWith(TestbenchExtension.class)
class ResponsesTest {
    static final class Dut extends Module {
        final UInt req = input(UInt(Th2.PACKET_BITS));
        final UInt chipId = input(UInt(16));
        final UInt data = input(UInt(Th2.NMP_DATA_BITS));
        final UInt errCode = input(UInt(8));
        final UInt errIndex = input(UInt(3));
        final UInt resp = output(UInt(Th2.PACKET_BITS));
        final UInt err = output(UInt(Th2.PACKET_BITS));

        Dut(ChipType chip) {
            resp.assign(Responses.response(req, chip, chipId, Responses.responseType(req), data));
            err.assign(Responses.errorResponse(req, chip, chipId, errCode, errIndex));
        }
    }

    @Test
    void responsesMatchTheSoftwareModelBitForBit(RunConfig cfg) {
        for (ChipType chip : ChipType.values()) {
            try (Testbench<Dut> tb = Testbench.create(() -> new Dut(chip), cfg.part(chip.name()))) {
                Simulator sim = tb.sim();
                Dut d = tb.dut();
                RandomGenerator rnd = tb.rng("packets");
                ErrorCode[] codes = ErrorCode.values();
                for (int i = 0; i < 150; i++) {
                    int me = rnd.nextInt(0x10000);
                    ManagementPacket req = i % 3 == 2 ? TestPackets.eepromRequest(rnd, chip, me)
                            : TestPackets.registerRequest(rnd, chip, rnd.nextBoolean() ? me : Th2.CHIP_ID_ANY, chip.registerAddressBits());
                    NmpPayload payload = req.payload() instanceof RegisterPayload rp
                            ? (req.nmpType() == NmpType.REG_READ_REQ
                            ? rp.answeredWith(rp.addresses().stream().map(a -> rnd.nextLong()).toList()) : rp.withoutData())
                            : req.payload() instanceof EepromPayload ep
                            ? (req.nmpType() == NmpType.EEP_READ_REQ
                            ? ep.answeredWith(ep.addresses().stream().map(a -> rnd.nextInt(256)).toList()) : ep.withoutData())
                            : req.payload();
                    ManagementPacket expected = req.response(me, payload);
                    ErrorCode ec = codes[rnd.nextInt(codes.length)];
                    int idx = rnd.nextBoolean() ? 7 : rnd.nextInt(6);
                    ManagementPacket expectedErr = req.errorResponse(me, ec, idx);
                    sim.poke(d.req, TestPackets.big(req));
                    sim.poke(d.chipId, me);
                    sim.poke(d.data, payload.encode().toBigInteger());
                    sim.poke(d.errCode, ec.code());
                    sim.poke(d.errIndex, idx);
                    tb.run(1);
                    assertThat(TestPackets.bits(sim.peekBig(d.resp))).as("response %d", i).isEqualTo(expected.toBits());
                    assertThat(TestPackets.bits(sim.peekBig(d.err))).as("error %d", i).isEqualTo(expectedErr.toBits());
                }
            }
        }
    }

    @Test
    void errorResponseToRawUnknownTypesMatchesErrorResponseTo(RunConfig cfg) {
        try (Testbench<Dut> tb = Testbench.create(() -> new Dut(ChipType.NRC), cfg)) {
            Simulator sim = tb.sim();
            Dut d = tb.dut();
            RandomGenerator rnd = tb.rng("packets");
            for (int code = 0; code < 64; code++) {
                ManagementPacket req = TestPackets.registerRequest(rnd, ChipType.NRC, 0x55, 15);
                BitVector raw = TestPackets.withRawType(req, code);
                ManagementPacket expected = ManagementPacket.errorResponseTo(raw, ChipType.NRC, 0x55, ErrorCode.BAD_TYPE, 7);
                sim.poke(d.req, raw.toBigInteger());
                sim.poke(d.chipId, 0x55);
                sim.poke(d.errCode, ErrorCode.BAD_TYPE.code());
                sim.poke(d.errIndex, 7);
                tb.run(1);
                assertThat(sim.peekBig(d.err)).as("raw type 0x%02x", code).isEqualTo(TestPackets.big(expected));
                assertThat(expected.nmpType()).isEqualTo(code >> 3 == 2 ? NmpType.EEP_ERROR_RESP : NmpType.REG_ERROR_RESP);
            }
        }
    }
}
