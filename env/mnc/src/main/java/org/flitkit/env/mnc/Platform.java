package org.flitkit.env.mnc;

/**
 * The paper's measurement platform in model units (multi-rail paper, introduction and section 3): the model
 * clock is the PCI clock; every rate below turns into bytes per cycle at that clock. Sources and assumptions
 * per field are in docs/mnc.md, "Platform parameters".
 *
 * @param clockMhz        model clock = 64-bit PCI bus clock (paper: 64 bit / 66 MHz, 528 MB/s raw)
 * @param busReadMBps     host-to-NIC DMA (NIC reads host memory), calibrated: the paper's measured 315 MB/s
 * @param busWriteMBps    NIC-to-host DMA (NIC writes host memory), calibrated: the paper's measured 372 MB/s
 * @param burstBytes      bytes a bus master moves before the bus is re-arbitrated (assumption: a 256-byte host-bridge
 *                        prefetch buffer per read burst)
 * @param switchNs        bus time lost when a read burst follows another master's read: the host bridge drops the data
 *                        it prefetched and the new read waits for memory again (assumption: one DRAM access, 120 ns);
 *                        a single master streaming, as in the paper's single-transfer measurement, never pays it
 * @param linkMBps        link rate (paper: Myrinet 2000, 2.0 Gb/s = 250 MB/s)
 * @param linkLatencyNs   head latency NIC to NIC through the switch (paper: about 3 us)
 * @param headerBytes     route, header and CRC bytes a packet adds on the link (assumption)
 * @param hostSendNs      host library time per posted send before the NIC sees it (assumption)
 */
public record Platform(double clockMhz, double busReadMBps, double busWriteMBps, int burstBytes, double switchNs, double linkMBps,
        double linkLatencyNs, int headerBytes, double hostSendNs) {
    public Platform {
        if (clockMhz <= 0 || busReadMBps <= 0 || busWriteMBps <= 0 || linkMBps <= 0) {
            throw new IllegalArgumentException("clock and rates must be positive: clock " + clockMhz + " MHz, bus " + busReadMBps
                    + "/" + busWriteMBps + " MB/s, link " + linkMBps + " MB/s");
        }
        if (burstBytes < 8 || switchNs < 0 || linkLatencyNs < 0 || headerBytes < 0 || hostSendNs < 0) {
            throw new IllegalArgumentException("burstBytes must be at least 8 and latencies and header bytes non-negative");
        }
    }

    /** The paper's PC cluster: 66 MHz 64-bit PCI calibrated on 315/372 MB/s, 250 MB/s links, 3 us. */
    public static Platform paper() {
        return new Platform(66.0, 315, 372, 256, 120, 250, 3_000, 16, 0);
    }

    /** A PCIe-class host bus (beyond the paper): the same links, a bus fast enough never to limit 4 rails (4 GB/s each way). */
    public static Platform pcie() {
        return new Platform(66.0, 4_000, 4_000, 256, 0, 250, 3_000, 16, 0);
    }

    public Platform withBus(double readMBps, double writeMBps) {
        return new Platform(clockMhz, readMBps, writeMBps, burstBytes, switchNs, linkMBps, linkLatencyNs, headerBytes, hostSendNs);
    }

    public Platform withHostSendNs(double ns) {
        return new Platform(clockMhz, busReadMBps, busWriteMBps, burstBytes, switchNs, linkMBps, linkLatencyNs, headerBytes, ns);
    }

    public Platform withSwitchNs(double ns) {
        return new Platform(clockMhz, busReadMBps, busWriteMBps, burstBytes, ns, linkMBps, linkLatencyNs, headerBytes, hostSendNs);
    }

    /** Bytes per model cycle of a rate in MB/s. */
    public double bytesPerCycle(double mbps) {
        return mbps / clockMhz;
    }

    public long cycles(double ns) {
        return Math.round(ns * clockMhz / 1_000);
    }

    public double ns(long cycles) {
        return cycles * 1_000 / clockMhz;
    }

    public long linkLatencyCycles() {
        return cycles(linkLatencyNs);
    }
}
