package org.flitkit.rtl.chpp;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.testbench.Component;

/**
 * Takes the beats of one of the design's stream outputs with random backpressure (or a forced ready), checks the
 * valid/ready hold rule, and hands each whole packet to {@link #packet}: the beats up to the one with
 * {@code last} on a {@link PacketBeat} stream, one beat per packet on a plain {@code UInt} stream.
 */
public class BeatMonitor extends Component {
    public static final BigInteger MASK128 = BigInteger.ONE.shiftLeft(PacketBeat.DATA_BITS).subtract(BigInteger.ONE);

    final Decoupled<? extends Data> port;
    final double readyP;
    private final Consumer<List<BigInteger>> packets;
    /** when set, ready is this value instead of random */
    public Boolean forceReady;
    private boolean ready;
    private boolean stalled;
    private BigInteger stalledData;
    private boolean stalledLast;
    final List<BigInteger> beats = new ArrayList<>();
    public long beatCount;
    public long firstBeatCycle = -1;
    public long lastBeatCycle = -1;

    public BeatMonitor(String name, Decoupled<? extends Data> port, double readyP, Consumer<List<BigInteger>> packets) {
        super(name);
        this.port = port;
        this.readyP = readyP;
        this.packets = packets;
    }

    /** A whole packet, in the cycle its last beat is taken. */
    protected void packet(List<BigInteger> p) {
        packets.accept(p);
    }

    private BigInteger data() {
        return port.bits instanceof PacketBeat pb ? sim().peekBig(pb.data).and(MASK128) : sim().peekBig((UInt) port.bits).and(MASK128);
    }

    private boolean last() {
        return !(port.bits instanceof PacketBeat pb) || sim().peekBool(pb.last);
    }

    @Override
    protected void drive() {
        ready = forceReady != null ? forceReady : rng().chance(readyP);
        sim().poke(port.ready, ready);
    }

    @Override
    protected void sample() {
        boolean valid = sim().peekBool(port.valid);
        BigInteger d = valid ? data() : null;
        boolean last = valid && last();
        if (stalled && (!valid || !d.equals(stalledData) || last != stalledLast)) {
            throw fail("an offered beat changed or vanished before it was taken (Decoupled hold rule)");
        }
        stalled = valid && !ready;
        stalledData = d;
        stalledLast = last;
        if (valid && ready) {
            beats.add(d);
            beatCount++;
            if (firstBeatCycle < 0) {
                firstBeatCycle = cycle();
            }
            lastBeatCycle = cycle();
            if (last) {
                List<BigInteger> p = List.copyOf(beats);
                beats.clear();
                packet(p);
            }
        }
    }

    @Override
    protected void finish() {
        if (!beats.isEmpty()) {
            throw fail("output ended inside a packet: " + beats.size() + " beats without last");
        }
    }
}
