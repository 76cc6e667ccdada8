package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.BeatSource;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.TagScoreboard;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * The data stages ({@link DataTop}) against the real {@link PcieHost} and {@link HostMemory}, with the
 * {@link TagScoreboard} on the allocator every cycle: feeds transfers' source segments, takes {@code out} (ready in
 * a chosen fraction of cycles, seeded), records every read request, completion and output beat, and checks each
 * read against the size and boundary rule as it leaves. {@link #check} then holds every transfer to its bytes in
 * host memory or to an error beat at the right place.
 */
final class DataHarness implements AutoCloseable {
    record Seg(long addr, long len) {
    }

    record Transfer(List<Seg> segs) {
        long bytes() {
            return segs.stream().mapToLong(Seg::len).sum();
        }
    }

    record Read(long cycle, int tag, long addr, int len) {
    }

    record Beat(long cycle, BigInteger data, int bytes, boolean last, int status) {
    }

    /** A completion beat that ended a read in error (UR/CA), or an allocator timeout: a read's failure, seen at {@code cycle}. */
    record Failure(long cycle, int tag, int status) {
    }

    final Testbench<DataTop> tb;
    final Simulator sim;
    final DataTop d;
    final PcieHost host;
    final HostMemory mem = new HostMemory();
    final ChppParams params;
    final SendEngineParams sendParams;
    final TagScoreboard tagBoard;
    /** offers the queued segments in order, no idle cycles; its {@code takenAt}: the cycle each segment was taken */
    final BeatSource feeder;
    final List<Transfer> transfers = new ArrayList<>();
    final List<Read> reads = new ArrayList<>();
    final List<Beat> beats = new ArrayList<>();
    final List<Failure> failures = new ArrayList<>();
    int transfersEnded;
    /** {@code out} is not ready before this cycle (a long stall downstream, e.g. the network). */
    long stallUntil;

    DataHarness(RunConfig cfg, ChppParams p, SendEngineParams sp, int reorderBytes, PcieParams pp, double outReady) {
        params = p;
        sendParams = sp;
        tb = Testbench.create(() -> new DataTop(p, sp, reorderBytes), cfg);
        sim = tb.sim();
        d = tb.dut();
        host = tb.add(new PcieHost("host", mem, pp).dma(d.dmaRq, d.dmaCpl));
        tagBoard = tb.add(new TagScoreboard("tag_scoreboard", d.tags));
        feeder = tb.add(new BeatSource("feeder", d.src, 0));
        tb.add(new Sink(outReady));
        tb.reset(1);
    }

    /** Queues a transfer's segments (their bytes must already be in host memory). */
    DataHarness send(Transfer t) {
        transfers.add(t);
        for (int i = 0; i < t.segs().size(); i++) {
            Seg seg = t.segs().get(i);
            boolean last = i == t.segs().size() - 1;
            feeder.beat(s -> {
                s.poke(d.src.bits.address, seg.addr());
                s.poke(d.src.bits.length, seg.len());
                s.poke(d.src.bits.last, last);
            });
        }
        return this;
    }

    boolean allEnded() {
        return transfersEnded == transfers.size() && feeder.idle() && host.idle() && sim.peek(d.freeTags) == params.tags();
    }

    void runToEnd(long maxCycles) {
        try {
            tb.runUntil("every transfer ended and every tag free", this::allEnded, maxCycles);
        } catch (RuntimeException | AssertionError e) {
            StringBuilder st = new StringBuilder("state:");
            for (String n : sim.signalNames()) {
                if (n.matches(".*data\\.(read|reorder)\\.(have|segLeft|segLast|wp|tail|seq|aborting|headPtr|tailPtr|rp|endValid|end|drain|abort|issueSeq"
                        + "|used\\d+|done\\d+|status\\d+|last\\d+|pos\\d+|len\\d+|recv\\d+)")) {
                    st.append(' ').append(n.replaceAll(".*data\\.", "")).append('=').append(sim.peekBig(n).toString(16));
                }
            }
            System.out.println(st + " feed=" + feeder.waiting() + " ended=" + transfersEnded + "/" + transfers.size() + " freeTags=" + sim.peek(d.freeTags)
                    + " hostIdle=" + host.idle());
            throw e;
        }
        tb.finish();
    }

    @Override
    public void close() {
        tb.close();
    }

    /** The reads a transfer needs, in order: each segment cut at Max_Read_Request_Size boundaries. */
    List<Read> expectedReads(Transfer t) {
        int mrrs = sendParams.maxReadRequest();
        List<Read> out = new ArrayList<>();
        for (Seg s : t.segs()) {
            long a = s.addr();
            long left = s.len();
            while (left > 0) {
                int n = (int) Math.min(left, mrrs - (a % mrrs));
                out.add(new Read(-1, -1, a, n));
                a += n;
                left -= n;
            }
        }
        return out;
    }

    /** The bytes of a transfer: its segments' host memory, concatenated. */
    byte[] expectedBytes(Transfer t) {
        byte[] b = new byte[(int) t.bytes()];
        int off = 0;
        for (Seg s : t.segs()) {
            byte[] part = mem.read(s.addr(), (int) s.len());
            System.arraycopy(part, 0, b, off, part.length);
            off += part.length;
        }
        return b;
    }

    /** What one transfer became. */
    record Outcome(int index, int status, int bytesOut, int readsIssued, int readsExpected, long firstBeat, long lastBeat) {
    }

    /**
     * Checks every transfer: the reads issued for it are a prefix of the reads it needs, in order (all of them if it
     * succeeded); its beats carry its bytes exactly from byte 0, 16 per beat, only the last short and zero-padded;
     * a transfer ends with OK exactly when none of its issued reads failed, else with one error beat after whole
     * beats of its bytes, its status the one the first failed read (in byte order) earned (UR/CA: PCIE_ERROR, lost:
     * COMPLETION_TIMEOUT), and no read of it issued after the cycle its failure was seen.
     */
    List<Outcome> check() {
        List<PcieHost.Read> hostReads = host.reads();
        if (hostReads.size() != reads.size()) {
            throw new AssertionError("host saw " + hostReads.size() + " reads, the bench " + reads.size());
        }
        List<Outcome> outcomes = new ArrayList<>();
        int r = 0;
        int b = 0;
        for (int k = 0; k < transfers.size(); k++) {
            Transfer t = transfers.get(k);
            List<Read> exp = expectedReads(t);
            int first = r;
            int i = 0;
            while (i < exp.size() && r < reads.size() && reads.get(r).addr() == exp.get(i).addr() && reads.get(r).len() == exp.get(i).len()) {
                i++;
                r++;
            }
            int issued = i;
            // a 0-byte segment (the formats forbid it) fails the transfer with BAD_DESCRIPTOR where it stands
            int zeroAt = -1;
            for (int q = 0, before = 0; q < t.segs().size() && zeroAt < 0; q++) {
                if (t.segs().get(q).len() == 0) {
                    zeroAt = before;
                }
                before += expectedReads(new Transfer(List.of(t.segs().get(q)))).size();
            }
            if (issued == 0 && zeroAt != 0) {
                throw new AssertionError("transfer " + k + ": no read issued; next read " + (r < reads.size() ? reads.get(r) : "none")
                        + ", expected " + exp.get(0));
            }
            // the first failed read of the transfer, in byte order: an error completion or a timeout of its tag
            // after it was issued and before the tag's next read
            int failedAt = -1;
            Failure failure = null;
            for (int j = first; j < first + issued && failedAt < 0; j++) {
                failure = failureOf(j);
                if (failure != null) {
                    failedAt = j;
                }
            }
            byte[] want = expectedBytes(t);
            int off = 0;
            long firstBeat = -1;
            Beat end = null;
            while (end == null) {
                if (b >= beats.size()) {
                    throw new AssertionError("transfer " + k + ": its beats stop after " + off + " of " + want.length + " bytes");
                }
                Beat x = beats.get(b++);
                if (firstBeat < 0) {
                    firstBeat = x.cycle();
                }
                if (x.status() != CompletionStatus.OK.code()) {
                    if (x.bytes() != 0 || !x.last() || x.data().signum() != 0) {
                        throw new AssertionError("transfer " + k + ": error beat " + x + " must carry 0 bytes, data 0 and last");
                    }
                    end = x;
                    break;
                }
                int n = Math.min(16, want.length - off);
                if (n == 0 || x.bytes() != n || x.last() != (off + n == want.length)) {
                    throw new AssertionError("transfer " + k + " beat at byte " + off + ": bytes " + x.bytes() + " last " + x.last()
                            + ", expected bytes " + n + " last " + (off + n == want.length));
                }
                byte[] w = new byte[16];
                System.arraycopy(want, off, w, 0, n);
                BigInteger wv = PcieHost.fromLittleEndian(w);
                if (!wv.equals(x.data())) {
                    throw new AssertionError(String.format("transfer %d bytes %d..%d: got %032x expected %032x", k, off, off + n - 1, x.data(), wv));
                }
                off += n;
                if (x.last()) {
                    end = x;
                }
            }
            if (failedAt < 0 && zeroAt >= 0) {
                if (end.status() != CompletionStatus.BAD_DESCRIPTOR.code() || issued != zeroAt) {
                    throw new AssertionError("transfer " + k + " has a 0-byte segment after " + zeroAt + " reads but ended with status "
                            + end.status() + " after " + issued + " reads");
                }
            } else if (failedAt < 0) {
                if (end.status() != CompletionStatus.OK.code() || issued != exp.size()) {
                    throw new AssertionError("transfer " + k + " had no failed read but ended with status " + end.status() + " after " + issued
                            + " of " + exp.size() + " reads");
                }
                for (int j = first; j < first + issued; j++) {
                    if (hostReads.get(j).outcome() != PcieHost.ReadOutcome.OK) {
                        throw new AssertionError("read " + hostReads.get(j) + " failed at the host but the bench saw no failure");
                    }
                }
            } else {
                if (end.status() != failure.status()) {
                    throw new AssertionError("transfer " + k + ": read " + reads.get(failedAt) + " failed with " + failure + ", so status "
                            + failure.status() + " expected, got " + end.status() + " (" + off + " bytes out)");
                }
                if (hostReads.get(failedAt).outcome() == PcieHost.ReadOutcome.OK && failure.status() == CompletionStatus.PCIE_ERROR.code()) {
                    throw new AssertionError("read " + reads.get(failedAt) + " got an error completion the host did not send");
                }
                for (int j = first; j < first + issued; j++) {
                    if (reads.get(j).cycle() > failure.cycle()) {
                        throw new AssertionError("transfer " + k + ": read " + reads.get(j) + " issued after its failure at cycle " + failure.cycle());
                    }
                }
            }
            outcomes.add(new Outcome(k, end.status(), off, issued, exp.size(), firstBeat, end.cycle()));
        }
        if (r != reads.size() || b != beats.size()) {
            throw new AssertionError("left over: " + (reads.size() - r) + " reads, " + (beats.size() - b) + " beats");
        }
        return outcomes;
    }

    /** The earliest failure of read {@code j}'s tag after it was issued and before that tag's next read, or null. */
    private Failure failureOf(int j) {
        Read rd = reads.get(j);
        long until = Long.MAX_VALUE;
        for (int x = j + 1; x < reads.size(); x++) {
            if (reads.get(x).tag() == rd.tag()) {
                until = reads.get(x).cycle();
                break;
            }
        }
        Failure best = null;
        for (Failure f : failures) {
            if (f.tag() == rd.tag() && f.cycle() > rd.cycle() && f.cycle() < until && (best == null || f.cycle() < best.cycle())) {
                best = f;
            }
        }
        return best;
    }

    /** Takes {@code out} in a fraction of cycles; records every read request (checking the size rule), failure and beat. */
    final class Sink extends Component {
        final double p;

        Sink(double p) {
            super("sink");
            this.p = p;
        }

        @Override
        protected void drive() {
            sim().poke(d.out.ready, cycle() >= stallUntil && (p >= 1 || rng().chance(p)));
        }

        @Override
        protected void sample() {
            Simulator s = sim();
            long c = cycle();
            if (s.peekBool(d.dmaRq.valid) && s.peekBool(d.dmaRq.ready)) {
                if (s.peekBool(d.dmaRq.bits.write)) {
                    throw fail("the data stages issued a write");
                }
                long a = s.peek(d.dmaRq.bits.addr);
                int len = (int) s.peek(d.dmaRq.bits.len);
                int mrrs = sendParams.maxReadRequest();
                if (len < 1 || len > mrrs || a / mrrs != (a + len - 1) / mrrs) {
                    throw fail(String.format("read of %d bytes at 0x%x: above %d bytes or across a %d-byte boundary", len, a, mrrs, mrrs));
                }
                reads.add(new Read(c, (int) s.peek(d.dmaRq.bits.tag), a, len));
            }
            if (s.peekBool(d.dmaCpl.valid) && s.peekBool(d.dmaCpl.ready) && s.peek(d.dmaCpl.bits.status) != 0) {
                failures.add(new Failure(c, (int) s.peek(d.dmaCpl.bits.tag), CompletionStatus.PCIE_ERROR.code()));
            }
            if (s.peekBool(d.tags.timedOut.valid)) {
                failures.add(new Failure(c, (int) s.peek(d.tags.timedOut.bits), CompletionStatus.COMPLETION_TIMEOUT.code()));
            }
            if (s.peekBool(d.out.valid) && s.peekBool(d.out.ready)) {
                Beat x = new Beat(c, s.peekBig(d.out.bits.data), (int) s.peek(d.out.bits.bytes), s.peekBool(d.out.bits.last),
                        (int) s.peek(d.out.bits.status));
                beats.add(x);
                if (x.last()) {
                    transfersEnded++;
                }
            }
        }
    }
}
