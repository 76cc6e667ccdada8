package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flitkit.formats.core.BitVector;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;

/**
 * The management server's side of all 24 NRC ports: a packet source per port input (a packet goes in
 * as its 4 flits), a sink and a packet monitor per port output handing whole packets to listeners with
 * the port and cycle, and a sink and packet monitor on every {@code toSwitch} keeping the packets for
 * other chips. Spec: 20-th2-management.md, "Where management packets go inside the chips".
 */
public final class MgmtServer implements MgmtTransport {
    /** A whole packet seen leaving the NRC: port, 792 bits, cycle of its last flit. */
    public record Received(int port, BitVector bits, long cycle) {
    }

    /** A management packet as the 4 flits that carry it through a port, head flit first (docs/th2-formats.md). */
    public static final PacketCodec<BitVector> FLITS = PacketCodec.of(
            packet -> PacketLayout.toFlits(packet).stream().map(BitVector::toBigInteger).toList(),
            flits -> PacketLayout.fromFlits(flits.stream().map(f -> BitVector.of(Th2.FLIT_BITS, f)).toList()));

    private final List<FrameSource<BitVector>> sources = new ArrayList<>();
    private final List<Consumer<Received>> listeners = new ArrayList<>();
    private final List<Received> transit = new ArrayList<>();

    /** Adds the port components to {@code tb}; {@code backpressure} throttles every output (Throttle.NONE: always ready). */
    public MgmtServer(Testbench<Nrc> tb, Throttle backpressure) {
        this(tb, tb.dut().portIn, tb.dut().portOut, tb.dut().toSwitch, backpressure);
    }

    /**
     * The same on the 24 port streams of a design holding an NRC (a board passing them on); {@code toSwitch} null
     * for a whole NRC, whose packets for other chips leave by its ports.
     */
    public MgmtServer(Testbench<?> tb, Vec<Decoupled<UInt>> portIn, Vec<Decoupled<UInt>> portOut, Vec<Decoupled<UInt>> toSwitch,
            Throttle backpressure) {
        Framing packets = Framing.fixed(Th2.PACKET_FLITS);
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            int port = p;
            sources.add(tb.add(new FrameSource<>("port" + p + "_in", StreamPort.of(portIn.get(p)), FLITS)));
            StreamPort out = StreamPort.of(portOut.get(p));
            tb.add(new StreamSink("port" + p + "_out", out).backpressure(backpressure));
            tb.add(new FrameMonitor<>("port" + p + "_mon", out, packets, FLITS).subscribe(b -> deliver(new Received(port, b, tb.cycle()))));
            if (toSwitch == null) {
                continue;
            }
            StreamPort sw = StreamPort.of(toSwitch.get(p));
            tb.add(new StreamSink("switch" + p, sw));
            tb.add(new FrameMonitor<>("switch" + p + "_mon", sw, packets, FLITS).subscribe(b -> transit.add(new Received(port, b, tb.cycle()))));
        }
    }

    /** Queues a whole packet (792 bits) into {@code port}. */
    @Override
    public void send(int port, BitVector packet) {
        sources.get(port).send(packet);
    }

    /** Every packet queued on {@code port} has been taken by the NRC. */
    public boolean sent(int port) {
        return sources.get(port).idle();
    }

    public boolean allSent() {
        return sources.stream().allMatch(FrameSource::idle);
    }

    /** Calls {@code l} with every packet that leaves any port, in order. */
    @Override
    public void onReceive(Consumer<Received> l) {
        listeners.add(l);
    }

    /** Packets that entered a port for another chip and left on {@code toSwitch}. */
    public List<Received> transit() {
        return transit;
    }

    private void deliver(Received r) {
        for (Consumer<Received> l : listeners) {
            l.accept(r);
        }
    }
}
