package org.flitkit.rtl.mnc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.rtl.mnc.DispatchUnitTest.peek;
import static org.flitkit.rtl.mnc.DispatchUnitTest.poke;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.flitkit.rtl.mnc.DispatchUnitTest.Item;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One NIC as a block (multi-rail paper, section 2.1.2): random chunks into the SDMA queue and random packets
 * arriving on the link, a bus that finishes each transfer after a random delay, random backpressure on the
 * link, the bus and the event port. Scoreboards check every bus read and write, every packet on the link
 * (header, and that its buffer is the one the bus filled for that offset), every send and receive event, and
 * in every cycle that RECVING and SDMAING are exactly when a packet is being received or a chunk read. Seeded.
 */
class MncNicTest {
    @ParameterizedTest
    @CsvSource({"2, 2, 21", "1, 1, 22", "4, 3, 23"})
    void engineOutputsAsTheReferenceSays(int sendSlots, int recvSlots, long seed) {
        MncParams p = new MncParams(2, MncParams.Policy.DYNAMIC, 1024, 512, sendSlots, recvSlots, 5, 0);
        try (Testbench<MncNic> tb = Testbench.create(() -> new MncNic(p), RunConfig.of(seed, 0))) {
            InOrderScoreboard<Item> reads = tb.add(new InOrderScoreboard<>("bus_reads"));
            InOrderScoreboard<Item> writes = tb.add(new InOrderScoreboard<>("bus_writes"));
            InOrderScoreboard<Item> tx = tb.add(new InOrderScoreboard<>("tx"));
            InOrderScoreboard<Item> sendEvents = tb.add(new InOrderScoreboard<>("send_events"));
            InOrderScoreboard<Item> recvEvents = tb.add(new InOrderScoreboard<>("recv_events"));
            Surroundings b = tb.add(new Surroundings(tb, p, 120, 300, reads, writes, tx, sendEvents, recvEvents));
            tb.reset(2);
            tb.sim().poke(tb.dut().node, 3);
            tb.sim().poke(tb.dut().rail, 1);
            tb.runUntil("every chunk sent and every packet written", b::done, 2_000_000);
            tb.finish();
            assertThat(sendEvents.matched()).isEqualTo(120);
            assertThat(recvEvents.matched()).isEqualTo(b.lastPackets);
            assertThat(writes.matched()).isEqualTo(b.dataPackets);
            assertThat(b.dataPackets).as("data packets among the 300 (the rest SReq/SAck)").isGreaterThan(200);
            assertThat(tx.matched()).isEqualTo(reads.matched());
            assertThat(b.recvingCycles).as("cycles in RECVING").isGreaterThan(300);
        }
    }

    static final class Surroundings extends Component {
        private final Testbench<MncNic> tb;
        private final MncNic n;
        private final MncParams p;
        private final int jobs;
        private final int packets;
        private final InOrderScoreboard<Item> reads;
        private final InOrderScoreboard<Item> writes;
        private final InOrderScoreboard<Item> tx;
        private final InOrderScoreboard<Item> sendEvents;
        private final InOrderScoreboard<Item> recvEvents;
        private int jobsPosted;
        private long[] job;
        /** Per send buffer: the host address the bus read into it. */
        private final Map<Long, Long> sendBuf = new HashMap<>();
        /** Per receive buffer: (addr, len) of the packet received into it. */
        private final Map<Long, long[]> recvBuf = new HashMap<>();
        private final ArrayDeque<long[]> jobsOpen = new ArrayDeque<>();
        private long readDoneAt = -1;
        private long writeDoneAt = -1;
        private boolean txOffered;
        private long txDoneAt = -1;
        private int rxSent;
        private long[] rx;
        private long rxDoneAt = -1;
        private boolean receiving;
        private boolean reading;
        private int pendingReads;
        private int idleSdma;
        private int sendEventsSeen;
        long lastPackets;
        long dataPackets;
        long recvingCycles;

        Surroundings(Testbench<MncNic> tb, MncParams p, int jobs, int packets, InOrderScoreboard<Item> reads, InOrderScoreboard<Item> writes,
                InOrderScoreboard<Item> tx, InOrderScoreboard<Item> sendEvents, InOrderScoreboard<Item> recvEvents) {
            super("bench");
            this.tb = tb;
            this.n = tb.dut();
            this.p = p;
            this.jobs = jobs;
            this.packets = packets;
            this.reads = reads;
            this.writes = writes;
            this.tx = tx;
            this.sendEvents = sendEvents;
            this.recvEvents = recvEvents;
        }

        boolean done() {
            return jobsPosted == jobs && job == null && sendEventsSeen == jobs && rxSent == packets && rx == null
                    && writes.outstanding() == 0 && recvEvents.outstanding() == 0 && tx.outstanding() == 0;
        }

        @Override
        protected void drive() {
            var s = tb.sim();
            if (job == null && jobsPosted < jobs && rng().nextInt(3) == 0) {
                long len = 1 + rng().nextInt(3 * p.packetBytes());
                job = new long[] {rng().nextInt(16), rng().nextInt(4), rng().nextInt(16), jobsPosted, 1 + rng().nextInt(4),
                        rng().nextInt(1 << 30), rng().nextInt(1 << 30), len};
                jobsPosted++;
            }
            s.poke(n.job.valid, job != null);
            if (job != null) {
                poke(tb, n.job.bits, job);
            }
            // the bus: one done pulse per cycle, reads and writes each after their delay
            boolean readDone = readDoneAt >= 0 && cycle() >= readDoneAt;
            boolean writeDone = !readDone && writeDoneAt >= 0 && cycle() >= writeDoneAt;
            s.poke(n.busDone.valid, readDone || writeDone);
            s.poke(n.busDone.bits, writeDone);
            s.poke(n.bus.ready, rng().nextInt(10) < 7);
            // the link out: takes a packet now and then, its tail gone some cycles later
            s.poke(n.tx.ready, !txOffered && rng().nextInt(10) < 6);
            s.poke(n.txDone, txDoneAt >= 0 && cycle() == txDoneAt);
            // the link in: a packet head, its tail some cycles after it was taken
            if (rx == null && rxSent < packets && rxDoneAt < 0 && rng().nextInt(4) == 0) {
                boolean ctrl = rng().nextInt(8) == 0;
                rx = new long[] {ctrl ? MncPorts.KIND_SREQ : MncPorts.KIND_DATA, rng().nextInt(16), rng().nextInt(4), 3, 1,
                        rng().nextInt(16), rng().nextInt(1 << 16), 1 + rng().nextInt(4), rng().nextInt(2), rng().nextInt(1 << 30),
                        ctrl ? 0 : 1 + rng().nextInt(p.packetBytes()), 0};
            }
            s.poke(n.rx.valid, rx != null);
            if (rx != null) {
                poke(tb, n.rx.bits, rx);
            }
            s.poke(n.rxDone, rxDoneAt >= 0 && cycle() == rxDoneAt);
            s.poke(n.event.ready, rng().nextInt(10) < 7);
            s.poke(n.ctrlOut.ready, rng().nextInt(10) < 7);
            s.poke(n.ctrlIn.valid, false);
        }

        @Override
        protected void sample() {
            var s = tb.sim();
            // the states that make the link BUSY, exactly
            assertState("RECVING", s.peekBool(n.recving), receiving);
            // SDMAING: always while a read is outstanding, and never idle for long while a packet still waits to be read
            boolean sdmaing = s.peekBool(n.sdmaing);
            if (reading && !sdmaing) {
                throw fail("SDMAING is low with a bus read outstanding");
            }
            idleSdma = sdmaing ? 0 : idleSdma + 1;
            if (idleSdma > 3 && pendingReads > 0) {
                throw fail("SDMAING low for " + idleSdma + " cycles with " + pendingReads + " packet reads to do");
            }
            recvingCycles += receiving ? 1 : 0;
            if (job != null && s.peekBool(n.job.ready)) {
                expectPackets(job);
                job = null;
            }
            if (s.peekBool(n.busDone.valid)) {
                if (s.peekBool(n.busDone.bits)) {
                    writeDoneAt = -1;
                } else {
                    readDoneAt = -1;
                    reading = false;
                }
            }
            if (s.peekBool(n.bus.valid) && s.peekBool(n.bus.ready)) {
                long[] r = peek(tb, n.bus.bits);
                if (r[0] == 1) {
                    long[] buf = recvBuf.remove(r[1]);
                    if (buf == null || buf[0] != r[2] || buf[1] != r[3]) {
                        throw fail("RDMA wrote receive buffer " + r[1] + " to 0x" + Long.toHexString(r[2]) + " (" + r[3]
                                + " bytes), which holds no such packet");
                    }
                    writes.observe(Item.of("write", r[2], r[3]));
                    writeDoneAt = cycle() + 1 + rng().nextInt(30);
                } else {
                    reads.observe(Item.of("read", r[2], r[3]));
                    sendBuf.put(r[1], r[2]);
                    reading = true;
                    pendingReads--;
                    readDoneAt = cycle() + 1 + rng().nextInt(30);
                }
            }
            if (s.peekBool(n.tx.valid) && s.peekBool(n.tx.ready)) {
                long[] t = peek(tb, n.tx.bits);
                txOffered = true;
                txDoneAt = cycle() + 1 + rng().nextInt(20);
                if (t[0] == MncPorts.KIND_DATA) {
                    long[] open = jobsOpen.peek();
                    long src = sendBuf.get(t[12]);
                    if (open == null || src - open[5] != t[9] - open[6]) {
                        throw fail("packet for 0x" + Long.toHexString(t[9]) + " leaves from a buffer filled from 0x" + Long.toHexString(src));
                    }
                    if (t[8] == 1) {
                        jobsOpen.poll();
                    }
                }
                tx.observe(Item.of("tx", java.util.Arrays.copyOf(t, 12)));
            }
            if (txOffered && txDoneAt >= 0 && cycle() == txDoneAt) {
                txOffered = false;
                txDoneAt = -1;
            }
            if (rx != null && s.peekBool(n.rx.ready)) {
                if (rx[0] == MncPorts.KIND_DATA) {
                    recvBuf.put(s.peek(n.rxSlot), new long[] {rx[9], rx[10]});
                    writes.expect(Item.of("write", rx[9], rx[10]));
                    dataPackets++;
                    if (rx[8] == 1) {
                        recvEvents.expect(Item.of("event", 0, rx[1], rx[5], rx[6], rx[7]));
                        lastPackets++;
                    }
                }
                receiving = true;
                rxDoneAt = cycle() + 1 + rng().nextInt(20);
                rxSent++;
                rx = null;
            } else if (rxDoneAt >= 0 && cycle() == rxDoneAt) {
                receiving = false;
                rxDoneAt = -1;
            }
            if (s.peekBool(n.event.valid) && s.peekBool(n.event.ready)) {
                long[] e = peek(tb, n.event.bits);
                if (e[0] == 1) {
                    sendEventsSeen++;
                    sendEvents.observe(Item.of("event", e));
                } else {
                    recvEvents.observe(Item.of("event", e));
                }
            }
        }

        private void assertState(String what, boolean model, boolean expected) {
            if (model != expected) {
                throw fail(what + " is " + model + ", the bench expects " + expected);
            }
        }

        /** The packets a chunk becomes: packetBytes each, the last one the rest, addresses advancing alike at both ends. */
        private void expectPackets(long[] j) {
            jobsOpen.add(j);
            long len = j[7];
            for (long off = 0; off < len; off += p.packetBytes()) {
                long plen = Math.min(p.packetBytes(), len - off);
                boolean last = off + plen == len;
                reads.expect(Item.of("read", (j[5] + off) & 0xFFFFFFFFL, plen));
                tx.expect(Item.of("tx", MncPorts.KIND_DATA, 3, 1, j[0], j[1], j[2], j[3], j[4], last ? 1 : 0, (j[6] + off) & 0xFFFFFFFFL,
                        plen, 0));
                pendingReads++;
            }
            sendEvents.expect(Item.of("event", 1, j[0], j[2], j[3], j[4]));
        }
    }
}
