package org.flitkit.env.nrc;

import java.util.List;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.stream.Throttle;

/**
 * Every error path through the integrated NRC, each followed by a good request so the plane is shown
 * not to hang: unmapped address (first and second register), read-only write, bad count (register and
 * E2PROM), bad type (register and E2PROM class), bad DestType, reserved bit set, a chip-to-server type;
 * wrong DestID before and after CHIP_ID is configured and a corrupted CRC, dropped unanswered and
 * counted in NMP_DESTID_DROPS / NMP_CRC_ERRORS / NMP_MALFORMED_DROPS. Spec: docs/th2-formats.md (error
 * codes); DestID rule in docs/th2-nrc.md.
 */
public final class NrcErrorsScenario {
    static final int PORT = 9;
    static final long WAIT = 3_000;

    private NrcErrorsScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, Throttle.NONE)) {
            int any = 0xFFFF;
            // error responses from reg_access
            step(env, Requests.read(PORT, any, env.tid(), List.of(0x0FFF)));
            step(env, Requests.read(PORT, any, env.tid(), List.of(0x008, 0x0FFF)));
            step(env, Requests.write(PORT, any, env.tid(), List.of(0x008, 0x7FFF), List.of(5L, 6L)));
            step(env, Requests.write(PORT, any, env.tid(), List.of(0x001), List.of(1L)));
            BitVector good = Requests.read(PORT, any, 0, List.of(0x008)).toBits();
            raw(env, RawRequests.withPayload(retid(good, env.tid()), PayloadLayouts.REGISTER.COUNT, 0), ErrorCode.BAD_COUNT);
            raw(env, RawRequests.withPayload(retid(good, env.tid()), PayloadLayouts.REGISTER.COUNT, 3), ErrorCode.BAD_COUNT);
            raw(env, RawRequests.withPayloadBit(retid(good, env.tid()), 170), ErrorCode.RESERVED_NOT_ZERO);
            raw(env, RawRequests.with(retid(good, env.tid()), PacketLayout.BODY1.NMP_TYPE, 0x0C), ErrorCode.BAD_TYPE);
            raw(env, RawRequests.with(retid(good, env.tid()), PacketLayout.HEAD.DEST_TYPE, ChipType.NIC.code()), ErrorCode.BAD_DEST_TYPE);
            // and from eep_access
            BitVector eep = Requests.eepromRead(PORT, any, 0, List.of(0x10)).toBits();
            raw(env, RawRequests.withPayload(retid(eep, env.tid()), PayloadLayouts.EEPROM.COUNT, 7), ErrorCode.BAD_COUNT);
            raw(env, RawRequests.with(retid(eep, env.tid()), PacketLayout.BODY1.NMP_TYPE, 0x14), ErrorCode.BAD_TYPE);

            // dropped without an answer, counted
            dropped(env, Requests.read(PORT, 0x0042, env.tid(), List.of(0x008)).toBits());          // DestID, not configured
            dropped(env, Requests.corrupted(Requests.read(PORT, any, env.tid(), List.of(0x008)).toBits())); // CRC
            dropped(env, RawRequests.with(retid(good, env.tid()), PacketLayout.BODY1.NMP_TYPE, NmpType.REG_READ_RESP.code())); // malformed
            step(env, Requests.write(PORT, any, env.tid(), List.of(0x000), List.of(0x0042L)));
            dropped(env, Requests.read(PORT, 0x0043, env.tid(), List.of(0x008)).toBits());          // DestID, configured
            step(env, Requests.read(PORT, 0x0042, env.tid(), List.of(0x008)));                      // own ID accepted
            step(env, Requests.read(PORT, any, env.tid(), List.of(0x008)));                         // and all ones
            // a packet for another chip entering a port leaves on toSwitch, unchanged, and is counted
            BitVector transit = Requests.read(PORT, any, env.tid(), List.of(0x008)).toBuilder()
                    .route(org.flitkit.formats.th2.RoutingField.of(3, 4)).build().toBits();
            env.server.send(PORT, transit);
            env.idle(WAIT);
            if (env.server.transit().size() != 1 || !env.server.transit().get(0).bits().equals(transit)
                    || env.server.transit().get(0).port() != PORT) {
                throw env.tb.fail("the transit packet did not leave on toSwitch " + PORT + " unchanged");
            }
            counters(env, 1, 2, 1);
            env.tb.finish();
            return env.result();
        }
    }

    /** A well-formed request; the reference predicts its answer (error or not). */
    static void step(NrcEnv env, ManagementPacket req) {
        env.submit(PORT, req);
        env.drain(WAIT);
    }

    /** Raw bits that must get error response {@code code} for the whole request. */
    static void raw(NrcEnv env, BitVector bits, ErrorCode code) {
        env.submitRaw(PORT, bits, ManagementPacket.errorResponseTo(bits, ChipType.NRC, env.ref.chipId(), code, PayloadLayouts.WHOLE_REQUEST));
        env.drain(WAIT);
    }

    /** Raw bits the chip must drop: no answer within the wait. */
    static void dropped(NrcEnv env, BitVector bits) {
        env.submitRaw(PORT, bits, null);
        env.idle(WAIT);
    }

    static BitVector retid(BitVector bits, int tid) {
        return RawRequests.with(bits, PacketLayout.BODY1.TRANSACTION_ID, tid);
    }

    /** Reads the drop counters (and the NRC's packets-in counter) and checks them. */
    static void counters(NrcEnv env, long crc, long destId, long malformed) {
        ManagementPacket req = Requests.read(PORT, 0xFFFF, env.tid(), List.of(0x021, 0x022));
        env.submitRaw(PORT, req.toBits(), env.ref.readAnswer(req, List.of(crc, destId)));
        env.drain(WAIT);
        ManagementPacket req2 = Requests.read(PORT, 0xFFFF, env.tid(), List.of(0x023, 0x0100));
        env.submitRaw(PORT, req2.toBits(), env.ref.readAnswer(req2, List.of(malformed, 0L)));
        env.drain(WAIT);
        // NRC_NMP_IN: every request packet so far reached the NMA, this one included; NRC_TRANSIT_PACKETS: 1
        ManagementPacket req3 = Requests.read(PORT, 0xFFFF, env.tid(), List.of(0x0101, 0x0102));
        env.submitRaw(PORT, req3.toBits(), env.ref.readAnswer(req3, List.of(env.sent + 1, 1L)));
        env.drain(WAIT);
    }
}
