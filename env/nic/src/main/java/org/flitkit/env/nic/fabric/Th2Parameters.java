package org.flitkit.env.nic.fabric;

import java.util.List;
import org.flitkit.env.host.PcieParams;
import org.flitkit.env.nrc.NrcFigures;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Parameter.Origin;
import org.flitkit.formats.th2.LinkFrame;

/**
 * The parameters of the figures measured on whole TH-2 chips (the NIC's, the machine's, discovery under AlltoAll):
 * the chips' clock, the cables, the server's PCIe and its software, each with its origin ({@link Parameter}).
 */
public final class Th2Parameters {
    private Th2Parameters() {
    }

    /** The chips' clock, the cables and the server's host side. */
    public static List<Parameter> wholeChips() {
        return List.of(
                Parameter.of("chips' clock (the link frame clock)", LinkFrame.clockHz() / 1e6, "MHz", Origin.DERIVED,
                        "a port's 8 lanes of 14 Gbit/s (" + NrcFigures.PAPER.at("Section 2").label() + ") over this model's 264-bit frame"),
                Parameter.of("cable latency", Th2Machine.CABLE_LATENCY, "cycles each way", Origin.ASSUMPTION,
                        "a few metres of optical cable and the SerDes; the paper gives no cable length"),
                Parameter.of("PCIe DMA read round trip", PcieParams.TH2_READ_ROUND_TRIP_NS, "ns", Origin.MEASUREMENT,
                        "within the 400-900 ns Neugebauer et al. measured on PCIe Gen3 hosts (Understanding PCIe performance for end host networking, SIGCOMM 2018)"),
                Parameter.of("PCIe posted write and BAR write", PcieParams.TH2_READ_ROUND_TRIP_NS / 2, "ns", Origin.DERIVED,
                        "half the read round trip: a write is the request half of a read"),
                Parameter.of("host software time per request", 0, "ns", Origin.ASSUMPTION,
                        "the paper does not break its software time out; rows that include it say not modelled"));
    }
}
