package org.flitkit.rtl.chpp;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Component;

/**
 * Drives one of the design's stream inputs: the queued beats in order, each shown after random idle cycles and
 * then held (valid and bits) until the design takes it; the counterpart of {@link BeatMonitor}. A beat is whatever
 * pokes its bits ({@link #beat(Consumer)}), a value on a plain {@code UInt} stream, or a (data, last) pair or
 * whole packet on a {@link PacketBeat} stream. It draws from its own {@code rng()} (a stream fixed by its name) once
 * per cycle in which a beat waits to be shown and the {@link #gate} is open, and never otherwise.
 */
public class BeatSource extends Component {
    final Decoupled<? extends Data> port;
    /** the probability of an idle cycle (or, {@link #offering}, of showing the beat) in a cycle a beat waits */
    final double p;
    /** true: a waiting beat is shown with probability {@code p}; false: it waits a cycle with probability {@code p} */
    private final boolean offers;
    private final ArrayDeque<Beat> queue = new ArrayDeque<>();
    private Beat cur;
    private boolean showing;
    private BooleanSupplier gate = () -> true;
    /** beats the design has taken */
    public long taken;
    /** the cycles in which beats were taken, in order */
    public final List<Long> takenAt = new ArrayList<>();
    /** the cycle in which the first beat of each {@link #packet} was taken */
    public final List<Long> headerTaken = new ArrayList<>();

    /** One beat: what pokes its bits, and what hears of the cycle it is taken in (or null). */
    private record Beat(Consumer<Simulator> poke, LongConsumer onTaken) {
    }

    /** A source idle with probability {@code gapP} in each cycle a beat waits to be shown. */
    public BeatSource(String name, Decoupled<? extends Data> port, double gapP) {
        this(name, port, gapP, false);
    }

    private BeatSource(String name, Decoupled<? extends Data> port, double p, boolean offers) {
        super(name);
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + ": probability must be in [0, 1], got " + p);
        }
        this.port = port;
        this.p = p;
        this.offers = offers;
    }

    /**
     * A source that shows a waiting beat with probability {@code offerP} in each cycle (draws {@code chance(offerP)}
     * where the gap form draws {@code !chance(gapP)}: the two keep the random streams of the benches they replaced).
     */
    public static BeatSource offering(String name, Decoupled<? extends Data> port, double offerP) {
        return new BeatSource(name, port, offerP, true);
    }

    /** Beats are shown only in cycles in which {@code open} says true (e.g. after a key table is loaded). */
    public BeatSource gate(BooleanSupplier open) {
        gate = open;
        return this;
    }

    /** Queues a beat whose bits {@code poke} drives. */
    public void beat(Consumer<Simulator> poke) {
        queue.add(new Beat(poke, null));
    }

    /** Queues a beat; {@code onTaken} hears the cycle it is taken in. */
    public void beat(Consumer<Simulator> poke, LongConsumer onTaken) {
        queue.add(new Beat(poke, onTaken));
    }

    /** Queues a value on a plain {@code UInt} stream. */
    public void beat(BigInteger v) {
        if (!(port.bits instanceof UInt u)) {
            throw new IllegalArgumentException(name() + ": a plain value needs a UInt stream, this one carries "
                    + port.bits.getClass().getSimpleName());
        }
        beat(s -> s.poke(u, v));
    }

    /** Queues one {@link PacketBeat}: its data and last flag. */
    public void beat(BigInteger data, boolean last) {
        beat(data, last, null);
    }

    private void beat(BigInteger data, boolean last, LongConsumer onTaken) {
        PacketBeat b = packetBeat();
        beat(s -> {
            s.poke(b.data, data);
            s.poke(b.last, last);
        }, onTaken);
    }

    /** Queues a whole packet: its beats in order, last on the final one; {@link #headerTaken} gets its header's cycle. */
    public void packet(List<BigInteger> beats) {
        if (beats.isEmpty()) {
            throw new IllegalArgumentException(name() + ": a packet has at least its header beat");
        }
        for (int i = 0; i < beats.size(); i++) {
            beat(beats.get(i), i == beats.size() - 1, i == 0 ? headerTaken::add : null);
        }
    }

    private PacketBeat packetBeat() {
        if (!(port.bits instanceof PacketBeat b)) {
            throw new IllegalArgumentException(name() + ": packet beats need a PacketBeat stream, this one carries "
                    + port.bits.getClass().getSimpleName());
        }
        return b;
    }

    /** Nothing queued and nothing on the wires. */
    public boolean idle() {
        return cur == null && queue.isEmpty();
    }

    /** A beat is on the wires (valid high) this cycle. */
    public boolean showing() {
        return showing;
    }

    /** Beats not taken yet, the one on the wires (or next up) included. */
    public int waiting() {
        return queue.size() + (cur == null ? 0 : 1);
    }

    @Override
    protected void reset() {
        sim().poke(port.valid, false);
    }

    @Override
    protected void drive() {
        if (!showing) {
            if (cur == null) {
                cur = queue.poll();
            }
            // the random draw happens only while a beat waits to be shown: once raised, valid stays up until taken
            showing = cur != null && gate.getAsBoolean() && (offers ? rng().chance(p) : !rng().chance(p));
        }
        sim().poke(port.valid, showing);
        if (showing) {
            cur.poke.accept(sim());
        }
    }

    @Override
    protected void sample() {
        if (showing && sim().peekBool(port.ready)) {
            taken++;
            takenAt.add(cycle());
            if (cur.onTaken != null) {
                cur.onTaken.accept(cycle());
            }
            showing = false;
            cur = null;
        }
    }

    @Override
    public List<String> describeState() {
        return List.of(name() + ": " + (cur == null ? 0 : 1) + " + " + queue.size() + " beats queued, " + taken + " taken");
    }
}
