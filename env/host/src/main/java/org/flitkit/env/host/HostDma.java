package org.flitkit.env.host;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The host end of a device's DMA path: posted memory writes that become visible in {@link HostMemory} after
 * {@link DmaParams#writeLatencyCycles()}, in the order they were issued, and tagged read requests answered
 * after {@link DmaParams#readRoundTripCycles()} by completions of at most the max payload size, all but the
 * last ending on a read completion boundary, as a PCIe root complex does. Time is the device's cycle count, passed in by the
 * caller (a testbench component), so the model runs beside any design.
 */
public final class HostDma {
    /** One completion of a read: {@code data} for {@code addr}; {@code last} ends the request and frees its tag. */
    public record Completion(int tag, long addr, byte[] data, boolean last) {
    }

    /** A request on its way to the host: a write ({@code tag < 0}) or a read of {@code length} bytes. */
    private record Request(long arrival, int tag, long addr, byte[] data, int length) {
    }

    private record Due(long due, Completion completion) {
    }

    private final HostMemory memory;
    private final DmaParams params;
    private final ArrayDeque<Request> toHost = new ArrayDeque<>();
    private final ArrayDeque<Due> completions = new ArrayDeque<>();
    private final boolean[] tagBusy;
    private long lastCycle = -1;
    private long writesDone;
    private long readsDone;

    public HostDma(HostMemory memory, DmaParams params) {
        this.memory = memory;
        this.params = params;
        this.tagBusy = new boolean[params.tags()];
    }

    public HostMemory memory() {
        return memory;
    }

    public DmaParams params() {
        return params;
    }

    /** A posted write issued at {@code cycle}: 1..max payload bytes. */
    public void write(long cycle, long addr, byte[] data) {
        advanceTo(cycle);
        if (data.length < 1 || data.length > params.maxPayloadBytes()) {
            throw new IllegalArgumentException("DMA write of " + data.length + " bytes at 0x" + Long.toHexString(addr)
                    + ": must be 1.." + params.maxPayloadBytes() + " bytes (max payload size)");
        }
        toHost.addLast(new Request(cycle + params.writeLatencyCycles(), -1, addr, data.clone(), data.length));
    }

    /**
     * A read request issued at {@code cycle} with {@code tag}: its completions arrive from
     * {@code cycle + readRoundTripCycles}, one per cycle, each of at most max payload bytes and all but the last
     * ending on a read completion boundary. The host reads memory when the request arrives (after the write latency, the one-way trip), so a read
     * sees every write issued before it: PCIe reads do not pass posted writes.
     */
    public void read(long cycle, int tag, long addr, int length) {
        advanceTo(cycle);
        if (tag < 0 || tag >= tagBusy.length) {
            throw new IllegalArgumentException("DMA read tag " + tag + " outside 0.." + (tagBusy.length - 1));
        }
        if (tagBusy[tag]) {
            throw new IllegalStateException("DMA read with tag " + tag + " while a read with that tag is outstanding");
        }
        if (length < 1 || length > params.maxReadRequestBytes()) {
            throw new IllegalArgumentException("DMA read of " + length + " bytes: must be 1.." + params.maxReadRequestBytes()
                    + " bytes (max read request size)");
        }
        tagBusy[tag] = true;
        toHost.addLast(new Request(cycle + params.writeLatencyCycles(), tag, addr, null, length));
    }

    /** Whether {@code tag} has a read outstanding. */
    public boolean tagBusy(int tag) {
        return tagBusy[tag];
    }

    /** Applies the writes due by {@code cycle} and returns the completions arriving at it (at most one per cycle). */
    public List<Completion> tick(long cycle) {
        advanceTo(cycle);
        List<Completion> out = new ArrayList<>(1);
        while (!completions.isEmpty() && completions.peekFirst().due() <= cycle) {
            Completion c = completions.removeFirst().completion();
            if (c.last()) {
                tagBusy[c.tag()] = false;
                readsDone++;
            }
            out.add(c);
        }
        return out;
    }

    public long writesDone() {
        return writesDone;
    }

    public long readsDone() {
        return readsDone;
    }

    /** Writes issued but not yet visible to the host. */
    public long writesInFlight() {
        return toHost.stream().filter(r -> r.tag() < 0).count();
    }

    private void advanceTo(long cycle) {
        if (cycle < lastCycle) {
            throw new IllegalArgumentException("time went back: cycle " + cycle + " after " + lastCycle);
        }
        lastCycle = cycle;
        while (!toHost.isEmpty() && toHost.peekFirst().arrival() <= cycle) {
            Request r = toHost.removeFirst();
            if (r.tag() < 0) {
                memory.write(r.addr(), r.data());
                writesDone++;
            } else {
                answer(r);
            }
        }
    }

    /** The completions of a read that reached the host: at most max payload bytes each, ending on a boundary, one per cycle. */
    private void answer(Request r) {
        byte[] all = memory.read(r.addr(), r.length());
        long first = r.arrival() + params.readRoundTripCycles() - params.writeLatencyCycles();
        long due = Math.max(first, completions.isEmpty() ? 0 : completions.peekLast().due() + 1);
        int off = 0;
        while (off < r.length()) {
            long a = r.addr() + off;
            int n = Math.min(r.length() - off, params.maxPayloadBytes());
            long end = (a + n) / params.readCompletionBoundary() * params.readCompletionBoundary();
            if (off + n < r.length() && end > a) {
                n = (int) (end - a); // all but the last completion end on a boundary
            }
            byte[] part = new byte[n];
            System.arraycopy(all, off, part, 0, n);
            off += n;
            completions.addLast(new Due(due++, new Completion(r.tag(), a, part, off == r.length())));
        }
    }
}
