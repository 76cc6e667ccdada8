package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.BeatMonitor;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Receive dispatch under seeded random packets of every type with right and wrong keys, closed QPs, unknown types
 * and bad lengths, random idle beats and random backpressure on every output (docs/chpp-receive-engine.md,
 * "ReceiveDispatch"): exact packets in order per output, nothing refused reaches an upload stream, every counter
 * exact, every refusal event exact and in order.
 */
@ExtendWith(TestbenchExtension.class)
class ReceiveDispatchTest {
    static final int CE = HeaderLayout.S_FLAG_CE;
    static final int LAST = HeaderLayout.S_FLAG_LAST;
    static final int RESP = HeaderLayout.S_FLAG_RESP;
    static final int OK = ReceiveDispatch.FMT_TYPE;

    static int beats(int len) {
        return (len + 15) / 16;
    }

    /** Loads random keys: QPs 0..27 open, QP 5 written closed, 28..31 never written (closed by reset). */
    static void loadKeys(DispatchHarness b, Rng rng) {
        for (int q = 0; q < 28; q++) {
            b.setKey(q, rng.nextInt(1 << 16), q != 5);
        }
    }

    static List<BigInteger> randomPacket(DispatchHarness b, Rng rng) {
        int dst = rng.nextInt(256);
        int qp = dst & 31;
        int src = rng.nextInt(256);
        // right key 70% of the time (to a closed QP this is still refused)
        int magic = rng.chance(0.7) ? b.keys[qp] : rng.nextInt(1 << 16);
        double r = rng.nextDouble();
        if (r < 0.3) {
            int len = rng.chance(0.05) ? 2048 : rng.nextInt(200);
            return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.NAP.code(), CE | LAST, len, magic, src, dst, 0), beats(len));
        }
        if (r < 0.65) {
            int len = rng.chance(0.05) ? 4096 : 1 + rng.nextInt(160);
            int[] flags = {0, LAST, CE | LAST, RESP, RESP | LAST, RESP | CE | LAST};
            return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), flags[rng.nextInt(flags.length)], len, magic,
                    src, dst, rng.nextLong() >>> 17), beats(len));
        }
        if (r < 0.75) {
            return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.GET.code(), LAST, 32, magic, src, dst, 0), 2);
        }
        if (r < 0.8) {
            // the header-only end of a failed GET answer: accepted like any PUT (refused by the key first)
            return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), CE | LAST | RESP, 0, magic, src, dst,
                    rng.nextLong() >>> 17), 0);
        }
        if (r < 0.85) {
            // PKTType 0 or a TLP that is not a 4-DW memory write
            boolean zero = rng.chance(0.5);
            int len = rng.nextInt(64);
            return DispatchHarness.packet(rng, DispatchHarness.header(zero ? OK : 0x40, zero ? 0 : 1 + rng.nextInt(3), LAST, len, magic,
                    src, dst, 0), beats(len));
        }
        // bad lengths: NAP above 2 KB, GET not 32, empty PUT, Length above 4096, Length 0 with payload
        switch (rng.nextInt(5)) {
            case 0:
                return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.NAP.code(), CE | LAST, 2049 + rng.nextInt(50), magic, src, dst, 0), 132);
            case 1: {
                int len = rng.chance(0.5) ? 16 : 48;
                return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.GET.code(), LAST, len, magic, src, dst, 0), beats(len));
            }
            case 2: {
                // an empty PUT that is not a failed GET answer (any S_Flag but exactly CE+LAST+RESP)
                int[] flags = {0, LAST, CE | LAST, RESP, RESP | LAST};
                return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), flags[rng.nextInt(flags.length)], 0, magic,
                        src, dst, 64), 0);
            }
            case 3:
                return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), LAST, 4097 + rng.nextInt(100), magic, src, dst, 0), 3);
            default:
                return DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.NAP.code(), CE | LAST, 0, magic, src, dst, 0), 1 + rng.nextInt(3));
        }
    }

    static void run(RunConfig cfg, String part, int packets, double gapP, double readyP) {
        try (DispatchHarness b = new DispatchHarness(cfg, part, gapP, readyP)) {
            Rng rng = b.tb.rng("traffic");
            loadKeys(b, rng);
            for (int i = 0; i < packets; i++) {
                b.send(randomPacket(b, rng));
            }
            b.tb.reset(1);
            b.tb.runUntil("every packet dispatched or refused", b::done, 300L * packets);
            b.tb.run(20);
            b.tb.finish();
            ReceiveDispatch d = b.dut;
            assertThat(b.peek(d.putPackets)).as("PUT").isEqualTo(b.expPut);
            assertThat(b.peek(d.napPackets)).as("NAP").isEqualTo(b.expNap);
            assertThat(b.peek(d.getPackets)).as("GET").isEqualTo(b.expGet);
            assertThat(b.peek(d.refusedMagic)).as("refused by QPMagic").isEqualTo(b.expMagic);
            assertThat(b.peek(d.refusedType)).as("refused by type").isEqualTo(b.expType);
            assertThat(b.peek(d.refusedLength)).as("refused by length").isEqualTo(b.expLength);
            assertThat(b.peek(d.events)).as("events").isEqualTo(b.expEvents);
            assertThat(b.peek(d.framingErrors)).isZero();
            assertThat(b.putBoard.matched() + b.napBoard.matched() + b.getBoard.matched() + b.expMagic + b.expType + b.expLength)
                    .isEqualTo(packets);
            // every kind of outcome happened
            assertThat(List.of(b.expPut, b.expNap, b.expGet, b.expMagic, b.expType, b.expLength, b.expEvents)).allMatch(n -> n > 0);
            System.out.printf("dispatch %s (seed %d): %d packets in %d cycles: PUT %d NAP %d GET %d, refused magic %d (events %d) type %d length %d%n",
                    part, cfg.seed(), packets, b.tb.cycle(), b.expPut, b.expNap, b.expGet, b.expMagic, b.expEvents, b.expType, b.expLength);
        }
    }

    @Test
    void randomPacketsWithRandomBackpressure(RunConfig cfg) {
        run(cfg, "random", 1500, 0.2, 0.6);
    }

    @Test
    void heavyBackpressure(RunConfig cfg) {
        run(cfg, "slow", 400, 0.0, 0.15);
    }

    @Test
    void fullRateDispatchesOneBeatPerCycleAndRefusesAtLineRate(RunConfig cfg) {
        try (DispatchHarness b = new DispatchHarness(cfg, "rate", 0.0, 1.0)) {
            Rng rng = b.tb.rng("traffic");
            b.setKey(3, 0x1234, true);
            int n = 50;
            for (int i = 0; i < n; i++) {
                // alternate accepted 128-byte PUTs and refused ones (wrong key, no CE: no event)
                int magic = i % 2 == 0 ? 0x1234 : 0x4321;
                b.send(DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), LAST, 128, magic, 0, 3, 0x1000), 8));
            }
            b.tb.reset(1);
            long c0 = b.tb.cycle();
            b.tb.runUntil("all", b::done, 2000);
            b.tb.finish();
            // 50 packets of 9 beats, one beat per cycle, after the 1 cycle of the key write: 1 + 450 cycles
            assertThat(b.monitors.get(0).beatCount).isEqualTo(25 * 9);
            assertThat(b.tb.cycle() - c0).isEqualTo(451L);
            assertThat(b.peek(b.dut.refusedMagic)).isEqualTo(25);
            assertThat(b.peek(b.dut.events)).isZero();
        }
    }

    @Test
    void aKeyWriteWhileAHeaderWaitsDoesNotPullBackTheOfferedBeat(RunConfig cfg) {
        try (DispatchHarness b = new DispatchHarness(cfg, "rekey", 0.0, 1.0)) {
            Rng rng = b.tb.rng("traffic");
            b.setKey(2, 0x55, true);
            List<BigInteger> p = DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.NAP.code(), CE | LAST, 40, 0x55, 9, 2, 0), 3);
            b.napBoard.expect(p);
            b.driver.packet(p);
            BeatMonitor nap = b.monitors.get(1);
            nap.forceReady = false;
            b.tb.reset(1);
            b.tb.run(10);
            // the NAP header is offered and waits; software closes the QP meanwhile
            b.setKey(2, 0x66, false);
            b.tb.run(10);
            nap.forceReady = true;
            b.tb.runUntil("delivered", b::done, 100);
            // decided when first offered: delivered whole (the monitor checks the hold rule every cycle)
            assertThat(b.peek(b.dut.napPackets)).isEqualTo(1);
            assertThat(b.peek(b.dut.refusedMagic)).isZero();
            // the next packet for QP 2 sees the closed QP: refused, with its event
            b.send(DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.NAP.code(), CE | LAST, 40, 0x55, 9, 2, 0), 3));
            b.tb.runUntil("refused", b::done, 100);
            b.tb.finish();
            assertThat(b.peek(b.dut.refusedMagic)).isEqualTo(1);
            assertThat(b.peek(b.dut.events)).isEqualTo(1);
            assertThat(b.eventBoard.matched()).isEqualTo(1);
        }
    }

    @Test
    void aFailedGetAnswerPassesAndEveryOtherEmptyPutIsRefused(RunConfig cfg) {
        try (DispatchHarness b = new DispatchHarness(cfg, "failedAnswer", 0.0, 1.0)) {
            b.setKey(4, 0x77, true);
            // header-only PUTs to QP 4 with the right key: only CE+LAST+RESP goes on to PUT upload
            List<BigInteger> failed = List.of(DispatchHarness.header(OK, PktType.PUT.code(), CE | LAST | RESP, 0, 0x77, 0x21, 4, 0x1234_5670L));
            b.putBoard.expect(failed);
            b.driver.packet(failed);
            for (int f : new int[] {CE | LAST, LAST | RESP, CE | RESP, RESP, 0}) {
                b.driver.packet(List.of(DispatchHarness.header(OK, PktType.PUT.code(), f, 0, 0x77, 0x21, 4, 0x1234_5670L)));
            }
            // with a wrong key it is refused like any PUT with CE: QP_MAGIC_REFUSED at its Address, Length 0, Resp
            b.send(List.of(DispatchHarness.header(OK, PktType.PUT.code(), CE | LAST | RESP, 0, 0x78, 0x21, 4, 0x1234_5680L)));
            b.tb.reset(1);
            b.tb.runUntil("all", () -> b.driver.idle() && b.done(), 200);
            b.tb.run(10);
            b.tb.finish();
            assertThat(b.peek(b.dut.putPackets)).isEqualTo(1);
            assertThat(b.putBoard.matched()).isEqualTo(1);
            assertThat(b.peek(b.dut.refusedLength)).isEqualTo(5);
            assertThat(b.peek(b.dut.refusedMagic)).isEqualTo(1);
            assertThat(b.peek(b.dut.events)).isEqualTo(1);
            assertThat(b.eventBoard.matched()).isEqualTo(1);
        }
    }

    @Test
    void aPacketWhoseBeatsDisagreeWithItsLengthIsCountedAndNeverHangs(RunConfig cfg) {
        try (DispatchHarness b = new DispatchHarness(cfg, "framing", 0.0, 1.0)) {
            Rng rng = b.tb.rng("traffic");
            b.setKey(1, 7, true);
            // Length 64 (4 payload beats) sent with 2 and with 6 payload beats, then a good one
            List<BigInteger> shortP = DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), LAST, 64, 7, 0, 1, 0), 2);
            List<BigInteger> longP = DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), LAST, 64, 7, 0, 1, 0), 6);
            List<BigInteger> good = DispatchHarness.packet(rng, DispatchHarness.header(OK, PktType.PUT.code(), LAST, 64, 7, 0, 1, 0), 4);
            for (var p : List.of(shortP, longP, good)) {
                b.putBoard.expect(p);
                b.driver.packet(p);
            }
            b.tb.reset(1);
            b.tb.runUntil("all", b::done, 200);
            b.tb.finish();
            assertThat(b.peek(b.dut.framingErrors)).isEqualTo(2);
            assertThat(b.peek(b.dut.putPackets)).isEqualTo(3);
        }
    }
}
