package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * The descriptor stages against the real {@link PcieHost} ({@code PcieParams.chpp()}) and {@link HostMemory}:
 * rings doorbells through the doorbell front, takes every output stream (each ready in a chosen fraction of cycles,
 * seeded) and records what left and when.
 */
final class DescriptorHarness implements AutoCloseable {
    record Ring(int function, long addr, int length, int qp) {
    }

    record Control(long cycle, int kind, int function, int qp, boolean sce, boolean rce, int dstId, int qpMagic, int cookie,
                   long length, int srcCount, int dstCount) {
    }

    record Seg(long cycle, long address, long length, boolean last) {
    }

    record Beat(long cycle, BigInteger data, boolean last) {
    }

    record Event(long cycle, int status, int function, int qp, int kind, int cookie, long bytes) {
    }

    final Testbench<DescriptorStages> tb;
    final Simulator sim;
    final DescriptorStages d;
    final PcieHost host;
    final HostMemory mem;
    final ChppParams params;
    final SendEngineParams sendParams;
    final List<Control> controls = new ArrayList<>();
    final List<Seg> srcs = new ArrayList<>();
    final List<Seg> dsts = new ArrayList<>();
    final List<Beat> napBeats = new ArrayList<>();
    final List<Beat> getBeats = new ArrayList<>();
    final List<Event> events = new ArrayList<>();
    /** Cycles of the completion beats the read stage took, and which were last. */
    final List<Seg> cplBeats = new ArrayList<>();
    /** Fewest free tags and most busy slots seen in any cycle. */
    long minFreeTags = Long.MAX_VALUE;
    int maxBusySlots;
    /** Cycle each doorbell was written into the front, in ring order. */
    final List<Long> rungAt = new ArrayList<>();
    final ArrayDeque<Ring> pending = new ArrayDeque<>();

    DescriptorHarness(RunConfig cfg, ChppParams p, SendEngineParams sp, PcieParams pp, double outputReady) {
        params = p;
        sendParams = sp;
        tb = Testbench.create(() -> new DescriptorStages(p, sp), cfg);
        sim = tb.sim();
        d = tb.dut();
        mem = new HostMemory();
        host = tb.add(new PcieHost("host", mem, pp).dma(d.dmaRq, d.dmaCpl));
        tb.add(new Sink(outputReady));
        tb.add(new Ringer());
        tb.reset(1);
    }

    DescriptorHarness ring(int function, long addr, int length, int qp) {
        pending.addLast(new Ring(function, addr, length, qp));
        return this;
    }

    int outcomes() {
        return controls.size() + getPackets() + (int) events.stream().filter(e -> e.kind() != 4 || e.status() != 0).count();
    }

    int getPackets() {
        return (int) getBeats.stream().filter(Beat::last).count();
    }

    /** Every control's segments and data have left, and every GET packet is whole. */
    boolean drained() {
        long src = controls.stream().mapToLong(Control::srcCount).sum();
        long dst = controls.stream().mapToLong(Control::dstCount).sum();
        long nap = controls.stream().filter(c -> c.kind() == 1).mapToLong(c -> (c.length() + 15) / 16).sum();
        return srcs.size() == src && dsts.size() == dst && napBeats.size() == nap && getBeats.size() % 3 == 0;
    }

    boolean quiet() {
        return pending.isEmpty() && sim.peek(d.busySlots) == 0 && host.idle();
    }

    @Override
    public void close() {
        tb.close();
    }

    /** Writes one queued doorbell per cycle into the front (the tests keep each function under 32 outstanding). */
    final class Ringer extends Component {
        Ringer() {
            super("ringer");
        }

        @Override
        protected void drive() {
            Ring r = pending.peekFirst();
            sim().poke(d.write.valid, r != null);
            if (r != null) {
                sim().poke(d.write.bits.function, r.function());
                sim().poke(d.write.bits.doorbell.addr, r.addr());
                sim().poke(d.write.bits.doorbell.length, r.length());
                sim().poke(d.write.bits.doorbell.qp, r.qp());
            }
        }

        @Override
        protected void sample() {
            if (pending.peekFirst() != null) {
                pending.removeFirst();
                rungAt.add(cycle());
            }
        }
    }

    /** Takes the output streams, each ready in a fraction of the cycles, and records every transfer. */
    final class Sink extends Component {
        final double p;

        Sink(double p) {
            super("sink");
            this.p = p;
        }

        private void ready(Decoupled<?> s) {
            sim().poke(s.ready, p >= 1 || rng().chance(p));
        }

        @Override
        protected void drive() {
            ready(d.control);
            ready(d.src);
            ready(d.dst);
            ready(d.napData);
            ready(d.get);
            ready(d.event);
        }

        private boolean fired(Decoupled<?> s) {
            return sim().peekBool(s.valid) && sim().peekBool(s.ready);
        }

        @Override
        protected void sample() {
            Simulator s = sim();
            long c = cycle();
            if (fired(d.control)) {
                SendControl b = d.control.bits;
                controls.add(new Control(c, (int) s.peek(b.kind), (int) s.peek(b.function), (int) s.peek(b.qp), s.peekBool(b.sce),
                        s.peekBool(b.rce), (int) s.peek(b.dstId), (int) s.peek(b.qpMagic), (int) s.peek(b.cookie), s.peek(b.length),
                        (int) s.peek(b.srcCount), (int) s.peek(b.dstCount)));
            }
            if (fired(d.src)) {
                srcs.add(new Seg(c, s.peek(d.src.bits.address), s.peek(d.src.bits.length), s.peekBool(d.src.bits.last)));
            }
            if (fired(d.dst)) {
                dsts.add(new Seg(c, s.peek(d.dst.bits.address), s.peek(d.dst.bits.length), s.peekBool(d.dst.bits.last)));
            }
            if (fired(d.napData)) {
                napBeats.add(new Beat(c, s.peekBig(d.napData.bits.data), s.peekBool(d.napData.bits.last)));
            }
            if (fired(d.get)) {
                getBeats.add(new Beat(c, s.peekBig(d.get.bits.data), s.peekBool(d.get.bits.last)));
            }
            minFreeTags = Math.min(minFreeTags, s.peek(d.freeTags));
            maxBusySlots = Math.max(maxBusySlots, Long.bitCount(s.peek(d.busySlots)));
            if (fired(d.dmaCpl)) {
                cplBeats.add(new Seg(c, s.peek(d.dmaCpl.bits.tag), s.peek(d.dmaCpl.bits.status), s.peekBool(d.dmaCpl.bits.last)));
            }
            if (fired(d.event)) {
                SendCompletionEvent e = d.event.bits;
                events.add(new Event(c, (int) s.peek(e.status), (int) s.peek(e.function), (int) s.peek(e.qp), (int) s.peek(e.kind),
                        (int) s.peek(e.cookie), s.peek(e.bytes)));
            }
        }
    }
}
