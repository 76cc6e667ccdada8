package org.flitkit.env.nic.mgmt;

import java.util.List;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.fabric.Th2Parameters;
import org.flitkit.env.nrc.NrcFigures;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.figures.Figure;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.OneRunFigures;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter.Origin;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Table;
import org.flitkit.rtl.nma.EepParams;

/**
 * Discovery under AlltoAll data traffic against idle (the TH-2 management paper, Section 4.4: 472,822 us idle,
 * 490,885 us under AlltoAll), measured on a frame of whole chips ({@link TrafficDiscovery}), one request at a time
 * as the paper's loop; the whole machine under traffic is beyond this simulator (docs/th2-management.md,
 * "Discovery under AlltoAll traffic").
 */
public final class TrafficFigures extends OneRunFigures<TrafficDiscovery.Result> {
    /** every node an 8-flit packet every 8 cycles at most: its link's rate */
    public static final int INTERVAL = 8;
    /** cycles of traffic before the loaded discovery */
    public static final long WARMUP = 2_000;

    public TrafficFigures() {
        def(Figure.builder("fabric-discovery-alltoall", "discovery time under AlltoAll data traffic against idle, one request at a time, on a "
                        + "frame (every node an 8-flit packet every 8 cycles); the paper's: the whole machine, 490,885 against 472,822 us")
                .from(NrcFigures.PAPER.at("Section 4.4 (topology discovery of the whole system, idle and under AlltoAll)"))
                .paper(PaperValue.of(3.82), "%").slow().build(),
                r -> Measurement.of("fabric-discovery-alltoall", r.increasePercent()));
    }

    @Override
    public String name() {
        return "fabric-traffic";
    }

    @Override
    public List<Parameter> parameters() {
        List<Parameter> l = new java.util.ArrayList<>(Th2Parameters.wholeChips());
        l.add(Parameter.of("AlltoAll: cycles between a node's packet starts", INTERVAL, "cycles", Origin.ASSUMPTION,
                "an 8-flit packet every 8 cycles, the link's rate; the paper does not give its AlltoAll's message size or rate"));
        l.add(Parameter.of("AlltoAll: flits per data packet", org.flitkit.formats.th2.DataLayouts.MAX_FLITS, "flits", Origin.ASSUMPTION,
                "the longest packet the switch core takes"));
        l.add(Parameter.of("AlltoAll: warm-up before the loaded discovery", WARMUP, "cycles", Origin.ASSUMPTION,
                "long enough for every link to carry data before the first request"));
        return l;
    }

    @Override
    protected TrafficDiscovery.Result run() {
        return measure(2);
    }

    @Override
    public List<Table> tables(TrafficDiscovery.Result r) {
        return List.of(new Table("fabric-alltoall-cycles", List.of("idle_cycles", "alltoall_cycles", "increase_percent", "data_packets_during"),
                List.of(new double[] {r.idle().cycles(), r.loaded().cycles(), r.increasePercent(), r.sentDuring()})));
    }

    /** Discovery of a frame idle and under AlltoAll, one request at a time; fails if a chip or a data packet is missing. */
    public static TrafficDiscovery.Result measure(int threads) {
        try (ManagementServer ms = new ManagementServer(Th2FatTree.frame(), new Th2Machine.Protos(EepParams.DEFAULT), threads, 0, 1,
                ManagementServer.TIMEOUT)) {
            ms.powerUp(200_000);
            TrafficDiscovery.Result r = TrafficDiscovery.run(ms, INTERVAL, WARMUP, 100_000, (f, d) -> { });
            if (r.loaded().nrcs().size() != r.idle().nrcs().size() || r.received() != r.sent()) {
                throw new IllegalStateException("under AlltoAll: " + r.loaded().nrcs().size() + " NRCs found, " + r.received() + " of "
                        + r.sent() + " data packets received");
            }
            return r;
        }
    }
}
