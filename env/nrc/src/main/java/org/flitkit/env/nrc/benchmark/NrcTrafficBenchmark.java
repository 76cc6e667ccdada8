package org.flitkit.env.nrc.benchmark;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.PopCount;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nrc.BoardLinks;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.tools.benchmark.Checksum;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;

/**
 * The {@code nrc-traffic} benchmark: an NRC (board E2PROM timing, erased E2PROM, the test board's link
 * status of {@link BoardLinks}) under register reads and writes from a {@link RequestGenerator} on all 24
 * ports, with a response sink under LFSR backpressure on every port, so the relay stations and the NMA
 * are busy. {@code checksum} folds every response flit as it is taken and every other NRC output on
 * every cycle.
 */
public final class NrcTrafficBenchmark extends Module {
    public final UInt checksum = output(UInt(Checksum.WIDTH));
    /** request packets (tail flits) the ports have taken in */
    public final UInt requests = output(UInt(32));
    /** packets (tail flits) taken from the ports */
    public final UInt responses = output(UInt(32));

    public final Nrc nrc = instance(new Nrc());
    public final RequestGenerator generator = instance(new RequestGenerator());

    public NrcTrafficBenchmark() {
        UInt ready = Lfsr.galois(32, TRUE(), 0x5EED_0A11L).named("ready");
        List<Bool> requestTails = new ArrayList<>();
        List<Bool> responseTails = new ArrayList<>();
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            nrc.portIn.get(p).connect(generator.ports.get(p));
            nrc.toSwitch.get(p).deq();
            BoardLinks.tie(nrc.link.get(p), p);
            // about 3 cycles in 4 ready, independently per port
            nrc.portOut.get(p).ready.assign(ready.bit(p).or(ready.bit((p + 7) % 32)));
            requestTails.add(tailTaken(nrc.portIn.get(p)));
            responseTails.add(tailTaken(nrc.portOut.get(p)));
        }
        nrc.faults.assign(0);
        requests.assign(counter(requestTails).named("requestCount"));
        responses.assign(counter(responseTails).named("responseCount"));
        List<Bits> folded = new ArrayList<>();
        for (Bits b : NrcIdleBenchmark.outputsOf(nrc)) {
            folded.add(responseFlit(b));
        }
        checksum.assign(Checksum.accumulate(Checksum.fold(folded)));
    }

    /** The tail flit of a packet moves on {@code port} this cycle. */
    private static Bool tailTaken(Decoupled<UInt> port) {
        return port.fire().and(LayoutBits.get(port.bits, FlitLayouts.TAIL.KIND).eq(Th2.KIND_TAIL));
    }

    /** A 32-bit register counting {@code events}: adds how many of them are high, every cycle. */
    private static UInt counter(List<Bool> events) {
        UInt count = regInit(UInt(32), 0);
        count.assign(count.add(PopCount(events).pad(32)));
        return count;
    }

    /** A port's response flit counts once, when it is taken; every other output as it is. */
    private Bits responseFlit(Bits output) {
        for (Decoupled<UInt> out : nrc.portOut) {
            if (out.bits == output) {
                return mux(out.fire(), out.bits, lit(0, Th2.FLIT_BITS));
            }
        }
        return output;
    }
}
