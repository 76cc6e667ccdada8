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

    public Queue(Supplier<T> gen, int depth) {
        this(gen, depth, false, false);
    }

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
        Queue<T> q = instance(new Queue<>(source.elementType(), depth));
        q.enq.connect(source);
        return q.deq;
    }
}
