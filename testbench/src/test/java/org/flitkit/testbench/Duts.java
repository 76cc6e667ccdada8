package org.flitkit.testbench;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;

/** Small designs, good and deliberately broken, for the framework's own tests. */
public final class Duts {
    public static final int WIDTH = 16;

    private Duts() {
    }

    /** A 4-deep FIFO of 16-bit values: the well-behaved reference. */
    public static Queue<UInt> fifo() {
        return new Queue<>(() -> UInt(WIDTH), 4);
    }

    /** A small packet with a signed field, to check how bundle payloads are packed. */
    public static final class Packet extends Bundle {
        public final UInt tag = UInt(4);
        public final SInt data = SInt(8);
    }

    /** A 2-deep FIFO of packets. */
    public static Queue<Packet> packetFifo() {
        return new Queue<>(Packet::new, 2);
    }

    /** A free-running 8-bit counter whose own {@code check} fails when it reaches {@code limit}. */
    public static final class CheckedCounter extends Module {
        public final UInt count = output(UInt(8));

        public CheckedCounter(int limit) {
            UInt value = regInit(UInt(8), 0);
            value.assign(value.add(1));
            count.assign(value);
            check(value.lt(limit), "count %d reached the limit", value);
        }
    }

    /** A FIFO whose output flips bit 0 of every element after the fifth. */
    public static final class Corrupting extends Module {
        public final Decoupled<UInt> enq = input(Decoupled.of(UInt(WIDTH)));
        public final Decoupled<UInt> deq = output(Decoupled.of(UInt(WIDTH)));
        public final Queue<UInt> q = instance(fifo());
        public final UInt delivered = regInit(UInt(8), 0);

        public Corrupting() {
            q.enq.connect(enq);
            deq.valid.assign(q.deq.valid);
            q.deq.ready.assign(deq.ready);
            when(deq.fire().and(delivered.lt(255)), () -> delivered.assign(delivered.add(1)));
            deq.bits.assign(mux(delivered.ge(5), q.deq.bits.xor(1), q.deq.bits));
        }
    }

    /** Offers a counter value every other cycle whether or not it was taken: breaks the valid/ready rule. */
    public static final class Retracting extends Module {
        public final Decoupled<UInt> deq = output(Decoupled.of(UInt(WIDTH)));
        public final UInt count = regInit(UInt(WIDTH), 0);
        public final UInt phase = regInit(UInt(1), 0);

        public Retracting() {
            phase.assign(phase.not());
            deq.valid.assign(phase.eq(1));
            deq.bits.assign(count);
            when(deq.fire(), () -> count.assign(count.add(1)));
        }
    }

    /** A FIFO that accepts beat #6 (counting from 0) and throws it away: a beat lost inside the design. */
    public static final class Dropping extends Module {
        public static final int DROPPED = 6;
        public final Decoupled<UInt> enq = input(Decoupled.of(UInt(WIDTH)));
        public final Decoupled<UInt> deq = output(Decoupled.of(UInt(WIDTH)));
        public final Queue<UInt> q = instance(fifo());
        public final UInt taken = regInit(UInt(8), 0);

        public Dropping() {
            Bool drop = taken.eq(DROPPED);
            q.enq.valid.assign(enq.valid.and(drop.not()));
            q.enq.bits.assign(enq.bits);
            enq.ready.assign(q.enq.ready.or(drop));
            when(enq.fire().and(taken.lt(255)), () -> taken.assign(taken.add(1)));
            deq.connect(q.deq);
        }
    }

    /** Passes beats on in pairs, the two swapped: beats 0, 1, 2, 3 leave as 1, 0, 3, 2 (reordering). */
    public static final class PairSwapping extends Module {
        public final Decoupled<UInt> enq = input(Decoupled.of(UInt(WIDTH)));
        public final Decoupled<UInt> deq = output(Decoupled.of(UInt(WIDTH)));
        public final UInt first = reg(UInt(WIDTH));
        public final UInt second = reg(UInt(WIDTH));
        /** 0 empty, 1 holding the first of a pair, 2 sending the second, 3 sending the first */
        public final UInt state = regInit(UInt(2), 0);

        public PairSwapping() {
            enq.ready.assign(state.lt(2));
            deq.valid.assign(state.ge(2));
            deq.bits.assign(mux(state.eq(2), second, first));
            when(enq.fire(), () -> when(state.eq(0), () -> {
                first.assign(enq.bits);
                state.assign(1);
            }).otherwise(() -> {
                second.assign(enq.bits);
                state.assign(2);
            }));
            when(deq.fire(), () -> state.assign(mux(state.eq(2), lit(3, 2), lit(0, 2))));
        }
    }

    /** Always valid; while stalled, flips bit 0 of the offered value every other cycle (and back): breaks the hold rule. */
    public static final class Wobbling extends Module {
        public final Decoupled<UInt> deq = output(Decoupled.of(UInt(WIDTH)));
        public final UInt count = regInit(UInt(WIDTH), 0);
        public final UInt phase = regInit(UInt(1), 0);

        public Wobbling() {
            deq.valid.assign(TRUE());
            deq.bits.assign(count.xor(phase.pad(WIDTH)));
            phase.assign(mux(deq.fire(), lit(0, 1), phase.not()));
            when(deq.fire(), () -> count.assign(count.add(1)));
        }
    }

    /** Never ready: anything sent to it waits forever. */
    public static final class Stuck extends Module {
        public final Decoupled<UInt> enq = input(Decoupled.of(UInt(WIDTH)));

        public Stuck() {
            enq.ready.assign(FALSE());
        }
    }
}
