package org.flitkit.rtl.mnc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bundle;
import org.flitkit.rtl.mnc.MncParams.Policy;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The dispatch unit as a block: random send requests (short and long), a NICStatus that changes every cycle, a
 * destination model answering its SReqs after random delays with random link states, other nodes' SReqs
 * arriving at random, random backpressure on every job queue and on the control port. A reference model of
 * the paper's rule (section 2.3.2) and of the equal chunks (section 2.4) predicts every SDMA job per rail and
 * every SAck; in-order scoreboards compare. Seeded.
 */
class DispatchUnitTest {
    static final int NODE = 5;

    /** Pokes a bundle's fields, in declaration order. */
    static void poke(Testbench<?> tb, Bundle b, long... values) {
        List<Bits> leaves = b.leaves();
        for (int i = 0; i < values.length; i++) {
            tb.sim().poke(leaves.get(i), values[i]);
        }
    }

    static long[] peek(Testbench<?> tb, Bundle b) {
        List<Bits> leaves = b.leaves();
        long[] v = new long[leaves.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = tb.sim().peek(leaves.get(i));
        }
        return v;
    }

    /** A scoreboard item: a job or a control header as its field values. */
    record Item(String what, List<Long> fields) {
        static Item of(String what, long... v) {
            return new Item(what, Arrays.stream(v).boxed().toList());
        }
    }

    @ParameterizedTest
    @CsvSource({"2, DYNAMIC, 11", "4, DYNAMIC, 12", "3, DYNAMIC, 13", "4, STATIC, 14", "4, ONE_DIRECTION, 15", "1, DYNAMIC, 16"})
    void everyJobAndSAckAsTheReferenceSays(int rails, Policy policy, long seed) {
        MncParams p = MncParams.of(rails).withPolicy(policy).withThreshold(1024);
        int requests = 300;
        try (Testbench<DispatchUnit> tb = Testbench.create(() -> new DispatchUnit(p), RunConfig.of(seed, 0))) {
            DispatchUnit d = tb.dut();
            List<InOrderScoreboard<Item>> jobBoards = new ArrayList<>();
            for (int r = 0; r < rails; r++) {
                jobBoards.add(tb.add(new InOrderScoreboard<>("jobs" + r)));
            }
            // SReqs and SAcks apart: answering another node's SReq goes ahead of sending our own
            InOrderScoreboard<Item> sreqBoard = tb.add(new InOrderScoreboard<>("sreq"));
            InOrderScoreboard<Item> sackBoard = tb.add(new InOrderScoreboard<>("sack"));
            Surroundings bench = tb.add(new Surroundings(tb, p, requests, jobBoards, sreqBoard, sackBoard));
            tb.reset(2);
            tb.sim().poke(d.node, NODE);
            tb.runUntil("every request dispatched", () -> bench.done() && jobBoards.stream().allMatch(b -> b.outstanding() == 0)
                    && sreqBoard.outstanding() == 0 && sackBoard.outstanding() == 0, 200_000);
            tb.finish();
            long jobs = jobBoards.stream().mapToLong(InOrderScoreboard::matched).sum();
            assertThat(jobs).isEqualTo(bench.expectedJobs);
            assertThat(tb.sim().peek(d.striped)).isEqualTo(bench.longOnes);
            assertThat(tb.sim().peek(d.sreqs)).isEqualTo(bench.longOnes);
            assertThat(tb.sim().peek(d.sacks)).isEqualTo(bench.foreignAnswered);
            assertThat(tb.sim().peek(d.staleSacks)).isZero();
            if (p.stripes()) {
                assertThat(bench.longOnes).as("the random sizes include striped messages").isGreaterThan(50);
            }
            assertThat(bench.foreignAnswered).as("other nodes' SReqs were answered").isGreaterThan(20);
        }
    }

    /** Drivers, the destination model, monitors and the reference model in one component. */
    static final class Surroundings extends Component {
        private final Testbench<DispatchUnit> tb;
        private final DispatchUnit d;
        private final MncParams p;
        private final int requests;
        private final List<InOrderScoreboard<Item>> jobBoards;
        private final InOrderScoreboard<Item> sreqBoard;
        private final InOrderScoreboard<Item> sackBoard;
        private int posted;
        private long[] req;
        private int sendPtr;
        private int recvPtr;
        private long status;
        private long[] pending;
        private List<Integer> pendingSend;
        private long sackAt = -1;
        private long sackStatus;
        private final ArrayDeque<long[]> foreign = new ArrayDeque<>();
        private long[] ctrlInBeat;
        long expectedJobs;
        long longOnes;
        long foreignAnswered;

        Surroundings(Testbench<DispatchUnit> tb, MncParams p, int requests, List<InOrderScoreboard<Item>> jobBoards, InOrderScoreboard<Item> sreqs,
                InOrderScoreboard<Item> sacks) {
            super("bench");
            this.tb = tb;
            this.d = tb.dut();
            this.p = p;
            this.requests = requests;
            this.jobBoards = jobBoards;
            this.sreqBoard = sreqs;
            this.sackBoard = sacks;
        }

        boolean done() {
            return posted == requests && req == null && pending == null;
        }

        @Override
        protected void drive() {
            status = rng().nextInt(16);
            tb.sim().poke(d.status, status);
            if (req == null && posted < requests && rng().nextInt(4) == 0) {
                boolean isLong = rng().nextBoolean();
                long len = isLong ? p.stripeThreshold() + rng().nextInt(64 * 1024) : 1 + rng().nextInt(p.stripeThreshold() - 1);
                req = new long[] {rng().nextInt(16), rng().nextInt(16), posted, rng().nextInt(1 << 30), rng().nextInt(1 << 30), len};
                posted++;
            }
            tb.sim().poke(d.req.valid, req != null);
            if (req != null) {
                poke(tb, d.req.bits, req);
            }
            for (int r = 0; r < p.rails(); r++) {
                tb.sim().poke(d.jobs.get(r).ready, rng().nextInt(10) < 7);
            }
            tb.sim().poke(d.ctrlOut.ready, rng().nextInt(10) < 7);
            // control in: the SAck of our SReq when its delay is over, else now and then another node's SReq
            if (ctrlInBeat == null) {
                if (sackAt >= 0 && cycle() >= sackAt) {
                    ctrlInBeat = header(MncPorts.KIND_SACK, pending[0], pendingSend.get(0), NODE, pendingSend.get(0), sackStatus);
                    expectChunks(sackStatus);
                    sackAt = -1;
                } else if (rng().nextInt(40) == 0) {
                    long src = rng().nextInt(16);
                    long srcRail = rng().nextInt(p.rails());
                    long dstRail = rng().nextInt(p.rails());
                    ctrlInBeat = header(MncPorts.KIND_SREQ, src, srcRail, NODE, dstRail, 0);
                    foreign.add(ctrlInBeat);
                }
            }
            tb.sim().poke(d.ctrlIn.valid, ctrlInBeat != null);
            if (ctrlInBeat != null) {
                poke(tb, d.ctrlIn.bits, ctrlInBeat);
            }
        }

        @Override
        protected void sample() {
            if (req != null && tb.sim().peekBool(d.req.ready)) {
                accept(req, tb.sim().peek(d.status));
                req = null;
            }
            for (int r = 0; r < p.rails(); r++) {
                var j = d.jobs.get(r);
                if (tb.sim().peekBool(j.valid) && tb.sim().peekBool(j.ready)) {
                    jobBoards.get(r).observe(Item.of("job", peek(tb, j.bits)));
                }
            }
            if (tb.sim().peekBool(d.ctrlOut.valid) && tb.sim().peekBool(d.ctrlOut.ready)) {
                long[] h = peek(tb, d.ctrlOut.bits);
                if (h[0] == MncPorts.KIND_SACK) {
                    // a SAck carries this cycle's NICStatus
                    long[] q = foreign.peek();
                    if (q != null) {
                        sackBoard.expect(Item.of("ctrl", header(MncPorts.KIND_SACK, NODE, q[4], q[1], q[2], tb.sim().peek(d.status))));
                        foreign.poll();
                        foreignAnswered++;
                    }
                } else if (pending != null && sackAt == -2) {
                    // our SReq: the destination answers after 1..40 cycles with random link states
                    sackAt = cycle() + 1 + rng().nextInt(40);
                    sackStatus = rng().nextInt(16);
                }
                (h[0] == MncPorts.KIND_SACK ? sackBoard : sreqBoard).observe(Item.of("ctrl", h));
            }
            if (ctrlInBeat != null && tb.sim().peekBool(d.ctrlIn.ready)) {
                ctrlInBeat = null;
            }
        }

        /** The reference model at the request's acceptance: send links, and for a long message the SReq it must send. */
        private void accept(long[] r, long st) {
            int rails = p.rails();
            int mask = p.policy() == Policy.STATIC ? 1 << (int) (r[1] % rails) : p.sendMask();
            List<Integer> send = LinkChooserTest.reference(rails, mask, (int) st, sendPtr);
            sendPtr = (send.get(0) + 1) % rails;
            pending = r;
            pendingSend = send;
            if (p.stripes() && r[5] >= p.stripeThreshold()) {
                longOnes++;
                sreqBoard.expect(Item.of("ctrl", sreq(r, send.get(0))));
                sackAt = -2; // waiting for the SReq to leave
            } else {
                int recv = send.get(0);
                if (p.policy() == Policy.ONE_DIRECTION && rails > 1) {
                    recv = LinkChooserTest.reference(rails, p.recvMask(), 0, recvPtr).get(0);
                    recvPtr = (recv + 1) % rails;
                }
                expectJobs(List.of(send.get(0)), List.of(recv), 1, r[5]);
                pending = null;
            }
        }

        private void expectChunks(long remoteStatus) {
            int rails = p.rails();
            List<Integer> recv = LinkChooserTest.reference(rails, p.recvMask(), (int) remoteStatus, recvPtr);
            recvPtr = (recv.get(0) + 1) % rails;
            long chunk = (pending[5] + 8L * rails - 1) / (8L * rails) * 8;
            expectJobs(pendingSend, recv, rails, chunk);
            pending = null;
        }

        private void expectJobs(List<Integer> send, List<Integer> recv, int n, long chunk) {
            long[] r = pending;
            for (int i = 0; i < n; i++) {
                long off = i * chunk;
                long len = i == n - 1 ? r[5] - off : chunk;
                jobBoards.get(send.get(i)).expect(Item.of("job", r[0], recv.get(i), r[1], r[2], n, (r[3] + off) & 0xFFFFFFFFL,
                        (r[4] + off) & 0xFFFFFFFFL, len));
                expectedJobs++;
            }
        }

        private long[] sreq(long[] r, int rail) {
            return new long[] {MncPorts.KIND_SREQ, NODE, rail, r[0], rail, r[1], r[2], p.rails(), 1, 0, 0, 0};
        }

        private static long[] header(long kind, long srcNode, long srcRail, long dstNode, long dstRail, long status) {
            return new long[] {kind, srcNode, srcRail, dstNode, dstRail, 0, 0, 0, 1, 0, 0, status};
        }
    }
}
