package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Mixed E2PROM and register traffic on NmaCore with eep_access built in (spec 20-th2-management.md, "NMA
 * submodules"; docs/th2-nma.md, "Ordering"): register requests behind a busy eep_access are not blocked by
 * it (no head-of-line blocking), so status reads are answered while an E2PROM write runs, out of order,
 * matched by TransactionID; a second E2PROM request waits for the first and is answered after it.
 */
@ExtendWith(TestbenchExtension.class)
class NmaCoreMixedTrafficTest {
    static final int ME = 0x0777;

    @Test
    void registerReadsPassAnE2promWriteInProgress(RunConfig cfg) {
        byte[] image = BootImage.build(List.of(new BootImage.Record(0x000, ME), new BootImage.Record(0x009, 0xABCDL)));
        ChipType chip = ChipType.NRC;
        try (Testbench<NmaCoreEepromTest.Board> tb = Runs.atCoreClock(() -> new NmaCoreEepromTest.Board(chip, image),
                cfg, NmaCoreEepromTest.P)) {
            NmaCoreEepromTest.Board b = tb.dut();
            RandomGenerator rnd = tb.rng("headers");
            // TIDs 1..6 in sending order: E2PROM write, two register reads, E2PROM read (waits for the write),
            // a register write and a register read behind it
            ManagementPacket eepWrite = TestPackets.header(rnd, chip, ME).transactionId(1).nmpType(NmpType.EEP_WRITE_REQ)
                    .payload(new EepromPayload(List.of(0x0100), List.of(0x5A))).build();
            ManagementPacket read1 = TestPackets.header(rnd, chip, ME).transactionId(2).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x009)).build();
            ManagementPacket read2 = TestPackets.header(rnd, chip, ME).transactionId(3).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x000, 0x009)).build();
            ManagementPacket eepRead = TestPackets.header(rnd, chip, ME).transactionId(4).nmpType(NmpType.EEP_READ_REQ)
                    .payload(EepromPayload.of(0x0100)).build();
            ManagementPacket write = TestPackets.header(rnd, chip, ME).transactionId(5).nmpType(NmpType.REG_WRITE_REQ)
                    .payload(new RegisterPayload(List.of(0x009), List.of(0x1234L))).build();
            ManagementPacket read3 = TestPackets.header(rnd, chip, ME).transactionId(6).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x009)).build();
            List<ManagementPacket> reqs = List.of(eepWrite, read1, read2, eepRead, write, read3);

            StreamPort in = StreamPort.of(b.in);
            StreamPort out = StreamPort.of(b.out);
            StreamSource source = tb.add(new StreamSource("source", in));
            tb.add(new StreamSink("sink", out));
            OutOfOrderScoreboard<Integer, BigInteger> answers = tb.add(
                    new OutOfOrderScoreboard<>("answers", v -> TestPackets.parse(v).transactionId()));
            answers.format(TestPackets::show);
            Map<Integer, Long> sent = new LinkedHashMap<>();
            Map<Integer, Long> done = new LinkedHashMap<>();
            List<Integer> order = new ArrayList<>();
            tb.add(new StreamMonitor("in_monitor", in).subscribe(v -> sent.put(TestPackets.parse(v).transactionId(), tb.cycle())));
            tb.add(new StreamMonitor("out_monitor", out).subscribe(v -> {
                int tid = TestPackets.parse(v).transactionId();
                done.put(tid, tb.cycle());
                order.add(tid);
                answers.observe(v);
            }));
            answers.expect(TestPackets.big(eepWrite.response(ME, EepromPayload.of(0x0100))));
            answers.expect(TestPackets.big(read1.response(ME, RegisterPayload.withData(0x009, 0xABCDL))));
            answers.expect(TestPackets.big(read2.response(ME, RegisterPayload.withData(0x000, ME, 0x009, 0xABCDL))));
            answers.expect(TestPackets.big(eepRead.response(ME, EepromPayload.of(0x0100).answeredWith(List.of(0x5A)))));
            answers.expect(TestPackets.big(write.response(ME, RegisterPayload.of(0x009))));
            answers.expect(TestPackets.big(read3.response(ME, RegisterPayload.withData(0x009, 0x1234L))));

            tb.reset(1);
            tb.runUntil("the power-up load", () -> tb.sim().peekBool(b.bootDone), 2_000_000);
            for (ManagementPacket p : reqs) {
                source.send(TestPackets.big(p));
            }
            tb.runUntil("six answers", answers::isEmpty, 2_000_000);
            tb.finish();

            // every request is offered from the start, so what the server sees is the answer's cycle counted from
            // the E2PROM write's handshake: the register requests are answered a few cycles after it, long before
            // it completes, and the E2PROM read after it
            long t0 = sent.get(1);
            Map<Integer, Long> after = new LinkedHashMap<>();
            done.forEach((tid, c) -> after.put(tid, c - t0));
            System.out.println("mixed traffic, answer cycle after the E2PROM write's handshake, by TID: " + after);
            assertThat(order).as("answer order by TID").containsExactly(2, 3, 5, 6, 1, 4);
            assertThat(after.get(2)).as("1-register read").isEqualTo(4);
            assertThat(after.get(3)).as("2-register read").isEqualTo(8);
            assertThat(after.get(5)).as("register write behind the waiting E2PROM read, answered on acceptance").isEqualTo(10);
            assertThat(after.get(6)).as("read behind the register write").isEqualTo(13);
            assertThat(after.get(1)).as("E2PROM write (1 byte, fast timing)").isEqualTo(731);
            assertThat(after.get(4)).as("E2PROM read, waited for the write in the queue").isEqualTo(1236);
        }
    }
}
