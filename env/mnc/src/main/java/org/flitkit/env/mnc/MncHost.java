package org.flitkit.env.mnc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.host.HostMemory;
import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.rtl.mnc.MncPorts.Event;
import org.flitkit.rtl.mnc.MncPorts.SendRequest;
import org.flitkit.testbench.Component;

/**
 * The GM-like host library of one node (multi-rail paper, section 2.2): a process opens its port on every NIC
 * of the node and registers its DMA buffers on all of them, so any rail can serve it without a system call.
 * {@link #send} copies the message into the registered send buffer, takes a receive buffer the destination
 * provides (laid out like the send buffer, section 2.4) and posts one request to the node's dispatch unit;
 * send events (tokens) free the send buffer, receive events count chunks, and whole messages are delivered
 * to the receiver's listener in order per flow (source node, port).
 */
public final class MncHost extends Component {
    /** Largest message. */
    public static final int MAX_MESSAGE = 1 << 20;
    /** Send and receive buffers of a process (each {@link #MAX_MESSAGE} bytes). */
    public static final int SEND_BUFFERS = 32;
    public static final int RECV_BUFFERS = 64;
    static final long SEND_BASE = 0x1000_0000L;
    static final long RECV_BASE = 0x4000_0000L;

    /** What a receiving process sees: a whole message of a flow, in order. */
    public interface Listener {
        void delivered(MncHost at, int srcNode, int port, int seq, byte[] data);
    }

    private final MncEnv.Ports ports;
    private final int node;
    private final MncParams params;
    private final Platform platform;
    private final HostMemory memory;
    private final MncEnv env;
    private final BitSet openPorts = new BitSet();
    private final BitSet sendFree = new BitSet();
    private final BitSet recvFree = new BitSet();
    private final ArrayDeque<Post> waiting = new ArrayDeque<>();
    private final ArrayDeque<Post> posted = new ArrayDeque<>();
    private final Map<Long, Post> inFlight = new HashMap<>();
    private final Map<Long, Recv> receiving = new HashMap<>();
    private final Map<Long, Integer> nextSeqOut = new HashMap<>();
    private final Map<Long, Integer> nextSeqIn = new HashMap<>();
    private final List<Listener> listeners = new ArrayList<>();
    private long libraryFreeAt;
    private boolean reqValid;
    private long sentMessages;
    private long deliveredMessages;

    /** A message on its way out. */
    private static final class Post {
        int dst;
        int port;
        int seq;
        byte[] data;
        int sendBuf;
        long recvAddr;
        long readyAt;
        int chunksSent;
        Runnable onSent;
    }

    /** A message on its way in. */
    private static final class Recv {
        int buf;
        int len;
        int chunks;
        int nchunks;
    }

    MncHost(String name, MncEnv.Ports ports, int node, MncParams params, Platform platform, HostMemory memory, MncEnv env) {
        super(name);
        this.ports = ports;
        this.node = node;
        this.params = params;
        this.platform = platform;
        this.memory = memory;
        this.env = env;
        sendFree.set(0, SEND_BUFFERS);
        recvFree.set(0, RECV_BUFFERS);
    }

    public int node() {
        return node;
    }

    public HostMemory memory() {
        return memory;
    }

    /** Opens {@code port} on every NIC of this node; its buffers are registered on all of them. */
    public MncHost open(int port) {
        if (port < 0 || port >= 1 << MncParams.FLOW_BITS) {
            throw new IllegalArgumentException("GM port must be in 0.." + ((1 << MncParams.FLOW_BITS) - 1) + ", got " + port);
        }
        openPorts.set(port);
        return this;
    }

    public MncHost listener(Listener l) {
        listeners.add(l);
        return this;
    }

    /**
     * Sends {@code data} from {@code port} of this node to the same port of {@code dstNode}; returns the message's
     * sequence number in its flow. {@code onSent} (may be null) runs when every chunk's send token is back.
     */
    public int send(int port, int dstNode, byte[] data, Runnable onSent) {
        if (!openPorts.get(port)) {
            throw new IllegalStateException("node " + node + ": port " + port + " is not open (open it on every NIC first)");
        }
        if (dstNode < 0 || dstNode >= env.nodes() || dstNode == node) {
            throw new IllegalArgumentException("node " + node + ": no destination node " + dstNode + " (nodes 0.." + (env.nodes() - 1)
                    + ", not itself)");
        }
        if (data.length < 1 || data.length > MAX_MESSAGE) {
            throw new IllegalArgumentException("message length must be in 1.." + MAX_MESSAGE + " bytes, got " + data.length);
        }
        long flow = flowKey(dstNode, port);
        int seq = nextSeqOut.getOrDefault(flow, 0);
        nextSeqOut.put(flow, (seq + 1) & 0xFFFF);
        Post p = new Post();
        p.dst = dstNode;
        p.port = port;
        p.seq = seq;
        p.data = data;
        p.onSent = onSent;
        waiting.add(p);
        return seq;
    }

    /** Messages posted but not yet handed to the NIC, plus those whose tokens are not all back. */
    public int outstanding() {
        return waiting.size() + posted.size() + inFlight.size();
    }

    public long sentMessages() {
        return sentMessages;
    }

    public long deliveredMessages() {
        return deliveredMessages;
    }

    boolean idle() {
        return waiting.isEmpty() && posted.isEmpty() && inFlight.isEmpty() && receiving.isEmpty();
    }

    /** The destination side of {@link #send}: a receive buffer for (src, port, seq), or -1 if none is free. */
    private long provide(int src, int port, int seq, int len) {
        if (!openPorts.get(port)) {
            throw new IllegalStateException("node " + node + ": a message for port " + port + ", which is not open");
        }
        int b = recvFree.nextSetBit(0);
        if (b < 0) {
            return -1;
        }
        recvFree.clear(b);
        Recv r = new Recv();
        r.buf = b;
        r.len = len;
        receiving.put(msgKey(src, port, seq), r);
        return RECV_BASE + (long) b * MAX_MESSAGE;
    }

    @Override
    protected void drive() {
        long now = cycle();
        // the library takes waiting messages as buffers allow: copy into the send buffer, get the receive buffer
        while (!waiting.isEmpty() && !sendFree.isEmpty()) {
            Post p = waiting.peek();
            long addr = env.host(p.dst).provide(node, p.port, p.seq, p.data.length);
            if (addr < 0) {
                break;
            }
            waiting.poll();
            p.sendBuf = sendFree.nextSetBit(0);
            sendFree.clear(p.sendBuf);
            p.recvAddr = addr;
            memory.write(SEND_BASE + (long) p.sendBuf * MAX_MESSAGE, p.data);
            libraryFreeAt = Math.max(libraryFreeAt, now) + platform.cycles(platform.hostSendNs());
            p.readyAt = libraryFreeAt;
            posted.add(p);
            inFlight.put(msgKey(p.dst, p.port, p.seq), p);
        }
        Post head = posted.peek();
        var req = ports.req(node);
        boolean valid = head != null && head.readyAt <= now;
        if (valid || reqValid) {
            sim().poke(req.valid, valid);
        }
        reqValid = valid;
        if (valid) {
            SendRequest b = req.bits;
            sim().poke(b.dstNode, head.dst);
            sim().poke(b.flow, head.port);
            sim().poke(b.seq, head.seq);
            sim().poke(b.srcAddr, SEND_BASE + (long) head.sendBuf * MAX_MESSAGE);
            sim().poke(b.dstAddr, head.recvAddr);
            sim().poke(b.len, head.data.length);
        }
    }

    @Override
    protected void reset() {
        sim().poke(ports.event(node).ready, true);
    }

    @Override
    protected void sample() {
        var req = ports.req(node);
        if (reqValid && sim().peekBool(req.ready)) {
            posted.poll();
        }
        var ev = ports.event(node);
        if (sim().peekBool(ev.valid)) {
            Event e = ev.bits;
            boolean send = sim().peekBool(e.send);
            int peer = (int) sim().peek(e.node);
            int port = (int) sim().peek(e.flow);
            int seq = (int) sim().peek(e.seq);
            int nchunks = (int) sim().peek(e.nchunks);
            if (send) {
                sentChunk(peer, port, seq, nchunks);
            } else {
                receivedChunk(peer, port, seq, nchunks);
            }
        }
    }

    private void sentChunk(int dst, int port, int seq, int nchunks) {
        long k = msgKey(dst, port, seq);
        Post p = inFlight.get(k);
        if (p == null) {
            throw fail("node " + node + ": a send token for node " + dst + " port " + port + " seq " + seq + ", which is not in flight");
        }
        if (++p.chunksSent == nchunks) {
            inFlight.remove(k);
            sendFree.set(p.sendBuf);
            sentMessages++;
            if (p.onSent != null) {
                p.onSent.run();
            }
        }
    }

    private void receivedChunk(int src, int port, int seq, int nchunks) {
        Recv r = receiving.get(msgKey(src, port, seq));
        if (r == null) {
            throw fail("node " + node + ": a chunk from node " + src + " port " + port + " seq " + seq + " with no receive buffer");
        }
        if (r.nchunks != 0 && r.nchunks != nchunks) {
            throw fail("node " + node + ": chunks of one message disagree on their count (" + r.nchunks + " and " + nchunks + ")");
        }
        r.nchunks = nchunks;
        if (++r.chunks > nchunks) {
            throw fail("node " + node + ": more than " + nchunks + " chunks for node " + src + " port " + port + " seq " + seq);
        }
        // deliver every complete message that is next in its flow
        long flow = flowKey(src, port);
        while (true) {
            int next = nextSeqIn.getOrDefault(flow, 0);
            long k = msgKey(src, port, next);
            Recv head = receiving.get(k);
            if (head == null || head.nchunks == 0 || head.chunks < head.nchunks) {
                break;
            }
            receiving.remove(k);
            nextSeqIn.put(flow, (next + 1) & 0xFFFF);
            long addr = RECV_BASE + (long) head.buf * MAX_MESSAGE;
            byte[] data = memory.read(addr, head.len);
            recvFree.set(head.buf);
            deliveredMessages++;
            for (Listener l : listeners) {
                l.delivered(this, src, port, next, data);
            }
        }
    }

    private static long flowKey(int peer, int port) {
        return ((long) peer << 8) | port;
    }

    private static long msgKey(int peer, int port, int seq) {
        return ((long) peer << 40) | ((long) port << 32) | seq;
    }

    @Override
    public List<String> describeState() {
        return List.of("host " + node + ": " + waiting.size() + " waiting, " + posted.size() + " posted, " + inFlight.size()
                + " in flight, " + receiving.size() + " being received");
    }
}
