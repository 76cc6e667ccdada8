package org.flitkit.env.xud;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.stream.StreamSource;

/**
 * The network between the adapters: every packet an adapter sends arrives at the adapter its DLID names
 * after {@code latency} cycles, unless the seeded {@link Faults} drop it (data and ACKs at their own rates),
 * duplicate it (the copy takes its own path), reorder it (up to {@code reorderSpread} extra cycles, so
 * later packets overtake it) or corrupt it (one random bit flipped outside the LRH, which a real link's VCRC
 * protects: a VCRC error is a loss). Delivery goes through each adapter's input queue, one packet per cycle.
 * A network routing whole packets among n adapters, not a cable: docs/cable.md, "XUD's network".
 */
public final class XudNetwork extends Component {
    private record Flight(long due, long seq, BigInteger packet) {
    }

    /** First container bit below the LRH: corruption flips one of bits 0..{@value}. */
    private static final int CORRUPTIBLE_BITS = XudFormat.CONTAINER_BITS - 64;

    private final List<StreamSource> toAdapters;
    private final List<PriorityQueue<Flight>> inFlight = new ArrayList<>();
    private final int latency;
    private final int reorderSpread;
    private final Faults faults;
    private long seq;
    private long dataPackets;
    private long acks;
    private long dropped;
    private long acksDropped;
    private long duplicated;
    private long reordered;
    private long corrupted;
    private long unroutable;

    public XudNetwork(String name, List<StreamSource> toAdapters, int latency, int reorderSpread, Faults faults) {
        super(name);
        if (latency < 1 || reorderSpread < 1) {
            throw new IllegalArgumentException("latency and reorder spread must be at least 1 cycle, got " + latency + " and " + reorderSpread);
        }
        this.toAdapters = List.copyOf(toAdapters);
        this.latency = latency;
        this.reorderSpread = reorderSpread;
        this.faults = faults;
        for (int i = 0; i < toAdapters.size(); i++) {
            inFlight.add(new PriorityQueue<>((a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq)));
        }
    }

    /** A packet adapter {@code from} put on the wire this cycle. */
    public void inject(BigInteger packet) {
        Rng r = rng();
        boolean ack = XudFormat.isAck(packet);
        if (ack) {
            acks++;
        } else {
            dataPackets++;
        }
        if (r.chance(ack ? faults.ackLoss() : faults.loss())) {
            if (ack) {
                acksDropped++;
            } else {
                dropped++;
            }
            return;
        }
        int dest = (int) XudFormat.DLID.get(packet) - 1;
        if (dest < 0 || dest >= toAdapters.size()) {
            unroutable++;
            return;
        }
        send(dest, packet, r);
        if (r.chance(faults.dup())) {
            duplicated++;
            send(dest, packet, r);
        }
    }

    private void send(int dest, BigInteger packet, Rng r) {
        BigInteger p = packet;
        if (r.chance(faults.corrupt())) {
            corrupted++;
            p = p.flipBit(r.nextInt(CORRUPTIBLE_BITS));
        }
        long due = cycle() + latency;
        if (r.chance(faults.reorder())) {
            reordered++;
            due += 1 + r.nextInt(reorderSpread);
        }
        inFlight.get(dest).add(new Flight(due, seq++, p));
    }

    @Override
    protected void drive() {
        long now = cycle();
        for (int i = 0; i < inFlight.size(); i++) {
            PriorityQueue<Flight> q = inFlight.get(i);
            while (!q.isEmpty() && q.peek().due() <= now) {
                toAdapters.get(i).send(q.poll().packet());
            }
        }
    }

    /** Nothing in flight and nothing waiting at an adapter's input. */
    public boolean idle() {
        for (int i = 0; i < inFlight.size(); i++) {
            if (!inFlight.get(i).isEmpty() || !toAdapters.get(i).idle()) {
                return false;
            }
        }
        return true;
    }

    public long dataPackets() {
        return dataPackets;
    }

    public long acks() {
        return acks;
    }

    public long dropped() {
        return dropped;
    }

    public long acksDropped() {
        return acksDropped;
    }

    public long duplicated() {
        return duplicated;
    }

    public long reordered() {
        return reordered;
    }

    public long corrupted() {
        return corrupted;
    }

    public long unroutable() {
        return unroutable;
    }
}
