package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.BeatMonitor;
import org.flitkit.rtl.chpp.BeatSource;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.BitVector;
import org.flitkit.hdl.UInt;
import org.flitkit.env.host.PcieHost;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;

/**
 * Verification components of {@link ReceiveDispatch}: a key loader, a {@link BeatSource} of packets with random
 * idle beats, a monitor per output stream (PUT, NAP, GET: packets; event: receive completions) with random
 * backpressure and the hold rule, and an independent reference model that says for each packet where it must go,
 * which counter it bumps and which event it posts.
 */
public final class DispatchHarness implements AutoCloseable {
    static final HeaderLayout.Header H = HeaderLayout.HEADER;

    final Testbench<ReceiveDispatch> tb;
    final ReceiveDispatch dut;
    final int[] keys = new int[QpKeyWrite.LOCAL_QPS];
    final boolean[] open = new boolean[QpKeyWrite.LOCAL_QPS];
    /** drives {@code in}, packet by packet, once the key table is loaded */
    final BeatSource driver;
    final KeyLoader loader;
    final InOrderScoreboard<List<BigInteger>> putBoard;
    final InOrderScoreboard<List<BigInteger>> napBoard;
    final InOrderScoreboard<List<BigInteger>> getBoard;
    final InOrderScoreboard<ReceiveCompletion> eventBoard;
    final List<BeatMonitor> monitors = new ArrayList<>();
    long expPut, expNap, expGet, expMagic, expType, expLength, expEvents;

    DispatchHarness(RunConfig cfg, String part, double gapP, double readyP) {
        tb = Testbench.create(ReceiveDispatch::new, cfg.part(part));
        dut = tb.dut();
        driver = tb.add(new BeatSource("driver", dut.in, gapP));
        loader = tb.add(new KeyLoader());
        driver.gate(() -> loader.queue.isEmpty());
        putBoard = tb.add(new InOrderScoreboard<>("sb.put"));
        napBoard = tb.add(new InOrderScoreboard<>("sb.nap"));
        getBoard = tb.add(new InOrderScoreboard<>("sb.get"));
        eventBoard = tb.add(new InOrderScoreboard<>("sb.event"));
        for (var b : List.of(putBoard, napBoard, getBoard)) {
            b.format(DispatchHarness::show);
        }
        monitors.add(tb.add(new BeatMonitor("put", dut.putOut, readyP, putBoard::observe)));
        monitors.add(tb.add(new BeatMonitor("nap", dut.napOut, readyP, napBoard::observe)));
        monitors.add(tb.add(new BeatMonitor("get", dut.getOut, readyP, getBoard::observe)));
        monitors.add(tb.add(new BeatMonitor("event", dut.event, readyP, p -> {
            if (p.size() != 1) {
                throw tb.fail("an event is one beat");
            }
            eventBoard.observe(ReceiveCompletion.decode(PcieHost.littleEndian(p.get(0), 16)));
        })));
    }

    static String show(List<BigInteger> p) {
        BitVector h = BitVector.of(128, p.get(0));
        return "type " + h.get(H.PKT_TYPE) + " len " + h.get(H.LENGTH) + " dst " + h.get(H.DST_ID) + " magic "
                + h.get(H.QP_MAGIC) + " addr " + h.get(H.ADDRESS) + ", " + p.size() + " beats";
    }

    /** Header bits; {@code fmtType} 0x60 for a cHPP packet. */
    public static BigInteger header(int fmtType, int pktType, int sFlag, int len, int magic, int src, int dst, long addr) {
        return H.zero().with(H.FMT, fmtType >> 5).with(H.TYPE, fmtType & 31).with(H.PKT_TYPE, pktType)
                .with(H.S_FLAG, sFlag).with(H.LENGTH, len).with(H.QP_MAGIC, magic).with(H.SRC_ID, src)
                .with(H.DST_ID, dst).with(H.ADDRESS, addr).toBigInteger();
    }

    static List<BigInteger> packet(Rng rng, BigInteger hdr, int payloadBeats) {
        List<BigInteger> beats = new ArrayList<>();
        beats.add(hdr);
        for (int i = 0; i < payloadBeats; i++) {
            beats.add(rng.bits(128));
        }
        return List.copyOf(beats);
    }

    void setKey(int qp, int key, boolean enable) {
        keys[qp] = key;
        open[qp] = enable;
        loader.queue.add(new int[] {qp, key, enable ? 1 : 0});
    }

    /**
     * The reference model: what {@link ReceiveDispatch} must do with this packet (whose beats agree with its
     * Length, or with a header-only packet), written from docs/chpp-receive-engine.md, not from the RTL.
     */
    void send(List<BigInteger> p) {
        BitVector h = BitVector.of(128, p.get(0));
        int fmtType = (int) (h.get(H.FMT) << 5 | h.get(H.TYPE));
        int type = (int) h.get(H.PKT_TYPE);
        int len = (int) h.get(H.LENGTH);
        int sFlag = (int) h.get(H.S_FLAG);
        int dst = (int) h.get(H.DST_ID);
        int qp = dst & (QpKeyWrite.LOCAL_QPS - 1);
        boolean headerOnly = p.size() == 1;
        // a PUT of Length 0 is legal only as the end of a failed GET answer: S_Flag exactly CE+LAST+RESP
        boolean failedAnswer = sFlag == (HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST | HeaderLayout.S_FLAG_RESP);
        if (fmtType != ReceiveDispatch.FMT_TYPE || type == 0) {
            expType++;
        } else if (len > Chpp.MAX_PAYLOAD || type == PktType.NAP.code() && len > Chpp.MAX_NAP
                || type == PktType.GET.code() && len != 32 || type == PktType.PUT.code() && len == 0 && !failedAnswer || headerOnly != (len == 0)) {
            expLength++;
        } else if (!open[qp] || keys[qp] != h.get(H.QP_MAGIC)) {
            expMagic++;
            boolean ce = (sFlag & HeaderLayout.S_FLAG_CE) != 0;
            boolean resp = (sFlag & HeaderLayout.S_FLAG_RESP) != 0;
            if (type == PktType.NAP.code() || type == PktType.PUT.code() && ce) {
                PktType t = PktType.fromCode(type);
                eventBoard.expect(new ReceiveCompletion(t, t == PktType.PUT && resp, CompletionStatus.QP_MAGIC_REFUSED,
                        EndpointId.decode(h.get(H.SRC_ID)), EndpointId.decode(dst), len,
                        t == PktType.PUT ? h.get(H.ADDRESS) : 0, false));
                expEvents++;
            }
        } else if (type == PktType.PUT.code()) {
            putBoard.expect(p);
            expPut++;
        } else if (type == PktType.NAP.code()) {
            napBoard.expect(p);
            expNap++;
        } else {
            getBoard.expect(p);
            expGet++;
        }
        driver.packet(p);
    }

    boolean done() {
        return driver.idle() && putBoard.isEmpty() && napBoard.isEmpty() && getBoard.isEmpty() && eventBoard.isEmpty();
    }

    long peek(UInt s) {
        return tb.sim().peek(s);
    }

    @Override
    public void close() {
        tb.close();
    }

    /** Writes the key table, one entry per cycle. */
    final class KeyLoader extends Component {
        final ArrayDeque<int[]> queue = new ArrayDeque<>();

        KeyLoader() {
            super("keys");
        }

        @Override
        protected void drive() {
            int[] w = queue.poll();
            sim().poke(dut.keyWrite.valid, w != null);
            if (w != null) {
                sim().poke(dut.keyWrite.bits.qp, w[0]);
                sim().poke(dut.keyWrite.bits.key, w[1]);
                sim().poke(dut.keyWrite.bits.enable, w[2] != 0);
            }
        }
    }
}
