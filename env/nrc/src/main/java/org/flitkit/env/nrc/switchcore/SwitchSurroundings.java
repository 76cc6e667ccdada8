package org.flitkit.env.nrc.switchcore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.Damq;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.Testbench;

/**
 * The switch core's surroundings in one component: per input an upstream NRC (sends packets, virtual
 * cut-through, only with credits for the whole packet in its view of the core's DAMQ, the view fed back by
 * creditOut), per output a downstream NRC (random backpressure, its own DAMQ occupancy checked against the
 * reservation rule, credits returned after a random delay, merged per VC), the relay-station ports, and a
 * scoreboard (each packet exactly once, bit-exact, on an allowed output, in order per input/output/VC).
 */
final class SwitchSurroundings extends Component {
    /** A packet and what the switch must do with it. */
    static final class Pkt {
        final long id;
        final int input;
        final int vc;
        final long[][] flits;
        /** outputs it may leave by (bit o); 0 = to the relay station (toRs); -1 = dropped */
        final long allowed;
        /** the flits as they must leave (a source-routed head with HopPtr + 1) */
        final long[][] expected;
        long created = -1;
        long injected = -1;
        long delivered = -1;
        int output = -1;

        Pkt(long id, int input, int vc, long[][] flits, long allowed, long[][] expected) {
            this.id = id;
            this.input = input;
            this.vc = vc;
            this.flits = flits;
            this.allowed = allowed;
            this.expected = expected;
        }
    }

    final SwitchCore dut;
    final SwitchParams p;
    final int n;
    /** per input: packets waiting to be sent */
    final List<ArrayDeque<Pkt>> queues = new ArrayList<>();
    /** per output: relay-station packets to send on fromRs */
    final List<ArrayDeque<Pkt>> rsQueues = new ArrayList<>();
    final Map<Long, Pkt> outstanding = new HashMap<>();
    final List<Pkt> done = new ArrayList<>();

    // upstream state per input
    final int[][] upOcc;
    final Pkt[] sending;
    int[] sendIdx;
    // downstream state per output
    final int[][] downOcc;
    final int[] downVc;
    final List<ArrayDeque<long[]>> pendingCredits = new ArrayList<>(); // {dueCycle, vc}
    final int[][] owed;
    final Pkt[] receiving;
    final int[] recvIdx;
    final Map<String, Long> lastSeq = new HashMap<>();
    // relay stations
    final Pkt[] rsSending;
    final int[] rsIdx;
    final Pkt[] rsReceiving;
    final int[] rsRecvIdx;

    /** probability an input sends a flit in a cycle when it may (gaps inside and between packets) */
    double sendRate = 1.0;
    /** probability an output's link takes a flit in a cycle */
    double[] readyRate;
    /** credit return delay, uniform in [creditDelayMin, creditDelayMax] cycles; negative max: never */
    int creditDelayMin = 1;
    int[] creditDelayMax;
    double toRsReadyRate = 1.0;
    boolean checkInvariants = true;
    /** open-loop source: called once per cycle per input before sending (may add packets) */
    java.util.function.BiConsumer<Integer, Long> generator;
    long flitsOut;
    long[] flitsOutPerPort;
    long measureFrom = Long.MAX_VALUE;
    long latencySum;
    long latencyCount;

    private final long[] buf = new long[Flits.LIMBS];
    private final long[] zero = new long[Flits.LIMBS];
    private Rng rng;

    SwitchSurroundings(SwitchCore dut) {
        super("switchSurroundings");
        this.dut = dut;
        this.p = dut.params;
        this.n = p.ports();
        upOcc = new int[n][p.vcs()];
        sending = new Pkt[n];
        sendIdx = new int[n];
        downOcc = new int[n][8];
        downVc = new int[n];
        owed = new int[n][8];
        receiving = new Pkt[n];
        recvIdx = new int[n];
        rsSending = new Pkt[n];
        rsIdx = new int[n];
        rsReceiving = new Pkt[n];
        rsRecvIdx = new int[n];
        readyRate = new double[n];
        creditDelayMax = new int[n];
        flitsOutPerPort = new long[n];
        for (int i = 0; i < n; i++) {
            queues.add(new ArrayDeque<>());
            rsQueues.add(new ArrayDeque<>());
            pendingCredits.add(new ArrayDeque<>());
            readyRate[i] = 1.0;
            creditDelayMax[i] = 4;
        }
    }

    // ------------------------------------------------------------------ building traffic

    private long nextId = 1;
    /** the cycle packets added now are created at (kept by drive() for the open-loop generator) */
    private long now;
    /** keep delivered packets in {@link #done} (off for long load runs) */
    boolean keepDone = true;

    /** A packet from {@code input}: table routed to DestID if {@code route} is null, else source routed. */
    Pkt add(int input, int vc, int len, int destId, List<Integer> route, int hopPtr, long allowed) {
        long id = nextId++;
        long[][] flits = Flits.packet(id, vc, len, destId, input, route, hopPtr);
        long[][] exp = new long[flits.length][];
        for (int k = 0; k < flits.length; k++) {
            exp[k] = flits[k].clone();
        }
        if (route != null && allowed > 0) {
            Flits.set(exp[0], DataLayouts.HEAD.HOP_PTR, hopPtr + 1);
        }
        Pkt pk = new Pkt(id, input, vc, flits, allowed, exp);
        pk.created = now;
        queues.get(input).add(pk);
        if (allowed != -1) {
            outstanding.put(id, pk);
        }
        return pk;
    }

    /** A management packet from the relay-station plane out of {@code output} (4 flits, VC3, leaves unchanged). */
    Pkt addFromRs(int output, List<Integer> route, int hopPtr) {
        long id = nextId++;
        long[][] flits = Flits.packet(id, Th2.MANAGEMENT_VC, Th2.PACKET_FLITS, 0, 0, route, hopPtr);
        Pkt pk = new Pkt(id, -1, Th2.MANAGEMENT_VC, flits, 1L << output, flits);
        rsQueues.get(output).add(pk);
        outstanding.put(id, pk);
        return pk;
    }

    boolean idle() {
        for (int i = 0; i < n; i++) {
            if (!queues.get(i).isEmpty() || sending[i] != null || !rsQueues.get(i).isEmpty() || rsSending[i] != null) {
                return false;
            }
        }
        return outstanding.isEmpty();
    }

    /** Every credit is back: the upstream views are empty and no credit is owed downstream. */
    boolean drained() {
        for (int i = 0; i < n; i++) {
            for (int v = 0; v < p.vcs(); v++) {
                if (upOcc[i][v] != 0 || downOcc[i][v] != 0) {
                    return false;
                }
            }
            if (!pendingCredits.get(i).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ per cycle

    @Override
    protected void reset() {
        rng = rng();
    }

    private boolean upFits(int input, int vc, int len) {
        int[] occ = upOcc[input];
        int shared = 0;
        for (int v = 0; v < p.vcs(); v++) {
            shared += Math.max(0, occ[v] - p.reservedFlits());
        }
        int free = Math.max(0, p.reservedFlits() - occ[vc]) + Math.max(0, p.sharedFlits() - shared);
        return len <= free;
    }

    @Override
    protected void drive() {
        Simulator sim = sim();
        long now = cycle();
        this.now = now;
        for (int i = 0; i < n; i++) {
            if (generator != null) {
                generator.accept(i, now);
            }
            // upstream: virtual cut-through in its view of our buffer
            boolean send = false;
            if (sending[i] == null && !queues.get(i).isEmpty()) {
                Pkt pk = queues.get(i).peek();
                int vcView = pk.vc < p.vcs() ? pk.vc : -1;
                int len = pk.flits.length;
                if (vcView < 0 || upFits(i, vcView, len)) {
                    queues.get(i).poll();
                    sending[i] = pk;
                    sendIdx[i] = 0;
                    if (vcView >= 0) {
                        upOcc[i][vcView] += len;
                    }
                }
            }
            if (sending[i] != null && rng.chance(sendRate)) {
                Pkt pk = sending[i];
                if (sendIdx[i] == 0) {
                    pk.injected = now;
                }
                sim.poke(dut.in.get(i).bits, pk.flits[sendIdx[i]]);
                send = true;
                if (++sendIdx[i] == pk.flits.length) {
                    sending[i] = null;
                }
            }
            sim.poke(dut.in.get(i).valid, send);

            // downstream
            sim.poke(dut.out.get(i).ready, rng.chance(readyRate[i]));
            ArrayDeque<long[]> pend = pendingCredits.get(i);
            while (!pend.isEmpty() && pend.peek()[0] <= now) {
                long[] c = pend.poll();
                owed[i][(int) c[1]]++;
            }
            int vcRet = -1;
            for (int v = 0; v < 8 && vcRet < 0; v++) {
                int v2 = (int) ((now + v) % 8);
                if (owed[i][v2] > 0) {
                    vcRet = v2;
                }
            }
            if (vcRet >= 0) {
                int cnt = Math.min(15, owed[i][vcRet]);
                owed[i][vcRet] -= cnt;
                downOcc[i][vcRet] -= cnt;
                sim.poke(dut.creditIn.get(i).bits.vc, vcRet);
                sim.poke(dut.creditIn.get(i).bits.count, cnt);
            }
            sim.poke(dut.creditIn.get(i).valid, vcRet >= 0);

            // relay station: offers a flit, holds it until taken
            if (rsSending[i] == null && !rsQueues.get(i).isEmpty()) {
                rsSending[i] = rsQueues.get(i).poll();
                rsIdx[i] = 0;
            }
            sim.poke(dut.fromRs.get(i).valid, rsSending[i] != null);
            sim.poke(dut.fromRs.get(i).bits, rsSending[i] != null ? rsSending[i].flits[rsIdx[i]] : zero);
            sim.poke(dut.toRs.get(i).ready, rng.chance(toRsReadyRate));
        }
    }

    @Override
    protected void sample() {
        Simulator sim = sim();
        long now = cycle();
        for (int i = 0; i < n; i++) {
            if (sim.peekBool(dut.creditOut.get(i).valid)) {
                int v = (int) sim.peek(dut.creditOut.get(i).bits);
                if (v >= p.vcs() || upOcc[i][v] == 0) {
                    throw fail("input " + i + " returned a credit of VC " + v + " it does not owe (view " + upOcc[i][v < p.vcs() ? v : 0] + ")");
                }
                upOcc[i][v]--;
            }
            if (sim.peekBool(dut.out.get(i).valid) && sim.peekBool(dut.out.get(i).ready)) {
                sim.peekInto(dut.out.get(i).bits, buf);
                receive(i, buf, now);
            }
            if (sim.peekBool(dut.toRs.get(i).valid) && sim.peekBool(dut.toRs.get(i).ready)) {
                sim.peekInto(dut.toRs.get(i).bits, buf);
                receiveRs(i, buf, now);
            }
            if (rsSending[i] != null && sim.peekBool(dut.fromRs.get(i).ready)) {
                if (rsIdx[i] == 0) {
                    rsSending[i].injected = now;
                }
                if (++rsIdx[i] == rsSending[i].flits.length) {
                    rsSending[i] = null;
                }
            }
        }
        if (checkInvariants) {
            invariants();
        }
    }

    private void receive(int o, long[] f, long now) {
        if (now >= measureFrom) {
            flitsOut++;
            flitsOutPerPort[o]++;
        }
        int kind = Flits.kind(f);
        if (receiving[o] == null) {
            if ((kind & Th2.KIND_HEAD) == 0) {
                throw fail("output " + o + ": flit " + Flits.hex(f) + " outside a packet");
            }
            long id = Flits.get(f, DataLayouts.HEAD.PACKET_ID);
            Pkt pk = outstanding.get(id);
            if (pk == null) {
                throw fail("output " + o + ": packet id " + id + " not expected (duplicate or dropped)");
            }
            if ((pk.allowed >>> o & 1) == 0) {
                throw fail("output " + o + ": packet " + id + " from input " + pk.input + " may only leave by mask 0x"
                        + Long.toHexString(pk.allowed));
            }
            int vc = (int) Flits.get(f, DataLayouts.HEAD.VC);
            int len = pk.flits.length;
            // the downstream buffer: the core may only send what the reservation rule admits
            int[] occ = downOcc[o];
            int shared = 0;
            for (int v = 0; v < p.vcs(); v++) {
                shared += Math.max(0, occ[v] - p.reservedFlits());
            }
            int free = Math.max(0, p.reservedFlits() - occ[vc]) + Math.max(0, p.sharedFlits() - shared);
            if (len > free) {
                throw fail("output " + o + ": packet " + id + " of " + len + " flits on VC" + vc
                        + " sent with room for only " + free + " downstream (virtual cut-through violated)");
            }
            receiving[o] = pk;
            recvIdx[o] = 0;
            downVc[o] = vc;
            pk.output = o;
            if (pk.input >= 0) {
                String key = pk.input + "/" + o + "/" + vc;
                Long last = lastSeq.get(key);
                if (last != null && last > id) {
                    throw fail("output " + o + ": packet " + id + " overtook " + last + " on " + key);
                }
                lastSeq.put(key, id);
            }
        }
        Pkt pk = receiving[o];
        long[] exp = pk.expected[recvIdx[o]];
        if (!java.util.Arrays.equals(exp, f)) {
            throw fail("output " + o + ": packet " + pk.id + " flit " + recvIdx[o] + " is " + Flits.hex(f)
                    + ", expected " + Flits.hex(exp));
        }
        int vc = downVc[o];
        downOcc[o][vc]++;
        int max = creditDelayMax[o];
        if (max >= 0) {
            long due = now + creditDelayMin + (max > creditDelayMin ? rng.nextInt(max - creditDelayMin + 1) : 0);
            pendingCredits.get(o).add(new long[] {due, vc});
        }
        if (++recvIdx[o] == pk.flits.length) {
            receiving[o] = null;
            delivered(pk, now);
        }
    }

    private void receiveRs(int port, long[] f, long now) {
        if (rsReceiving[port] == null) {
            long id = Flits.get(f, DataLayouts.HEAD.PACKET_ID);
            Pkt pk = outstanding.get(id);
            if (pk == null || pk.allowed != 0 || pk.input != port) {
                throw fail("toRs " + port + ": unexpected packet " + id);
            }
            rsReceiving[port] = pk;
            rsRecvIdx[port] = 0;
        }
        Pkt pk = rsReceiving[port];
        if (!java.util.Arrays.equals(pk.expected[rsRecvIdx[port]], f)) {
            throw fail("toRs " + port + ": packet " + pk.id + " flit " + rsRecvIdx[port] + " is " + Flits.hex(f));
        }
        if (++rsRecvIdx[port] == pk.flits.length) {
            rsReceiving[port] = null;
            pk.output = -2;
            delivered(pk, now);
        }
    }

    private void delivered(Pkt pk, long now) {
        outstanding.remove(pk.id);
        pk.delivered = now;
        if (keepDone) {
            done.add(pk);
        }
        if (pk.created >= measureFrom) {
            latencySum += now - pk.created;
            latencyCount++;
        }
    }

    /** Credits never negative or above capacity, DAMQ free + lists == capacity, no VC eating another's reservation. */
    private void invariants() {
        Simulator sim = sim();
        int cap = p.capacity();
        for (int o = 0; o < n; o++) {
            for (int v = 0; v < p.vcs(); v++) {
                long occ = sim.peek(dut.occ[o][v]);
                if (occ < downOcc[o][v] || occ > cap) {
                    throw fail("output " + o + " VC" + v + ": credit view occupancy " + occ + " outside ["
                            + downOcc[o][v] + ", " + cap + "]");
                }
            }
        }
        for (int i = 0; i < n; i++) {
            Damq d = dut.inputs.get(i).damq;
            long sum = sim.peek(d.free);
            int sharedUsed = 0;
            for (int v = 0; v < p.vcs(); v++) {
                long c = sim.peek(d.count.get(v));
                sum += c;
                sharedUsed += Math.max(0, (int) c - p.reservedFlits());
            }
            if (sum != cap) {
                throw fail("input " + i + ": DAMQ free + list lengths = " + sum + ", capacity " + cap);
            }
            if (sharedUsed > p.sharedFlits()) {
                throw fail("input " + i + ": VCs hold " + sharedUsed + " flits beyond their reservations, shared pool "
                        + p.sharedFlits());
            }
        }
    }

    @Override
    public List<String> describeState() {
        return describe(outstanding.size() + " packets outstanding", outstanding.values(), 10,
                pk -> "id " + pk.id + " input " + pk.input + " VC" + pk.vc + " len " + pk.flits.length + " mask 0x"
                        + Long.toHexString(pk.allowed) + " injected " + pk.injected);
    }

    /** Writes one routing-table entry through the core's table port (one cycle). */
    static void writeTable(Testbench<SwitchCore> tb, int port, int index, long mask) {
        Simulator sim = tb.sim();
        SwitchCore d = tb.dut();
        sim.poke(d.tableWrite.valid, true);
        sim.poke(d.tableWrite.bits.port, port);
        sim.poke(d.tableWrite.bits.index, index);
        sim.poke(d.tableWrite.bits.mask, mask);
        sim.step();
        sim.poke(d.tableWrite.valid, false);
    }
}
