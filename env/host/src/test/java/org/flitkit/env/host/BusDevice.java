package org.flitkit.env.host;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.testbench.Component;

/**
 * A device for the link tests at any beat width: {@link Wire} passes request beats from the testbench to the
 * host and completion beats from the host back out, and {@link Driver} (a testbench component) is the device's
 * DMA logic: posts queued writes back to back, keeps up to n reads in flight (lowest free tag among 0..n-1,
 * reissued the cycle after the last beat frees the tag), takes every completion beat at once and records it.
 */
final class BusDevice {
    private BusDevice() {
    }

    /** The hardware: request and completion ports of {@code beatBytes}-byte beats, wired straight through. */
    static final class Wire extends Module {
        final Decoupled<DmaRequest> in;
        final Decoupled<DmaRequest> dmaRq;
        final Decoupled<DmaCompletion> dmaCpl;
        final Decoupled<DmaCompletion> cplOut;

        Wire(int beatBytes) {
            in = input(Decoupled.of(() -> new DmaRequest(beatBytes)));
            dmaRq = output(Decoupled.of(() -> new DmaRequest(beatBytes)));
            dmaCpl = input(Decoupled.of(() -> new DmaCompletion(beatBytes)));
            cplOut = output(Decoupled.of(() -> new DmaCompletion(beatBytes)));
            dmaRq.connect(in);
            cplOut.connect(dmaCpl);
        }
    }

    /** A completion beat the device took at {@code cycle}. */
    record CplBeat(long cycle, int tag, int bytes, int status, boolean last, byte[] data) {
    }

    /** A read the device issued. */
    record Issued(long cycle, int tag, long addr, int len) {
    }

    static final class Driver extends Component {
        private record Wr(long addr, byte[] data) {
        }

        private record Rd(long addr, int len, int tag) {
        }

        private final Wire w;
        private final int beatBytes;
        private final ArrayDeque<Wr> writes = new ArrayDeque<>();
        private final ArrayDeque<Rd> reads = new ArrayDeque<>();
        private int beat;
        /** Tags 0..tagLimit-1 are the device's; busy ones are set. */
        private int tagLimit = 1;
        private final boolean[] busy = new boolean[256];
        /** Read stream: {@code streamLeft} reads of {@code streamLen} bytes from {@code streamAddr} on. */
        private long streamAddr;
        private int streamLen;
        private long streamLeft;
        private boolean presentedRead;
        /** Chance per cycle that the device takes a completion beat (1: always). */
        private double cplReady = 1;
        private boolean cplReadyNow;
        private int presentedTag;
        final List<Long> writeBeats = new ArrayList<>();
        final List<Issued> issued = new ArrayList<>();
        final List<CplBeat> beats = new ArrayList<>();

        Driver(Wire w) {
            super("device");
            this.w = w;
            this.beatBytes = w.in.bits.beatBytes();
        }

        /** Queues a posted write. */
        Driver write(long addr, byte[] data) {
            writes.addLast(new Wr(addr, data));
            return this;
        }

        /** Queues one read with an explicit tag (issued in order, when the tag is free). */
        Driver read(long addr, int len, int tag) {
            reads.addLast(new Rd(addr, len, tag));
            return this;
        }

        /** {@code count} reads of {@code len} bytes at consecutive addresses from {@code addr}, up to {@code tags} in flight. */
        Driver stream(long addr, int len, long count, int tags) {
            streamAddr = addr;
            streamLen = len;
            streamLeft = count;
            tagLimit = tags;
            return this;
        }

        /** The device takes completion beats only in a random {@code p} of the cycles (seeded). */
        Driver completionReady(double p) {
            cplReady = p;
            return this;
        }

        boolean done() {
            if (!writes.isEmpty() || !reads.isEmpty() || streamLeft > 0) {
                return false;
            }
            for (boolean b : busy) {
                if (b) {
                    return false;
                }
            }
            return true;
        }

        /** Bytes of the completion beats taken in cycles [from, to). */
        long bytesIn(long from, long to) {
            return beats.stream().filter(b -> b.cycle() >= from && b.cycle() < to).mapToLong(CplBeat::bytes).sum();
        }

        @Override
        protected void drive() {
            cplReadyNow = cplReady >= 1 || rng().chance(cplReady);
            sim().poke(w.cplOut.ready, cplReadyNow ? 1 : 0);
            presentedRead = false;
            DmaRequest r = w.in.bits;
            if (!writes.isEmpty()) {
                Wr x = writes.peekFirst();
                int off = beat * beatBytes;
                byte[] part = new byte[Math.min(beatBytes, x.data().length - off)];
                System.arraycopy(x.data(), off, part, 0, part.length);
                sim().poke(r.write, 1);
                sim().poke(r.tag, 0);
                sim().poke(r.addr, x.addr());
                sim().poke(r.len, x.data().length);
                sim().poke(r.data, PcieHost.fromLittleEndian(part));
                sim().poke(r.last, off + beatBytes >= x.data().length ? 1 : 0);
                sim().poke(w.in.valid, 1);
                return;
            }
            long addr = 0;
            int len = 0;
            int tag = -1;
            if (!reads.isEmpty() && !busy[reads.peekFirst().tag()]) {
                Rd x = reads.peekFirst();
                addr = x.addr();
                len = x.len();
                tag = x.tag();
            } else if (reads.isEmpty() && streamLeft > 0) {
                for (int t = 0; t < tagLimit; t++) {
                    if (!busy[t]) {
                        tag = t;
                        break;
                    }
                }
                addr = streamAddr;
                len = streamLen;
            }
            if (tag < 0) {
                sim().poke(w.in.valid, 0);
                return;
            }
            sim().poke(r.write, 0);
            sim().poke(r.tag, tag);
            sim().poke(r.addr, addr);
            sim().poke(r.len, len);
            sim().poke(r.data, BigInteger.ZERO);
            sim().poke(r.last, 1);
            sim().poke(w.in.valid, 1);
            presentedRead = true;
            presentedTag = tag;
        }

        @Override
        protected void sample() {
            if (sim().peek(w.in.valid) != 0 && sim().peek(w.in.ready) != 0) {
                if (presentedRead) {
                    busy[presentedTag] = true;
                    issued.add(new Issued(cycle(), presentedTag, sim().peek(w.in.bits.addr), (int) sim().peek(w.in.bits.len)));
                    if (!reads.isEmpty() && reads.peekFirst().tag() == presentedTag) {
                        reads.removeFirst();
                    } else {
                        streamAddr += streamLen;
                        streamLeft--;
                    }
                } else {
                    writeBeats.add(cycle());
                    beat++;
                    if (beat * beatBytes >= writes.peekFirst().data().length) {
                        writes.removeFirst();
                        beat = 0;
                    }
                }
            }
            if (cplReadyNow && sim().peek(w.cplOut.valid) != 0) {
                DmaCompletion c = w.cplOut.bits;
                int bytes = (int) sim().peek(c.bytes);
                CplBeat b = new CplBeat(cycle(), (int) sim().peek(c.tag), bytes, (int) sim().peek(c.status), sim().peek(c.last) != 0,
                        PcieHost.littleEndian(sim().peekBig(c.data), bytes));
                beats.add(b);
                if (b.last()) {
                    busy[b.tag()] = false;
                }
            }
        }
    }
}
