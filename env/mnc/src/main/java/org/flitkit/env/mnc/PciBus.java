package org.flitkit.env.mnc;

import java.util.ArrayDeque;
import java.util.List;
import org.flitkit.env.host.HostMemory;
import org.flitkit.rtl.mnc.MncPorts.BusRequest;
import org.flitkit.testbench.Component;

/**
 * One node's shared PCI bus (multi-rail paper, section 3, "bus factor"): every NIC of the node is a master;
 * one transfer at a time, re-arbitrated round robin among the (NIC, direction) requesters every
 * {@link Platform#burstBytes()} bytes. A NIC read (host to NIC) moves at the calibrated read rate, a write at the
 * calibrated write rate; a request's bytes are copied when its last burst ends, and the NIC sees a one-cycle
 * done pulse on its port.
 */
final class PciBus extends Component {
    private final MncEnv.Ports ports;
    private final int node;
    private final int rails;
    private final HostMemory memory;
    private final List<NicSram> sram;
    private final Platform platform;
    /** Per requester (rail * 2 + write), its queued requests. */
    private final ArrayDeque<Req>[] queues;
    /** Per rail: done pulses waiting for their cycle (write flags). */
    private final ArrayDeque<Boolean>[] dones;
    private final boolean[] pulsed;
    private int rr;
    private Req current;
    private double busFreeAt;
    private double currentEnd;
    private long readBytes;
    private long writeBytes;
    private double busyCycles;
    private int lastReader = -1;
    private long switches;

    private record Req(int rail, boolean write, int slot, long addr, int len, int[] done) {
    }

    @SuppressWarnings("unchecked")
    PciBus(String name, MncEnv.Ports ports, int node, int rails, HostMemory memory, List<NicSram> sram, Platform platform) {
        super(name);
        this.ports = ports;
        this.node = node;
        this.rails = rails;
        this.memory = memory;
        this.sram = sram;
        this.platform = platform;
        queues = new ArrayDeque[2 * rails];
        for (int i = 0; i < queues.length; i++) {
            queues[i] = new ArrayDeque<>();
        }
        dones = new ArrayDeque[rails];
        for (int i = 0; i < rails; i++) {
            dones[i] = new ArrayDeque<>();
        }
        pulsed = new boolean[rails];
    }

    @Override
    protected void drive() {
        long now = cycle();
        // bursts that end by this cycle; a request's last burst copies its bytes and queues its done pulse
        while (true) {
            if (current == null) {
                current = pick();
                if (current == null) {
                    break;
                }
                double rate = platform.bytesPerCycle(current.write ? platform.busWriteMBps() : platform.busReadMBps());
                int bytes = Math.min(platform.burstBytes(), current.len - current.done[0]);
                double start = Math.max(busFreeAt, now);
                double cycles = bytes / rate;
                if (!current.write) {
                    // a read after another master's read: the bridge's prefetched data is gone
                    if (lastReader >= 0 && lastReader != current.rail) {
                        cycles += platform.switchNs() * platform.clockMhz() / 1_000;
                        switches++;
                    }
                    lastReader = current.rail;
                }
                currentEnd = start + cycles;
                busyCycles += cycles;
                current.done[0] += bytes;
            }
            if (currentEnd > now + 1) {
                break;
            }
            busFreeAt = currentEnd;
            Req r = current;
            current = null;
            if (r.done[0] == r.len) {
                finish(r);
            } else {
                queues[r.rail * 2 + (r.write ? 1 : 0)].addFirst(r);
            }
        }
        for (int r = 0; r < rails; r++) {
            Boolean w = dones[r].poll();
            // only changes are poked: most cycles have no pulse
            if (w != null || pulsed[r]) {
                var done = ports.busDone(node, r);
                sim().poke(done.valid, w != null);
                sim().poke(done.bits, w != null && w);
            }
            pulsed[r] = w != null;
        }
    }

    @Override
    protected void reset() {
        for (int r = 0; r < rails; r++) {
            sim().poke(ports.bus(node, r).ready, true);
        }
    }

    @Override
    protected void sample() {
        for (int r = 0; r < rails; r++) {
            var b = ports.bus(node, r);
            if (sim().peekBool(b.valid)) {
                BusRequest q = b.bits;
                boolean write = sim().peekBool(q.write);
                int len = (int) sim().peek(q.len);
                if (len == 0) {
                    throw fail("rail " + r + " of node " + node + " asked the bus for a 0-byte " + (write ? "write" : "read"));
                }
                queues[r * 2 + (write ? 1 : 0)].add(new Req(r, write, (int) sim().peek(q.slot), sim().peek(q.addr), len, new int[1]));
            }
        }
    }

    private Req pick() {
        for (int i = 0; i < queues.length; i++) {
            int k = (rr + i) % queues.length;
            Req r = queues[k].poll();
            if (r != null) {
                rr = (k + 1) % queues.length;
                return r;
            }
        }
        return null;
    }

    private void finish(Req r) {
        NicSram s = sram.get(r.rail);
        if (r.write) {
            memory.write(r.addr, s.recv[r.slot], 0, r.len);
            writeBytes += r.len;
        } else {
            byte[] data = memory.read(r.addr, r.len);
            System.arraycopy(data, 0, s.send[r.slot], 0, r.len);
            readBytes += r.len;
        }
        dones[r.rail].add(r.write);
    }

    long readBytes() {
        return readBytes;
    }

    long writeBytes() {
        return writeBytes;
    }

    /** Read bursts that paid the bridge's prefetch restart. */
    long switches() {
        return switches;
    }

    /** Cycles the bus spent moving bytes. */
    double busyCycles() {
        return busyCycles;
    }

    boolean idle() {
        if (current != null) {
            return false;
        }
        for (ArrayDeque<Req> q : queues) {
            if (!q.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<String> describeState() {
        int queued = 0;
        for (ArrayDeque<Req> q : queues) {
            queued += q.size();
        }
        return List.of("node " + node + " bus: " + (current == null ? "idle" : "moving") + ", " + queued + " requests queued");
    }
}
