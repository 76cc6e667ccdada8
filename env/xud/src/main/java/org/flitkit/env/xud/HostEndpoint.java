package org.flitkit.env.xud;

import static org.flitkit.env.xud.BundleCodec.big;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.env.host.DmaParams;
import org.flitkit.env.host.HostDma;
import org.flitkit.env.host.HostMemory;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.formats.xud.XudFormat.SendStatus;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.rtl.xud.XudPorts;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;

/**
 * The host of one adapter, as its verbs driver sees it: host memory behind the adapter's DMA port, the QPs
 * created at start, receive buffers kept posted (each re-posted once its message is consumed), send
 * requests rung as doorbells, and the two completion rings polled by owner bit. Completions go to a
 * {@link Listener}: the {@link WindowLayer}, or a test looking at the bare hardware.
 */
public final class HostEndpoint extends Component {
    /** A send completion read from the ring. */
    public record SendCompletion(long wrId, SendStatus status, int syndrome, int qp, int psn) {
    }

    /** A receive completion with its XUDETH fields and the data read from its buffer. */
    public record RecvCompletion(int qp, long wrId, int slid, int psn, int srcQp, long qKey, int winId, long winMsn, byte[] data) {
    }

    /** Who consumes this host's completions. */
    public interface Listener {
        void onSend(HostEndpoint host, SendCompletion c);

        void onRecv(HostEndpoint host, RecvCompletion c);
    }

    /** Receive buffers: {@code rqDepth} per QP of {@value XudFormat#MTU_BYTES} bytes from here. */
    public static final long RECV_BUFFER_BASE = 0x4000_0000L;

    private final int index;
    private final XudParams params;
    private final HostMemory memory = new HostMemory();
    private final HostDma dma;
    private final Bits createValid;
    private final Bits createQp;
    private final Bits createPsn;
    private final StreamSource sends;
    private final StreamSource recvPosts;
    private final StreamSink dmaSink;
    private final StreamMonitor dmaMonitor;
    private final BundleCodec wqeCodec = new BundleCodec(new XudPorts.SendWqe());
    private final BundleCodec recvCodec = new BundleCodec(new XudPorts.RecvWqe());
    private final BundleCodec dmaCodec = new BundleCodec(new XudPorts.DmaWrite());
    private final ArrayDeque<long[]> creates = new ArrayDeque<>();
    private Listener listener;
    private long sendCi;
    private long recvCi;
    private long sendCompletions;
    private long recvCompletions;

    public HostEndpoint(XudBoard cluster, int index, DmaParams dmaParams, int[] initialPsns) {
        super("host" + index);
        this.index = index;
        this.params = cluster.params;
        this.dma = new HostDma(memory, dmaParams);
        if (initialPsns.length != params.qps()) {
            throw new IllegalArgumentException("one initial PSN per QP: " + params.qps() + " QPs, " + initialPsns.length + " PSNs");
        }
        createValid = cluster.create.get(index).valid;
        createQp = cluster.create.get(index).bits.qp;
        createPsn = cluster.create.get(index).bits.initPsn;
        for (int q = 0; q < initialPsns.length; q++) {
            creates.add(new long[] {q, initialPsns[q]});
        }
        sends = new StreamSource(name() + ".send", StreamPort.of(cluster.sendWqe.get(index)));
        recvPosts = new StreamSource(name() + ".post_recv", StreamPort.of(cluster.postRecv.get(index)));
        dmaSink = new StreamSink(name() + ".dma_sink", StreamPort.of(cluster.dma.get(index)));
        dmaMonitor = new StreamMonitor(name() + ".dma", StreamPort.of(cluster.dma.get(index))).subscribe(this::dmaWrite);
        // QP-interleaved, so every QP has buffers after its first few posts
        for (int s = 0; s < params.rqDepth(); s++) {
            for (int q = 0; q < params.qps(); q++) {
                postBuffer(q * params.rqDepth() + s);
            }
        }
    }

    public HostEndpoint listener(Listener l) {
        this.listener = l;
        return this;
    }

    public int index() {
        return index;
    }

    public int lid() {
        return XudBoard.lidOf(index);
    }

    public XudParams params() {
        return params;
    }

    public HostMemory memory() {
        return memory;
    }

    /** Rings the send doorbell of {@code qp} with a whole request (data inline). */
    public void postSend(int qp, int dlid, int dqpn, long qKey, int winId, long winMsn, byte[] data, long wrId) {
        postSend(qp, dlid, dqpn, qKey, winId, winMsn, data, data.length, wrId);
    }

    /** A request whose length field says {@code len} (more than the MTU is a local length error). */
    public void postSend(int qp, int dlid, int dqpn, long qKey, int winId, long winMsn, byte[] data, int len, long wrId) {
        if (data.length > XudFormat.MTU_BYTES) {
            throw new IllegalArgumentException("inline data of " + data.length + " bytes exceeds the " + XudFormat.MTU_BYTES + "-byte MTU");
        }
        byte[] padded = new byte[XudFormat.MTU_BYTES];
        System.arraycopy(data, 0, padded, 0, data.length);
        sends.send(wqeCodec.pack(big(qp), big(dlid), big(dqpn), big(qKey), big(winId), big(winMsn), big(len),
                XudFormat.hostWord(padded), big(wrId)));
    }

    /** Send requests rung but not yet taken by the adapter. */
    public boolean sendQueueIdle() {
        return sends.idle();
    }

    @Override
    protected List<Component> parts() {
        return List.of(sends, recvPosts, dmaSink, dmaMonitor);
    }

    @Override
    protected void reset() {
        sim().poke(createValid, 0);
    }

    @Override
    protected void drive() {
        long[] c = creates.poll();
        sim().poke(createValid, c != null ? 1 : 0);
        if (c != null) {
            sim().poke(createQp, c[0]);
            sim().poke(createPsn, c[1]);
        }
        dma.tick(cycle());
        pollSendRing();
        pollRecvRing();
    }

    private void dmaWrite(BigInteger beat) {
        int len = dmaCodec.get(beat, "len").intValueExact();
        byte[] all = XudFormat.hostBytes(dmaCodec.get(beat, "data"), XudFormat.CQE_BYTES);
        byte[] data = new byte[len];
        System.arraycopy(all, 0, data, 0, len);
        dma.write(cycle(), dmaCodec.get(beat, "addr").longValueExact(), data);
    }

    private void pollSendRing() {
        BigInteger cqe;
        while ((cqe = nextCqe(params.sendCqBase(), sendCi)) != null) {
            sendCi++;
            sendCompletions++;
            SendCompletion sc = new SendCompletion(XudFormat.SCQE_WR_ID.get(cqe), SendStatus.of(XudFormat.SCQE_STATUS.get(cqe)),
                    (int) XudFormat.SCQE_SYNDROME.get(cqe), (int) XudFormat.SCQE_QP.get(cqe), (int) XudFormat.SCQE_PSN.get(cqe));
            if (listener != null) {
                listener.onSend(this, sc);
            }
        }
    }

    private void pollRecvRing() {
        BigInteger cqe;
        while ((cqe = nextCqe(params.recvCqBase(), recvCi)) != null) {
            recvCi++;
            recvCompletions++;
            BigInteger eth = new BigInteger(1, XudFormat.hostBytes(XudFormat.RCQE_XUDETH.getBig(cqe), 16));
            // the XUDETH copy is in wire order: decode it with the packet fields, shifted to the container's top
            BigInteger asContainer = eth.shiftLeft(XudFormat.XUDETH.lsb());
            long wrId = XudFormat.RCQE_WR_ID.get(cqe);
            int len = (int) XudFormat.RCQE_BYTE_LEN.get(cqe);
            byte[] data = memory.read(bufferAddr(wrId), len);
            RecvCompletion rc = new RecvCompletion((int) XudFormat.RCQE_QP.get(cqe), wrId, (int) XudFormat.RCQE_SLID.get(cqe),
                    (int) XudFormat.RCQE_PSN.get(cqe), (int) XudFormat.SRC_QP.get(asContainer), XudFormat.Q_KEY.get(asContainer),
                    (int) XudFormat.WIN_ID.get(asContainer), XudFormat.WIN_MSN.get(asContainer), data);
            postBuffer(wrId);
            if (listener != null) {
                listener.onRecv(this, rc);
            }
        }
    }

    /** The entry at consumer index {@code ci} of a ring when its owner bit says it is new, else null. */
    private BigInteger nextCqe(long base, long ci) {
        long addr = base + (ci % params.cqDepth()) * XudFormat.CQE_BYTES;
        long phase = (ci / params.cqDepth() + 1) & 1;
        // the owner bit is the top bit of the entry's last byte
        if (((memory.read(addr + XudFormat.CQE_BYTES - 1, 1)[0] >> 7) & 1) != phase) {
            return null;
        }
        return XudFormat.hostWord(memory.read(addr, XudFormat.CQE_BYTES));
    }

    private void postBuffer(long bufferId) {
        int qp = (int) (bufferId / params.rqDepth());
        recvPosts.send(recvCodec.pack(big(qp), big(bufferAddr(bufferId)), big(bufferId)));
    }

    private static long bufferAddr(long bufferId) {
        return RECV_BUFFER_BASE + bufferId * XudFormat.MTU_BYTES;
    }

    public long sendCompletions() {
        return sendCompletions;
    }

    public long recvCompletions() {
        return recvCompletions;
    }

    /** Nothing rung or posted that the adapter has not taken, no host write still on its way. */
    public boolean idle() {
        return sends.idle() && dma.writesInFlight() == 0;
    }
}
