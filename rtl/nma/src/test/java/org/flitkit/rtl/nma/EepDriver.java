package org.flitkit.rtl.nma;

import org.flitkit.testbench.stream.LatencyMonitor;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;

/**
 * Sends E2PROM request packets into a harness's request stream through the framework's stream drivers and
 * returns each response with its latency, within a cycle budget per response. The response side is always
 * ready, so a response is taken in the cycle it is first offered.
 */
final class EepDriver<M extends Module> implements AutoCloseable {
    /** A response, and the cycles from the cycle after its request's handshake to its first valid cycle. */
    record Result(BitVector bits, long latency) {
        ManagementPacket packet() {
            return ManagementPacket.parse(bits);
        }
    }

    final Testbench<M> tb;
    final M dut;
    final Simulator sim;
    /** Cycles to wait for each response. */
    long budget;
    private final StreamSource source;
    private final LatencyMonitor latency;
    private int awaited;

    EepDriver(Testbench<M> tb, Decoupled<UInt> req, Decoupled<UInt> rsp, long budget) {
        this.tb = tb;
        this.dut = tb.dut();
        this.sim = tb.sim();
        this.budget = budget;
        StreamPort in = StreamPort.of(req);
        StreamPort out = StreamPort.of(rsp);
        source = tb.add(new StreamSource("eep_req", in));
        tb.add(new StreamSink("eep_rsp", out));
        tb.add(new StreamMonitor("eep_req_monitor", in));
        tb.add(new StreamMonitor("eep_rsp_monitor", out));
        latency = tb.add(new LatencyMonitor("eep_latency", in, out));
    }

    /** A driver on an {@link EepHarness} after reset, answering as chip 0x0102, VCD at the core clock period. */
    static EepDriver<EepHarness> onHarness(RunConfig cfg, EepParams chipSide, EepParams board, byte[] image, long budget) {
        Testbench<EepHarness> tb = Runs.atCoreClock(() -> new EepHarness(chipSide, board, image), cfg, chipSide);
        EepDriver<EepHarness> d = new EepDriver<>(tb, tb.dut().req, tb.dut().rsp, budget);
        d.sim.poke(tb.dut().chipId, 0x0102);
        tb.reset(1);
        return d;
    }

    Result send(ManagementPacket req) {
        return send(req.toBits());
    }

    Result send(BitVector req) {
        submit(req);
        return await();
    }

    /** Queues a request without waiting; {@link #await()} collects its response. */
    void submit(BitVector req) {
        source.send(req.toBigInteger());
    }

    /** Runs until the next response is taken (failing after {@link #budget} cycles) and returns it. */
    Result await() {
        int n = ++awaited;
        tb.runUntil("E2PROM response " + n, () -> latency.answers().size() >= n, budget);
        LatencyMonitor.Answer a = latency.answers().get(n - 1);
        // docs/th2-eeprom.md's figures count from the cycle after the handshake, the first cycle EepAccess owns the request
        return new Result(TestPackets.bits(a.beat()), a.cycles() - 1);
    }

    @Override
    public void close() {
        tb.close();
    }
}
