package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Types.*;

import java.util.function.Supplier;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;

/**
 * A FIFO of {@code depth} elements (chisel3.util.Queue) on a memory with combinational read: an element
 * enqueued on one cycle can be dequeued on the next. {@code flow}: when empty, an element offered on
 * {@code enq} is visible on {@code deq} in the same cycle (and bypasses the memory if taken).
 * {@code pipe}: when full, {@code enq.ready} follows {@code deq.ready}, so a depth-1 pipe queue sustains
 * one element per cycle. {@code count} is the number of stored elements.
 *
 * <p>Preferred form, options by name (docs/dsl.md "Queue options"):
 * {@code instance(new Queue<>(Flit::new, Queue.depth(4).pipe().flow()))}, or on a stream
 * {@code in.queue(Queue.depth(4).pipe())}. The positional constructors remain for existing code.
 */
public final class Queue<T extends Data> extends Module {
    public final Decoupled<T> enq;
    public final Decoupled<T> deq;
    public final UInt count;
    public final int depth;
    public final boolean pipe;
    public final boolean flow;

    private final Mem<UInt> ram;
    private final UInt used;
    private final Bool doEnq;
    private final Bool doDeq;

    /**
     * A queue's options: its depth and whether it is a {@code pipe} and/or {@code flow} queue (both off
     * unless asked for). Immutable: each call returns a new value. Start with {@link Queue#depth(int)}.
     */
    public static final class Options {
        private final int depth;
        private final boolean pipe;
        private final boolean flow;

        private Options(int depth, boolean pipe, boolean flow) {
            if (depth < 1) {
                throw new HdlException("Queue depth " + depth + " must be at least 1");
            }
            this.depth = depth;
            this.pipe = pipe;
            this.flow = flow;
        }

        /** The same options with {@code depth} elements. */
        public Options depth(int n) {
            return new Options(n, pipe, flow);
        }

        /** When full, {@code enq.ready} follows {@code deq.ready}. */
        public Options pipe() {
            return pipe(true);
        }

        public Options pipe(boolean on) {
            return new Options(depth, on, flow);
        }

        /** When empty, an offered element is visible on {@code deq} in the same cycle. */
        public Options flow() {
            return flow(true);
        }

        public Options flow(boolean on) {
            return new Options(depth, pipe, on);
        }

        @Override
        public String toString() {
            return "Queue.depth(" + depth + ")" + (pipe ? ".pipe()" : "") + (flow ? ".flow()" : "");
        }
    }

    /** Options of a queue of {@code n} elements, neither pipe nor flow: add {@code .pipe()}, {@code .flow()}. */
    public static Options depth(int n) {
        return new Options(n, false, false);
    }

    /** A queue of elements made by {@code gen} configured by {@code options}, e.g. {@code Queue.depth(4).pipe()}. */
    public Queue(Supplier<T> gen, Options options) {
        this(gen, options.depth, options.pipe, options.flow);
    }

    public Queue(Supplier<T> gen, int depth) {
        this(gen, depth, false, false);
    }

    /** Positional form of {@link #Queue(Supplier, Options)}; prefer the named options. */
    public Queue(Supplier<T> gen, int depth, boolean pipe, boolean flow) {
        if (depth < 1) {
            throw new HdlException("Queue depth " + depth + " must be at least 1");
        }
        this.depth = depth;
        this.pipe = pipe;
        this.flow = flow;
        enq = input(Decoupled.of(gen));
        deq = output(Decoupled.of(gen));
        count = output(UInt(Bitwise.log2Up(depth + 1)));

        ram = mem(depth, UInt(widthOf(enq.bits)));
        Counter enqPtr = new Counter(depth).named("enqPtr");
        Counter deqPtr = new Counter(depth).named("deqPtr");
        used = regInit(UInt(count.width()), 0);
        Bool empty = used.eq(0);
        Bool full = used.eq(depth);
        doEnq = wireDefault(Bool(), enq.fire());
        doDeq = wireDefault(Bool(), deq.fire());

        when(doEnq, () -> {
            ram.write(enqPtr.value, pack(enq.bits));
            enqPtr.inc();
        });
        when(doDeq, deqPtr::inc);
        when(doEnq.andNot(doDeq), () -> used.assign(used.add(1)))
                .elsewhen(doDeq.andNot(doEnq), () -> used.assign(used.sub(1)));

        deq.valid.assign(empty.not());
        enq.ready.assign(full.not());
        UInt stored = ram.read(deqPtr.value);
        if (flow) {
            when(enq.valid, () -> deq.valid.assign(TRUE()));
            when(empty, () -> {
                doDeq.assign(FALSE());
                when(deq.ready, () -> doEnq.assign(FALSE()));
            });
            unpack(deq.bits, mux(empty, pack(enq.bits), stored));
        } else {
            unpack(deq.bits, stored);
        }
        if (pipe) {
            when(deq.ready, () -> enq.ready.assign(TRUE()));
        }
        count.assign(used);
    }

    /**
     * Instantiates a queue in the current module fed by {@code source} and returns its output (Chisel's
     * {@code Queue(source, entries)}).
     */
    public static <T extends Data> Decoupled<T> of(Decoupled<T> source, int depth) {
        return of(source, depth(depth));
    }

    /** As {@link #of(Decoupled, int)}, with the queue configured by {@code options}. */
    public static <T extends Data> Decoupled<T> of(Decoupled<T> source, Options options) {
        Queue<T> q = instance(new Queue<>(source.elementType(), options));
        q.enq.connect(source);
        return q.deq;
    }
}
