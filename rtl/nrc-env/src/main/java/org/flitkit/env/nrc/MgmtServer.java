package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;

/**
 * The management server's side of all 24 NRC ports: a stream source per port input (whole packets as
 * 4 flits), a sink and monitor per port output that reassemble packets and hand them to listeners
 * with the port and cycle, and a sink on every {@code toSwitch} counting packets for other chips.
 * Spec: 20-th2-management.md, "Where management packets go inside the chips".
 */
public final class MgmtServer {
    /** A whole packet seen leaving the NRC: port, 792 bits, cycle of its last flit. */
    public record Received(int port, BitVector bits, long cycle) {
    }

    private final Testbench<Nrc> tb;
    private final StreamSource[] sources = new StreamSource[RsGeometry.PORTS];
    private final List<Consumer<Received>> listeners = new ArrayList<>();
    private final List<Received> transit = new ArrayList<>();

    /** Adds the port components to {@code tb}; {@code backpressure} throttles every output (Throttle.NONE: always ready). */
    public MgmtServer(Testbench<Nrc> tb, Throttle backpressure) {
        this.tb = tb;
        Nrc dut = tb.dut();
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            int port = p;
            sources[p] = tb.add(new StreamSource("port" + p + "_in", StreamPort.of(dut.portIn.get(p))));
            StreamPort out = StreamPort.of(dut.portOut.get(p));
            tb.add(new StreamSink("port" + p + "_out", out).backpressure(backpressure));
            tb.add(new StreamMonitor("port" + p + "_mon", out).subscribe(
                    new PacketAssembler(bits -> deliver(new Received(port, bits, tb.cycle())))));
            StreamPort sw = StreamPort.of(dut.toSwitch.get(p));
            tb.add(new StreamSink("switch" + p, sw));
            tb.add(new StreamMonitor("switch" + p + "_mon", sw).subscribe(
                    new PacketAssembler(bits -> transit.add(new Received(port, bits, tb.cycle())))));
        }
    }

    /** Queues a whole packet (792 bits) into {@code port}. */
    public void send(int port, BitVector packet) {
        for (BitVector f : PacketLayout.toFlits(packet)) {
            sources[port].send(f.toBigInteger());
        }
    }

    /** All flits queued on {@code port} have been taken by the NRC. */
    public boolean sent(int port) {
        return sources[port].idle();
    }

    public boolean allSent() {
        for (StreamSource s : sources) {
            if (!s.idle()) {
                return false;
            }
        }
        return true;
    }

    /** Calls {@code l} with every packet that leaves any port, in order. */
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
