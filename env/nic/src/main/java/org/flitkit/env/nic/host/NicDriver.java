package org.flitkit.env.nic.host;

import java.util.HashMap;
import java.util.Map;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.PcieHost;
import org.flitkit.testbench.Testbench;

/**
 * The host driver of a simulated NIC: lays out each opened VP's SDQ, MPQ and EQ in host memory, tells the
 * NIC where they are through the BAR, and hands out {@link MgmtEndpoint}s. It touches only host memory and
 * BAR writes (through {@link PcieHost}), never the chip's internals. docs/th2-nic.md, "Host software API".
 */
public final class NicDriver {
    /** Host memory of VP v's rings: {@code RING_BASE + v * RING_STRIDE}. */
    public static final long RING_BASE = 0x1000_0000L;
    public static final long RING_STRIDE = 0x10_0000L;
    public static final int MPQ_OFFSET = 0x4_0000;
    public static final int EQ_OFFSET = 0x8_0000;

    private final Testbench<?> tb;
    private final PcieHost host;
    private final HostSoftware software;
    private final Map<Integer, MgmtEndpoint> open = new HashMap<>();
    private int nextTid = 1;

    public NicDriver(Testbench<?> tb, PcieHost host, HostSoftware software) {
        this.tb = tb;
        this.host = host;
        this.software = software;
    }

    /** Opens VP {@code vp} with rings of 2^{@code log2} entries each (a PIO VP has no SDQ). */
    public MgmtEndpoint open(int vp, int log2) {
        if (vp < 0 || vp >= Th2.VP_COUNT) {
            throw new IllegalArgumentException("VP must be 0.." + (Th2.VP_COUNT - 1) + ", got " + vp);
        }
        if (open.containsKey(vp)) {
            throw new IllegalStateException("VP " + vp + " is already open");
        }
        long base = RING_BASE + vp * RING_STRIDE;
        long sdq = base;
        long mpq = base + MPQ_OFFSET;
        long eq = base + EQ_OFFSET;
        if ((1L << log2) * NicHost.MPQ_ENTRY_BYTES > EQ_OFFSET - MPQ_OFFSET) {
            throw new IllegalArgumentException("rings of 2^" + log2 + " entries do not fit the driver's " + (RING_STRIDE >> 10) + " KB per VP");
        }
        if (!NicHost.isPio(vp)) {
            host.mmioWrite(NicHost.bar(vp, NicHost.SDQ_BASE), NicHost.queueBase(sdq, log2));
        }
        host.mmioWrite(NicHost.bar(vp, NicHost.MPQ_BASE), NicHost.queueBase(mpq, log2));
        host.mmioWrite(NicHost.bar(vp, NicHost.EQ_BASE), NicHost.queueBase(eq, log2));
        MgmtEndpoint ep = new MgmtEndpoint(this, vp, log2, sdq, mpq, eq);
        open.put(vp, ep);
        return ep;
    }

    public MgmtEndpoint endpoint(int vp) {
        MgmtEndpoint ep = open.get(vp);
        if (ep == null) {
            throw new IllegalStateException("VP " + vp + " is not open; open VPs: " + open.keySet());
        }
        return ep;
    }

    Testbench<?> tb() {
        return tb;
    }

    PcieHost host() {
        return host;
    }

    HostSoftware software() {
        return software;
    }

    /** A fresh TransactionID, 1..65535, shared by every endpoint so answers never collide. */
    int tid() {
        int t = nextTid;
        nextTid = nextTid == 0xFFFF ? 1 : nextTid + 1;
        return t;
    }

    /** Polls every open endpoint's queues once (what a progress thread does). */
    public void poll() {
        for (MgmtEndpoint ep : open.values()) {
            ep.poll();
        }
    }
}
