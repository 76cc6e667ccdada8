package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;

/**
 * A ready/valid stream (Chisel's {@code DecoupledIO}): the producer drives {@code valid} and {@code bits},
 * the consumer drives {@code ready}, and one element moves on every cycle where both are high
 * ({@link #fire()}).
 *
 * <p>Handshake rules: {@code valid} must not depend combinationally on {@code ready}; once {@code valid}
 * is high, {@code valid} and {@code bits} hold until the element fires. {@code ready} may depend on
 * {@code valid} and may drop at any time.
 *
 * <p>As ports: {@code output(Decoupled.of(UInt(20)))} is a producer, {@code input(Decoupled.of(UInt(20)))}
 * a consumer (Chisel's {@code Flipped(Decoupled(...))}); join two with {@code a.connect(b)}.
 *
 * <p>Stream operators (SpinalHDL's {@code Stream} style, docs/dsl.md "Stream operators"): called on a stream
 * that is hardware in the module under construction (an input port, a child's output, or another
 * operator's result), each builds its logic in that module, drives this stream's {@code ready} and returns
 * a new stream whose {@code ready} the caller must drive (connect it, {@code deq()} it, or chain another
 * operator). Every operator keeps the handshake rules above on its output.
 */
public final class Decoupled<T extends Data> extends Bundle {
    public final Bool ready = flipped(Bool());
    public final Bool valid = Bool();
    public final T bits;
    /** fresh copies of the element type; null until needed when created from a type instance */
    private Supplier<T> gen;

    private Decoupled(T bits, Supplier<T> gen) {
        this.bits = bits;
        this.gen = gen;
    }

    /** A stream type of elements made by {@code gen}, e.g. {@code Decoupled.of(() -> new Flit())}. */
    public static <T extends Data> Decoupled<T> of(Supplier<T> gen) {
        return new Decoupled<>(gen.get(), gen);
    }

    /**
     * A stream of {@code type}, a fresh type such as {@code UInt(20)} (it becomes the bits field). The ground
     * types have one overload each rather than one generic {@code of(T)}: a type variable parameter would
     * make {@code of(Flit::new)} ambiguous with {@link #of(Supplier)} and force a cast.
     */
    public static Decoupled<UInt> of(UInt type) {
        return new Decoupled<>(type, null);
    }

    /** A stream of any type instance, e.g. {@code Decoupled.ofType(new Flit())} (it becomes the bits field). */
    public static <T extends Data> Decoupled<T> ofType(T type) {
        return new Decoupled<>(type, null);
    }

    public static Decoupled<SInt> of(SInt type) {
        return new Decoupled<>(type, null);
    }

    public static Decoupled<Bool> of(Bool type) {
        return new Decoupled<>(type, null);
    }

    /** Fresh copies of the element type. */
    public Supplier<T> elementType() {
        if (gen == null) {
            gen = Types.supplierOf(bits);
        }
        return gen;
    }

    /** A fresh, unbound stream type like this one. */
    public Decoupled<T> cloneType() {
        return of(elementType());
    }

    /** High when an element moves this cycle: valid && ready. */
    public Bool fire() {
        return valid.and(ready);
    }

    // ---------------------------------------------------------------- Chisel's DecoupledIO helpers

    /** Producer side: offers {@code data} (under the enclosing when conditions). */
    public void enq(Data data) {
        valid.assign(TRUE());
        bits.assign(data);
    }

    /** Producer side: offers nothing; drives bits to zero (there is no DontCare). */
    public void noenq() {
        valid.assign(FALSE());
        for (Bits leaf : bits.leaves()) {
            leaf.assign(0);
        }
    }

    /** Consumer side: accepts an element if one is offered and returns the bits. */
    public T deq() {
        ready.assign(TRUE());
        return bits;
    }

    /** Consumer side: accepts nothing. */
    public void nodeq() {
        ready.assign(FALSE());
    }

    // ---------------------------------------------------------------- stream operators

    /** A fresh stream of this element type as a wire of the current module. */
    private Decoupled<T> newStream() {
        return wire(cloneType());
    }

    /**
     * This stream through a {@link Queue} of {@code depth} elements: the queue's output. The queue adds
     * one cycle of latency and decouples {@code ready} (Chisel's {@code Queue(source, entries)}).
     */
    public Decoupled<T> queue(int depth) {
        return Queue.of(this, depth);
    }

    /** This stream through a queue configured by name, e.g. {@code queue(Queue.depth(2).pipe())}. */
    public Decoupled<T> queue(Queue.Options options) {
        return Queue.of(this, options);
    }

    /**
     * A register stage on {@code valid} and {@code bits} (SpinalHDL's {@code m2sPipe}, a pipe queue of one):
     * one cycle of latency at full throughput; the output's {@code valid} and {@code bits} come from
     * registers, while this stream's {@code ready} still depends combinationally on the output's.
     */
    public Decoupled<T> m2sPipe() {
        Decoupled<T> out = newStream();
        Bool full = regInit(Bool(), 0).named("m2sPipe_valid");
        T data = reg(elementType().get()).named("m2sPipe_bits");
        ready.assign(full.not().or(out.ready));
        when(ready, () -> {
            full.assign(valid);
            data.assign(bits);
        });
        out.valid.assign(full);
        out.bits.assign(data);
        return out;
    }

    /**
     * A register stage on {@code ready} (SpinalHDL's {@code s2mPipe}, a skid buffer): this stream's
     * {@code ready} comes from a register, so the output's {@code ready} reaches no further back. An element
     * offered while the output stalls is parked in the buffer; no latency, full throughput.
     */
    public Decoupled<T> s2mPipe() {
        Decoupled<T> out = newStream();
        Bool parked = regInit(Bool(), 0).named("s2mPipe_valid");
        T data = reg(elementType().get()).named("s2mPipe_bits");
        ready.assign(parked.not());
        out.valid.assign(valid.or(parked));
        out.bits.assign(bits);
        when(parked, () -> out.bits.assign(data));
        when(parked, () -> when(out.ready, () -> parked.assign(FALSE())))
                .elsewhen(valid.andNot(out.ready), () -> {
                    parked.assign(TRUE());
                    data.assign(bits);
                });
        return out;
    }

    /**
     * A register stage on all of {@code valid}, {@code bits} and {@code ready} (SpinalHDL's {@code halfPipe}):
     * no combinational path between the two sides, one cycle of latency, half throughput (one element every
     * two cycles).
     */
    public Decoupled<T> halfPipe() {
        Decoupled<T> out = newStream();
        Bool full = regInit(Bool(), 0).named("halfPipe_valid");
        T data = reg(elementType().get()).named("halfPipe_bits");
        ready.assign(full.not());
        when(full.not(), () -> {
            full.assign(valid);
            data.assign(bits);
        }).elsewhen(out.ready, () -> full.assign(FALSE()));
        out.valid.assign(full);
        out.bits.assign(data);
        return out;
    }

    /**
     * The same handshake carrying {@code fn(bits)} (Chisel's {@code map}): {@code valid} and {@code ready}
     * pass through unchanged, so the new bits must depend only on this stream's bits and state.
     */
    public <R extends Data> Decoupled<R> map(Function<T, R> fn) {
        R mapped = fn.apply(bits);
        Decoupled<R> out = wire(Decoupled.of(Types.supplierOf(mapped)));
        out.valid.assign(valid);
        out.bits.assign(mapped);
        ready.assign(out.ready);
        return out;
    }

    /**
     * Drops the elements for which {@code cond} is high (SpinalHDL's {@code throwWhen}): a dropped element
     * is not offered on the output and is taken here at once ({@code ready} high for it).
     */
    public Decoupled<T> throwWhen(Bool cond) {
        Decoupled<T> out = newStream();
        out.valid.assign(valid.andNot(cond));
        out.bits.assign(bits);
        ready.assign(out.ready.or(cond));
        return out;
    }

    /** Keeps only the elements whose bits satisfy {@code pred}; the others are dropped as by {@link #throwWhen}. */
    public Decoupled<T> filter(Function<T, Bool> pred) {
        return throwWhen(pred.apply(bits).not());
    }

    /**
     * Holds the stream while {@code cond} is high (SpinalHDL's {@code haltWhen}): the output shows no
     * element and this stream is not ready, so the element waits; nothing is dropped.
     */
    public Decoupled<T> haltWhen(Bool cond) {
        Decoupled<T> out = newStream();
        out.valid.assign(valid.andNot(cond));
        out.bits.assign(bits);
        ready.assign(out.ready.andNot(cond));
        return out;
    }

    /** Lets elements through only while {@code cond} is high: {@code haltWhen(!cond)}. */
    public Decoupled<T> continueWhen(Bool cond) {
        return haltWhen(cond.not());
    }

    /**
     * {@code n} copies of this stream, each element delivered once on every output (SpinalHDL's eager
     * {@code StreamFork}): each output takes the element as soon as it is ready, a register per output
     * remembers that it already has it, and this stream's {@code ready} rises when every output has taken
     * it or takes it now. An output's {@code valid} never depends on any {@code ready}.
     */
    public List<Decoupled<T>> fork(int n) {
        if (n < 1) {
            throw new HdlException("fork(" + n + "): a stream forks into at least 1 output");
        }
        List<Decoupled<T>> outs = new ArrayList<>(n);
        List<Bool> done = new ArrayList<>(n);
        List<Bool> taken = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Decoupled<T> out = newStream();
            Bool had = regInit(Bool(), 0).named("fork_done_" + i);
            out.valid.assign(valid.andNot(had));
            out.bits.assign(bits);
            outs.add(out);
            done.add(had);
            taken.add(had.or(out.ready));
        }
        ready.assign(reduceTree(taken, Bool::and));
        for (int i = 0; i < n; i++) {
            Bool had = done.get(i);
            Bool fires = outs.get(i).fire();
            when(fire(), () -> had.assign(FALSE())).elsewhen(fires, () -> had.assign(TRUE()));
        }
        return outs;
    }

    /**
     * One stream that fires when every input has an element (SpinalHDL's {@code StreamJoin}): its
     * {@code valid} is the AND of the inputs' and every input fires together with it. Its bits are the
     * inputs' bits packed, the first input most significant; the inputs' own bits stay readable, so
     * {@code join(a, b).map(x -> a.bits.add(b.bits))} combines them.
     */
    public static Decoupled<UInt> join(Decoupled<?>... inputs) {
        if (inputs.length < 1) {
            throw new HdlException("join: give at least one stream");
        }
        List<Bool> valids = new ArrayList<>(inputs.length);
        List<UInt> packed = new ArrayList<>(inputs.length);
        for (Decoupled<?> in : inputs) {
            valids.add(in.valid);
            packed.add(Types.pack(in.bits));
        }
        UInt all = cat(packed);
        Decoupled<UInt> out = wire(Decoupled.of(UInt(all.width())));
        out.valid.assign(reduceTree(valids, Bool::and));
        out.bits.assign(all);
        for (Decoupled<?> in : inputs) {
            in.ready.assign(out.fire());
        }
        return out;
    }
}
