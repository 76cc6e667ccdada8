package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.fabric.Cable;
import org.flitkit.fabric.CableOptions;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.RRArbiter;

/**
 * One direction of the network between two DMA engines (paper section 3.4.3, figures 9 and 10): engine A's
 * {@code tx}/{@code txGet} packets on a credit {@link Cable} with per-VC buffers of {@code depth} beats, a wire of
 * {@code latency} cycles and credits back over the same latency. {@code getOwnVc}: GETs on their own VC (figure 10,
 * the paper's fix) or sharing the PUT/NAP VC in arrival order (figure 9, the deadlock). docs/chpp-network.md.
 */
public final class ChppCable extends Module {
    /** Largest accepted buffer depth and wire latency (a sanity bound on the parameters, not a paper figure). */
    public static final int MAX_DEPTH = 4096;
    public static final int MAX_LATENCY = 1024;
    /** VC numbers on the wire: PUT/NAP (and shared GETs) on 0, GETs on 1 with {@code getOwnVc}. */
    public static final int VC_DATA = 0;
    public static final int VC_GET = 1;
    /** A beat on the cable: the 128 data bits, the {@code last} flag above them (the cable's packet bit). */
    public static final int BEAT_BITS = PacketBeat.DATA_BITS + 1;

    public final int depth;
    public final int latency;
    public final boolean getOwnVc;
    public final int vcs;
    public final Cable cable;

    /** PUT and NAP packets from the sending engine ({@link DmaEngine#tx}). */
    public final Decoupled<PacketBeat> in;
    /** GET packets from the sending engine ({@link DmaEngine#txGet}). */
    public final Decoupled<PacketBeat> inGet;
    /** The data VC's packets to the receiving engine ({@link DmaEngine#rx}); GETs too when they share it. */
    public final Decoupled<PacketBeat> out;
    /** The GET VC's packets to the receiving engine ({@link DmaEngine#rxGet}); never valid without {@code getOwnVc}. */
    public final Decoupled<PacketBeat> outGet;

    /** Beats that have entered the wire (saturating): frozen counts on both links = nothing moves. */
    public final UInt wireBeats;
    /** Per VC: beats that entered the wire, the sender's credits, beats in the receiving buffer (the cable's). */
    public final Vec<UInt> vcBeats;
    public final Vec<UInt> credits;
    public final Vec<UInt> buffered;

    /**
     * The cable of a cHPP link: {@code depth} beats per VC buffer, the beat through {@code latency} wire stages and
     * the buffer's register (latency + 1 cycles), credits back over {@code latency}, packets framed by {@code last}.
     */
    public static CableOptions options(int depth, int latency, boolean getOwnVc) {
        if (depth < 1 || depth > MAX_DEPTH) {
            throw new IllegalArgumentException("cHPP cable depth " + depth + " outside 1.." + MAX_DEPTH + " beats per VC buffer");
        }
        if (latency < 1 || latency > MAX_LATENCY) {
            throw new IllegalArgumentException("cHPP cable latency " + latency + " outside 1.." + MAX_LATENCY
                    + " cycles (a wire is at least one register stage each way)");
        }
        return CableOptions.credits(BEAT_BITS, latency + 1).withDepth(depth).withCreditLatency(latency)
                .withVcs(getOwnVc ? 2 : 1).withPackets();
    }

    /** {@code depth} beats per VC buffer (1..4096), {@code latency} cycles each way (1..1024). */
    public ChppCable(int depth, int latency, boolean getOwnVc) {
        CableOptions o = options(depth, latency, getOwnVc);
        this.depth = depth;
        this.latency = latency;
        this.getOwnVc = getOwnVc;
        this.vcs = o.vcs();
        in = input(Decoupled.of(PacketBeat::new));
        inGet = input(Decoupled.of(PacketBeat::new));
        out = output(Decoupled.of(PacketBeat::new));
        outGet = output(Decoupled.of(PacketBeat::new));
        cable = instance("cable", new Cable(o));
        cable.flip.assign(lit(0, BEAT_BITS));

        if (getOwnVc) {
            send(cable.vcIn.get(VC_DATA), in);
            send(cable.vcIn.get(VC_GET), inGet);
            receive(outGet, cable.vcOut.get(VC_GET));
        } else {
            // GETs merged into the data VC packet by packet, as they come
            RRArbiter<PacketBeat> merge = instance("shareVc", new RRArbiter<>(PacketBeat::new, 2, Lock.until(b -> b.last)));
            merge.in.get(0).connect(in);
            merge.in.get(1).connect(inGet);
            send(cable.in, merge.out);
            outGet.valid.assign(FALSE());
            outGet.bits.data.assign(lit(0, PacketBeat.DATA_BITS));
            outGet.bits.last.assign(FALSE());
        }
        receive(out, cable.vcOut.get(VC_DATA));
        wireBeats = cable.flits;
        vcBeats = cable.vcFlits;
        credits = cable.credits;
        buffered = cable.buffered;
    }

    /** A packet stream onto a cable VC: the beat with {@code last} as its top bit. */
    private static void send(Decoupled<UInt> vc, Decoupled<PacketBeat> src) {
        vc.valid.assign(src.valid);
        vc.bits.assign(cat(src.bits.last, src.bits.data));
        src.ready.assign(vc.ready);
    }

    private static void receive(Decoupled<PacketBeat> dst, Decoupled<UInt> vc) {
        dst.valid.assign(vc.valid);
        dst.bits.data.assign(vc.bits.bits(PacketBeat.DATA_BITS - 1, 0));
        dst.bits.last.assign(vc.bits.bit(PacketBeat.DATA_BITS));
        vc.ready.assign(dst.ready);
    }
}
