package org.flitkit.rtl.chpp.xbar;

import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.PacketBeat;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.core.Field;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;

/**
 * The intra-DMA crossbar (paper section 2.3 and figure 3: it switches the DMA engines' packets inside the cHPP
 * controller; section 5.4: Dest-Mod virtual channels; section 3.4.3: GET on its own VC): {@code ports} inputs and
 * outputs of 128-bit packet beats; each input keeps one buffer per VC, VC = destination mod {@code vcs}, plus one
 * buffer for GET packets; each output takes whole packets from its VC heads in round robin. GETs leave on an output
 * of their own ({@link #getOut}), so a GET waiting for room in a receive engine's GET path never holds up the PUTs
 * behind it, and a PUT never holds up a GET. docs/chpp-dma.md, "Intra-DMA crossbar".
 */
public final class DmaCrossbar extends Module {
    /** Default depth of a PUT/NAP VC buffer: two 128-byte-MTU packets of 1 header + 8 data beats. */
    public static final int DEFAULT_VC_DEPTH = 18;
    /** Default depth of the GET VC buffer: two GET packets (header + the 32-byte GET descriptor = 3 beats). */
    public static final int DEFAULT_GET_DEPTH = 6;
    /** Largest buffer depth accepted, in beats (two 4096-byte packets of 257 beats each fit in 1024). */
    public static final int MAX_DEPTH = 1024;
    /** Destination port bits come from the top of DST_ID, so at most 2^8 ports. */
    public static final int MAX_PORTS = 1 << HeaderLayout.HEADER.DST_ID.width();

    public final int ports;
    public final int vcs;
    public final int vcDepth;
    public final int getDepth;
    /** Index of the GET VC in every input (after the {@code vcs} Dest-Mod VCs). */
    public final int getVc;
    /** The header bits (of the 128-bit first beat) that name the destination port: see {@link #destinationField(int)}. */
    public final Field destField;

    /** Packets from the DMA engine of each port (its packer): PUT and NAP by Dest-Mod VC, GET to the GET buffer. */
    public final Vec<Decoupled<PacketBeat>> in;
    /**
     * The GET path of each port (the send engine's descriptor extract packs GET descriptors into GET packets here,
     * paper section 4.1): straight into the port's GET buffer, so a GET never waits behind a PUT on {@code in}.
     */
    public final Vec<Decoupled<PacketBeat>> getIn;
    /** PUT and NAP packets toward each port's receive dispatch; a packet's beats leave back to back, never interleaved. */
    public final Vec<Decoupled<PacketBeat>> out;
    /** GET packets toward each port's receive engine (its GET path), from every input's GET buffer, whole packets. */
    public final Vec<Decoupled<PacketBeat>> getOut;
    /** Per input: packets dropped because their header names a port {@code >= ports} (saturating 32-bit). */
    public final Vec<UInt> badDestination;
    /** Per port: packets dropped from {@code getIn} because their header names a port {@code >= ports}. */
    public final Vec<UInt> getBadDestination;
    /** Per input and VC ({@code vcs + 1} per input, the last one GET): beats stored. */
    public final Vec<Vec<UInt>> occupancy;

    /** Crossbar with the default buffer depths. */
    public DmaCrossbar(int ports, int vcs) {
        this(ports, vcs, DEFAULT_VC_DEPTH, DEFAULT_GET_DEPTH);
    }

    /** {@code vcDepth}, {@code getDepth}: beats per PUT/NAP VC buffer and per GET buffer of each input. */
    public DmaCrossbar(int ports, int vcs, int vcDepth, int getDepth) {
        // checked before Module's constructor runs, so a bad size fails with its own message even outside elaboration
        this(check(ports, vcs, vcDepth, getDepth));
    }

    private DmaCrossbar(int[] sizes) {
        int ports = sizes[0];
        int vcs = sizes[1];
        int vcDepth = sizes[2];
        int getDepth = sizes[3];
        this.ports = ports;
        this.vcs = vcs;
        this.vcDepth = vcDepth;
        this.getDepth = getDepth;
        this.getVc = vcs;
        this.destField = destinationField(ports);
        int nvc = vcs + 1;
        int portBits = log2Up(ports);
        int vcBits = log2Up(nvc);

        in = input(Vec(ports, () -> Decoupled.of(PacketBeat::new)));
        getIn = input(Vec(ports, () -> Decoupled.of(PacketBeat::new)));
        out = output(Vec(ports, () -> Decoupled.of(PacketBeat::new)));
        getOut = output(Vec(ports, () -> Decoupled.of(PacketBeat::new)));
        badDestination = output(Vec(ports, () -> UInt(Counters.BITS)));
        getBadDestination = output(Vec(ports, () -> UInt(Counters.BITS)));
        occupancy = output(Vec(ports, () -> Vec(nvc, () -> UInt(log2Up(Math.max(vcDepth, getDepth) + 1)))));

        // queues[i][v]: input i's buffer for VC v; every beat carries its packet's output port
        List<List<Queue<RoutedBeat>>> queues = new ArrayList<>();
        for (int i = 0; i < ports; i++) {
            Decoupled<PacketBeat> src = in.get(i);
            Steer st = steer(src, "in" + i, false, portBits, vcBits);
            Steer gst = steer(getIn.get(i), "getIn" + i, true, portBits, vcBits);
            List<Queue<RoutedBeat>> row = new ArrayList<>();
            List<Bool> accept = new ArrayList<>();
            for (int v = 0; v < nvc; v++) {
                int depth = v == getVc ? getDepth : vcDepth;
                Queue<RoutedBeat> q = instance("in" + i + "vc" + v, new Queue<>(() -> new RoutedBeat(portBits), depth));
                Bool sel = st.vc.eq(v);
                Decoupled<RoutedBeat> enq = q.enq;
                if (v == getVc) {
                    // the GET buffer has two writers: GETs on in[i] and the GET path getIn[i]; whole packets each
                    RRArbiter<RoutedBeat> merge = instance("in" + i + "getMerge",
                            new RRArbiter<>(() -> new RoutedBeat(portBits), 2, Lock.until(b -> b.last)));
                    q.enq.connect(merge.out);
                    Decoupled<RoutedBeat> g = merge.in.get(1);
                    g.valid.assign(getIn.get(i).valid.andNot(gst.drop));
                    g.bits.data.assign(getIn.get(i).bits.data);
                    g.bits.last.assign(getIn.get(i).bits.last);
                    g.bits.port.assign(gst.port);
                    getIn.get(i).ready.assign(gst.drop.or(g.ready));
                    enq = merge.in.get(0);
                }
                enq.valid.assign(src.valid.and(sel).andNot(st.drop));
                enq.bits.data.assign(src.bits.data);
                enq.bits.last.assign(src.bits.last);
                enq.bits.port.assign(st.port);
                accept.add(sel.and(enq.ready));
                occupancy.get(i).get(v).assign(q.count);
                row.add(q);
            }
            queues.add(row);
            // a dropped packet is consumed at line rate so its input never hangs
            Bool anyAccept = FALSE();
            for (Bool a : accept) {
                anyAccept = anyAccept.or(a);
            }
            src.ready.assign(st.drop.or(anyAccept));
            st.update();
            gst.update();
            badDestination.get(i).assign(Counters.count(st.dropped, "badDestination" + i));
            getBadDestination.get(i).assign(Counters.count(gst.dropped, "getBadDestination" + i));
        }

        // per output, one round-robin arbiter over the PUT/NAP VC heads of every input and one over the GET heads;
        // the lock keeps a packet's beats together
        List<List<Bool>> readyTo = new ArrayList<>();
        for (int k = 0; k < ports * nvc; k++) {
            readyTo.add(new ArrayList<>());
        }
        for (int o = 0; o < ports; o++) {
            RRArbiter<PacketBeat> arb = instance("out" + o + "arb",
                    new RRArbiter<>(PacketBeat::new, ports * vcs, Lock.until(b -> b.last)));
            RRArbiter<PacketBeat> getArb = instance("getOut" + o + "arb",
                    new RRArbiter<>(PacketBeat::new, ports, Lock.until(b -> b.last)));
            for (int i = 0; i < ports; i++) {
                for (int v = 0; v < nvc; v++) {
                    int k = i * nvc + v;
                    Decoupled<RoutedBeat> head = queues.get(i).get(v).deq;
                    Bool mine = head.bits.port.eq(o);
                    Decoupled<PacketBeat> req = v == getVc ? getArb.in.get(i) : arb.in.get(i * vcs + v);
                    req.valid.assign(head.valid.and(mine));
                    req.bits.data.assign(head.bits.data);
                    req.bits.last.assign(head.bits.last);
                    readyTo.get(k).add(req.ready.and(mine));
                }
            }
            out.get(o).connect(arb.out);
            getOut.get(o).connect(getArb.out);
        }
        for (int i = 0; i < ports; i++) {
            for (int v = 0; v < nvc; v++) {
                Bool r = FALSE();
                for (Bool b : readyTo.get(i * nvc + v)) {
                    r = r.or(b);
                }
                queues.get(i).get(v).deq.ready.assign(r);
            }
        }
    }

    /** Where the current beat of one input stream goes: decided at the header, held for the packet's other beats. */
    private final class Steer {
        final Decoupled<PacketBeat> src;
        final Bool inPkt;
        final UInt curVc;
        final UInt curPort;
        final Bool curDrop;
        UInt vc;
        UInt port;
        Bool drop;
        /** a header with an out-of-range destination is taken (and its packet dropped) */
        Bool dropped;

        Steer(Decoupled<PacketBeat> src, String name, boolean getPath, int portBits, int vcBits) {
            this.src = src;
            inPkt = regInit(Bool(), 0).named(name + "_inPkt");
            // the GET path has one buffer: no VC to remember
            curVc = getPath ? null : regInit(UInt(vcBits), 0).named(name + "_vc");
            curPort = regInit(UInt(portBits), 0).named(name + "_port");
            curDrop = regInit(Bool(), 0).named(name + "_drop");
        }

        void update() {
            when(src.fire(), () -> {
                inPkt.assign(src.bits.last.not());
                if (curVc != null) {
                    curVc.assign(vc);
                }
                curPort.assign(port);
                curDrop.assign(drop);
            });
        }
    }

    private Steer steer(Decoupled<PacketBeat> src, String name, boolean getPath, int portBits, int vcBits) {
        Field pkt = HeaderLayout.HEADER.PKT_TYPE;
        Steer st = new Steer(src, name, getPath, portBits, vcBits);
        UInt hdrDest = src.bits.data.bits(destField.msb(), destField.lsb());
        // with 2^destBits ports every destination exists
        Bool hdrBad = ports == 1 << destField.width() ? FALSE() : hdrDest.ge(ports);
        UInt getVcLit = lit(getVc, vcBits);
        UInt hdrVc = getPath ? getVcLit
                : mux(src.bits.data.bits(pkt.msb(), pkt.lsb()).eq(PktType.GET.code()), getVcLit, destModVc(hdrDest, vcBits));
        st.vc = getPath ? hdrVc : mux(st.inPkt, st.curVc, hdrVc);
        st.port = mux(st.inPkt, st.curPort, hdrDest.bits(portBits - 1, 0));
        st.drop = mux(st.inPkt, st.curDrop, hdrBad);
        st.dropped = src.fire().andNot(st.inPkt).and(hdrBad);
        return st;
    }

    /** Dest-Mod (paper section 5.4): a packet for port d waits in VC d mod {@code vcs}. */
    private UInt destModVc(UInt dest, int vcBits) {
        if (Integer.bitCount(vcs) == 1) {
            return vcs == 1 ? lit(0, vcBits) : dest.bits(Integer.numberOfTrailingZeros(vcs) - 1, 0).pad(vcBits);
        }
        UInt vc = wireDefault(UInt(vcBits), 0);
        for (int d = 0; d < ports; d++) {
            int v = d % vcs;
            when(dest.eq(d), () -> vc.assign(v));
        }
        return vc;
    }

    /**
     * The header bits that name the destination port: the top bits of DST_ID, as many as the port number needs
     * but at least the processor field. Up to 8 ports this is exactly DST_ID's processor field (one port per
     * processor's NIC); more ports (the paper's 16-port simulation) extend it into the function field's top bits.
     */
    public static Field destinationField(int ports) {
        Field dst = HeaderLayout.HEADER.DST_ID;
        Field proc = EndpointId.LAYOUT.PROCESSOR;
        if (proc.lsb() + proc.width() != dst.width()) {
            throw new IllegalStateException("the processor field is no longer the top of DST_ID: " + proc);
        }
        int bits = Math.max(proc.width(), log2Up(ports));
        return new Field("destination", dst.lsb() + dst.width() - bits, bits);
    }

    /** The VC (0..vcs) a packet with this header takes: GET on VC {@code vcs}, others destination mod {@code vcs}. */
    public static int vcOf(int dest, boolean get, int vcs) {
        return get ? vcs : dest % vcs;
    }

    static int[] check(int ports, int vcs, int vcDepth, int getDepth) {
        if (ports < 2 || ports > MAX_PORTS) {
            throw new IllegalArgumentException("DmaCrossbar: ports must be 2.." + MAX_PORTS
                    + " (the destination comes from the 8-bit DST_ID), got " + ports);
        }
        if (vcs < 1 || vcs > ports) {
            throw new IllegalArgumentException("DmaCrossbar: vcs must be 1..ports (" + ports
                    + "); with Dest-Mod (destination mod vcs) a VC beyond the port count would never be used, got " + vcs);
        }
        if (vcDepth < 1 || vcDepth > MAX_DEPTH) {
            throw new IllegalArgumentException("DmaCrossbar: vcDepth must be 1.." + MAX_DEPTH + " beats, got " + vcDepth);
        }
        if (getDepth < 1 || getDepth > MAX_DEPTH) {
            throw new IllegalArgumentException("DmaCrossbar: getDepth must be 1.." + MAX_DEPTH + " beats, got " + getDepth);
        }
        return new int[] {ports, vcs, vcDepth, getDepth};
    }

    /** A buffered beat with the output port its packet goes to (decided at the header, kept for every beat). */
    static final class RoutedBeat extends Bundle {
        public final UInt data = UInt(PacketBeat.DATA_BITS);
        public final Bool last = Bool();
        public final UInt port;

        RoutedBeat(int portBits) {
            port = UInt(portBits);
        }
    }
}
