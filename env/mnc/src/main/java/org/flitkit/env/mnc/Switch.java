package org.flitkit.env.mnc;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.rtl.mnc.MncPorts;
import org.flitkit.rtl.mnc.MncPorts.Header;
import org.flitkit.rtl.mnc.MncPorts.Packet;
import org.flitkit.testbench.Component;

/**
 * The links and the switch between all NICs (multi-rail paper: Myrinet 2000, 250 MB/s per link, about 3 us):
 * a crossbar with one full-duplex link per NIC, cut-through like Myrinet's wormhole routing. A packet starts
 * when its source SEND engine offers it and the destination link will have taken the previous packet's tail
 * by the time this head arrives; the head reaches the destination NIC after the link latency and waits there
 * until its RECV engine takes it (backpressure holds the path); the tail follows one serialization time
 * (header and payload at the link rate) later. The source's SEND engine is told when its tail has left.
 */
final class Switch extends Component {
    private final MncEnv.Ports ports;
    private final List<NicSram> sram;
    private final Platform platform;
    private final int nPorts;
    private final int rails;
    private final long latency;
    private final double rate;
    private final Flight[] out;
    /** The packet heading for or being offered to each destination port, until its RECV takes it. */
    private final Flight[] reserved;
    private final double[] downFreeAt;
    private final Flight[] offered;
    private final List<Flight> streaming = new ArrayList<>();
    private final long[] txDoneAt;
    private final boolean[] takeNow;
    private final boolean[] txPulsed;
    private final boolean[] rxPulsed;
    /** Ports whose RECV is told of a tail this cycle (reused every cycle). */
    private final boolean[] rxDone;
    private final boolean[] tookLast;
    private int rr;
    private long packets;
    private long dataBytes;
    private long ctrlPackets;

    /** One packet on the way. */
    private static final class Flight {
        int src;
        int dst;
        long[] hdr;
        byte[] payload;
        long headAt;
        long started;
        long tailAt;
        int slot;
        long serialization;
    }

    Switch(String name, MncEnv.Ports ports, List<NicSram> sram, Platform platform) {
        super(name);
        this.ports = ports;
        this.sram = sram;
        this.platform = platform;
        this.nPorts = sram.size();
        this.rails = ports.rails();
        this.latency = Math.max(1, platform.linkLatencyCycles());
        this.rate = platform.bytesPerCycle(platform.linkMBps());
        out = new Flight[nPorts];
        reserved = new Flight[nPorts];
        downFreeAt = new double[nPorts];
        offered = new Flight[nPorts];
        txDoneAt = new long[nPorts];
        takeNow = new boolean[nPorts];
        txPulsed = new boolean[nPorts];
        rxPulsed = new boolean[nPorts];
        rxDone = new boolean[nPorts];
        tookLast = new boolean[nPorts];
        java.util.Arrays.fill(txDoneAt, -1);
    }

    @Override
    protected void drive() {
        long now = cycle();
        // peeks first: the switch acts first in a cycle, so nothing is poked yet and no re-evaluation is needed
        // new packets: a free source whose destination link will be free when the head gets there; sources in rotation
        for (int i = 0; i < nPorts; i++) {
            int p = (rr + i) % nPorts;
            var tx = ports.tx(p);
            boolean take = false;
            if (out[p] == null && sim().peekBool(tx.valid)) {
                int dst = destination(tx.bits.hdr);
                take = reserved[dst] == null && downFreeAt[dst] <= now + latency;
                if (take) {
                    Flight f = new Flight();
                    f.src = p;
                    f.dst = dst;
                    f.headAt = Long.MAX_VALUE; // set when the handshake completes in sample()
                    reserved[dst] = f;
                    out[p] = f;
                }
            }
            takeNow[p] = take;
        }
        rr = (rr + 1) % nPorts;
        for (int p = 0; p < nPorts; p++) {
            // the source's tail has left: SEND may go on
            boolean done = txDoneAt[p] == now;
            if (done || txPulsed[p]) {
                sim().poke(ports.txDone(p), done);
            }
            txPulsed[p] = done;
            if (done) {
                out[p] = null;
                txDoneAt[p] = -1;
            }
        }
        // tails arriving: bytes into the destination's receive buffer, RECV told
        java.util.Arrays.fill(rxDone, false);
        for (int i = streaming.size() - 1; i >= 0; i--) {
            Flight f = streaming.get(i);
            if (f.tailAt == now) {
                if (f.payload.length > 0) {
                    System.arraycopy(f.payload, 0, sram.get(f.dst).recv[f.slot], 0, f.payload.length);
                }
                rxDone[f.dst] = true;
                streaming.remove(i);
            }
        }
        for (int p = 0; p < nPorts; p++) {
            if (rxDone[p] || rxPulsed[p]) {
                sim().poke(ports.rxDone(p), rxDone[p]);
            }
            rxPulsed[p] = rxDone[p];
            if (takeNow[p] || tookLast[p]) {
                sim().poke(ports.tx(p).ready, takeNow[p]);
            }
            tookLast[p] = takeNow[p];
        }
        // heads arriving: offered to the destination RECV until taken
        for (int p = 0; p < nPorts; p++) {
            Flight f = reserved[p];
            boolean offer = f != null && f.headAt <= now;
            var rx = ports.rx(p);
            if (offer != (offered[p] != null)) {
                sim().poke(rx.valid, offer);
            }
            if (offer && offered[p] != f) {
                offered[p] = f;
                org.flitkit.hdl.Bits[] leaves = ports.rxHeader(p);
                for (int k = 0; k < leaves.length; k++) {
                    sim().poke(leaves[k], f.hdr[k]);
                }
            } else if (!offer) {
                offered[p] = null;
            }
        }
    }

    @Override
    protected void sample() {
        long now = cycle();
        for (int p = 0; p < nPorts; p++) {
            Flight f = out[p];
            if (f != null && f.hdr == null) {
                Packet pk = ports.tx(p).bits;
                org.flitkit.hdl.Bits[] leaves = ports.txHeader(p);
                f.hdr = new long[leaves.length];
                for (int k = 0; k < leaves.length; k++) {
                    f.hdr[k] = sim().peek(leaves[k]);
                }
                int len = (int) sim().peek(pk.hdr.len);
                boolean data = sim().peek(pk.hdr.kind) == MncPorts.KIND_DATA;
                int slot = (int) sim().peek(pk.slot);
                f.payload = data ? java.util.Arrays.copyOf(sram.get(p).send[slot], len) : new byte[0];
                f.serialization = Math.max(1, (long) Math.ceil((f.payload.length + platform.headerBytes()) / rate));
                f.started = now;
                f.headAt = now + latency;
                packets++;
                if (data) {
                    dataBytes += len;
                } else {
                    ctrlPackets++;
                }
            }
        }
        for (int p = 0; p < nPorts; p++) {
            Flight f = offered[p];
            if (f != null && sim().peekBool(ports.rx(p).ready)) {
                f.slot = (int) sim().peek(ports.rxSlot(p));
                f.tailAt = now + f.serialization;
                downFreeAt[p] = f.tailAt;
                reserved[p] = null;
                streaming.add(f);
                // the source is free once its tail has left: a serialization after its start, later if the head waited
                txDoneAt[f.src] = Math.max(f.started + f.serialization, f.tailAt - latency);
                if (txDoneAt[f.src] <= now) {
                    txDoneAt[f.src] = now + 1;
                }
            }
        }
    }

    private int destination(Header h) {
        int node = (int) sim().peek(h.dstNode);
        int rail = (int) sim().peek(h.dstRail);
        int d = node * rails + rail;
        if (rail >= rails || d >= nPorts) {
            throw fail("a packet for node " + node + " rail " + rail + ", which does not exist");
        }
        return d;
    }

    boolean idle() {
        for (int p = 0; p < nPorts; p++) {
            if (out[p] != null || reserved[p] != null) {
                return false;
            }
        }
        return streaming.isEmpty();
    }

    long packets() {
        return packets;
    }

    long dataBytes() {
        return dataBytes;
    }

    long ctrlPackets() {
        return ctrlPackets;
    }

    @Override
    public List<String> describeState() {
        int busy = 0;
        for (Flight f : out) {
            busy += f == null ? 0 : 1;
        }
        return List.of("switch: " + busy + " sources sending, " + streaming.size() + " tails on the way, " + packets + " packets so far");
    }
}
