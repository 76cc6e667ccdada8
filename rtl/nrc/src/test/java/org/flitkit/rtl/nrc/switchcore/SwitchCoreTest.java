package org.flitkit.rtl.nrc.switchcore;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SwitchCore} as a block, on {@link SwitchParams#CI} (4 ports in 2 x 2 tiles, VC0..VC3, 4 reserved + 4
 * shared flits per input, packets up to 4 flits, 16 table entries): an upstream link with credits on every input,
 * a downstream link with random backpressure and delayed credit returns on every output, and a scoreboard that
 * wants every packet bit-exact, once, on its output, in order per flow (input, VC, output). docs/th2-nrc-switch.md.
 */
@ExtendWith(TestbenchExtension.class)
class SwitchCoreTest {
    static final SwitchParams P = SwitchParams.CI;
    private static Simulator compiled;

    static synchronized Testbench<SwitchCore> bench(RunConfig cfg) {
        if (compiled == null) {
            compiled = Simulator.of(() -> new SwitchCore(P));
        }
        return Testbench.create(compiled.newInstance(), cfg);
    }

    /** A packet as it left the core, and the output it left by. */
    record Delivered(int output, List<BigInteger> flits) {
        /** input -> output on VC: the packets of a flow must arrive in the order they were sent. */
        String flow() {
            return "in " + DataPackets.src(flits) + " VC" + DataPackets.vc(flits) + " out " + output;
        }

        long id() {
            return idOf(flits);
        }

        static long idOf(List<BigInteger> packet) {
            return DataPackets.get(packet.get(0), DataLayouts.HEAD.PACKET_ID);
        }
    }

    /** The core between its links, with the scoreboard and what left each output with its cycle. */
    static final class Env implements AutoCloseable {
        final Testbench<SwitchCore> tb;
        final SwitchCore core;
        final Simulator sim;
        final UpstreamLink[] ups = new UpstreamLink[P.ports()];
        final DownstreamLink[] downs = new DownstreamLink[P.ports()];
        final OutOfOrderScoreboard<String, Delivered> board;
        /** whole packets in delivery order (the cycle of each is its last flit's) */
        final Recorder<Delivered> delivered;
        /** the flits out of each output, with their cycles */
        final List<Recorder<BigInteger>> flitsOut = new ArrayList<>();
        final int[] perOutput = new int[P.ports()];
        private long nextId = 1;

        Env(RunConfig cfg, Throttle gaps, Throttle backpressure, int minDelay, int maxDelay) {
            tb = bench(cfg);
            core = tb.dut();
            sim = tb.sim();
            board = tb.add(new OutOfOrderScoreboard<>("flows", Delivered::flow));
            board.format(d -> "packet " + d.id() + " (" + d.flow() + ", " + d.flits().size() + " flits)");
            delivered = new Recorder<>(tb);
            for (int i = 0; i < P.ports(); i++) {
                ups[i] = tb.add(new UpstreamLink("up_" + i, core, i).gaps(gaps));
                sim.poke(core.linkUp.get(i), 1);
                sim.poke(core.fromRs.get(i).valid, 0);
                sim.poke(core.toRs.get(i).ready, 1);
            }
            for (int o = 0; o < P.ports(); o++) {
                final int out = o;
                StreamPort port = StreamPort.of(core.out.get(o));
                tb.add(new StreamSink("out_" + o, port).backpressure(backpressure));
                downs[o] = tb.add(new DownstreamLink("down_" + o, core, o).delay(minDelay, maxDelay));
                Recorder<BigInteger> flits = new Recorder<>(tb);
                flitsOut.add(flits);
                FrameMonitor<List<BigInteger>> m = tb.add(new FrameMonitor<>("out_" + o + "_monitor", port,
                        Framing.lastBit(DataLayouts.BODY.KIND.lsb()), PacketCodec.beats()).checkHoldEveryCycle());
                m.subscribe(pk -> {
                    Delivered d = new Delivered(out, pk);
                    delivered.accept(d);
                    board.observe(d);
                });
                m.beats().subscribe(f -> {
                    flits.accept(f);
                    downs[out].accept(f);
                });
                tb.traces(core.in.get(o).valid, core.out.get(o).valid, core.out.get(o).ready, core.creditOut.get(o).valid);
            }
            tb.reset(2);
        }

        /** Entry {@code index} of input {@code port}'s table (or of every input's, {@code port} < 0) becomes {@code mask}. */
        void writeTable(int port, int index, long mask) {
            sim.poke(core.tableWrite.valid, 1);
            sim.poke(core.tableWrite.bits.port, Math.max(port, 0));
            sim.poke(core.tableWrite.bits.all, port < 0 ? 1 : 0);
            sim.poke(core.tableWrite.bits.index, index);
            sim.poke(core.tableWrite.bits.mask, mask);
            tb.run(1);
            sim.poke(core.tableWrite.valid, 0);
        }

        long readTable(int port, int index) {
            sim.poke(core.tableRead.port, port);
            sim.poke(core.tableRead.index, index);
            return sim.peek(core.tableReadData);
        }

        /** A table-routed packet that must leave by {@code output} (-1: must be dropped); returns it. */
        List<BigInteger> send(int input, int vc, int len, int destId, int output) {
            List<BigInteger> pk = DataPackets.table(tb.rng("payload"), nextId++, input, vc, len, destId);
            expect(input, pk, pk, output);
            return pk;
        }

        /** A source-routed packet to {@code output} (Route = [output], HopPtr 0): it leaves with HopPtr 1. */
        List<BigInteger> sendRouted(int input, int vc, int len, int output) {
            List<BigInteger> pk = DataPackets.sourceRouted(DataPackets.table(tb.rng("payload"), nextId++, input, vc, len, 0),
                    List.of(output), 0);
            expect(input, pk, DataPackets.hopped(pk), output);
            return pk;
        }

        private void expect(int input, List<BigInteger> pk, List<BigInteger> leaves, int output) {
            if (output >= 0) {
                board.expect(new Delivered(output, leaves));
                perOutput[output]++;
            }
            ups[input].send(pk);
        }

        /** Runs until every packet is out and every credit back on both sides, then the end-of-test checks. */
        void drain(long maxCycles) {
            tb.runUntil("every packet delivered and every credit back", () -> {
                for (int i = 0; i < P.ports(); i++) {
                    if (!ups[i].idle() || !ups[i].drained() || !downs[i].drained()) {
                        return false;
                    }
                }
                return board.isEmpty();
            }, maxCycles);
            tb.run(2);
            tb.finish();
            for (int o = 0; o < P.ports(); o++) {
                assertThat(sim.peek(core.forwarded.get(o))).as("forwarded by output %d", o).isEqualTo(perOutput[o]);
                for (int v = 0; v < P.vcs(); v++) {
                    assertThat(sim.peek(core.occ[o][v])).as("credit view of output %d VC%d", o, v).isZero();
                }
            }
        }

        long count(UInt counter) {
            return sim.peek(counter);
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    @Test
    void aPacketCrossesAnIdleCoreInFourCyclesThenOneFlitPerCycle(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE, Throttle.NONE, 1, 1)) {
            env.writeTable(0, 5, 0b1000);
            env.send(0, 0, 1, 5, 3);
            env.drain(100);
            env.send(0, 1, 4, 5, 3);
            env.drain(100);
            Recorder<BigInteger> out3 = env.flitsOut.get(3);
            assertThat(out3.size()).isEqualTo(5);
            // stored at the edge of cycle t; allocated and read at t + 1; row bus t + 2; column channel t + 3; out at t + 4
            assertThat(out3.cycle(0) - env.ups[0].headCycles.get(0)).isEqualTo(4);
            assertThat(out3.cycle(1) - env.ups[0].headCycles.get(1)).isEqualTo(4);
            for (int k = 2; k <= 4; k++) {
                assertThat(out3.cycle(k) - out3.cycle(k - 1)).as("flit %d", k - 1).isEqualTo(1);
            }
            // each flit's input-buffer slot is returned upstream in the cycle it is read: t + 1, then one per cycle
            long t0 = env.ups[0].headCycles.get(0);
            long t1 = env.ups[0].headCycles.get(1);
            assertThat(env.ups[0].creditCycles).containsExactly(t0 + 1, t1 + 1, t1 + 2, t1 + 3, t1 + 4);
        }
    }

    @Test
    void tableRoutingTakesEachDestinationsEntryAndDropsAnEmptyOne(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.busy(0.3), Throttle.busy(0.3), 1, 4)) {
            for (int i = 0; i < P.ports(); i++) {
                for (int d = 0; d < 14; d++) {
                    env.writeTable(i, d, 1L << ((i + d) % 4));
                }
            }
            env.writeTable(-1, 15, 0b0001); // every input's entry 15 at once: output 0
            env.writeTable(-1, 14, 0);      // every input's entry 14: no output
            assertThat(env.readTable(2, 3)).isEqualTo(0b0010);
            assertThat(env.readTable(3, 15)).isEqualTo(0b0001);
            assertThat(env.readTable(1, 14)).isZero();
            for (int i = 0; i < P.ports(); i++) {
                for (int d = 0; d < 14; d++) {
                    env.send(i, d % 3, 1 + d % 4, d, (i + d) % 4);
                }
                env.send(i, 0, 2, 16 + 3, (i + 3) % 4);       // DestID mod 16 = 3
                env.send(i, 1, 3, 0xFFF0 | 7, (i + 7) % 4);   // DestID mod 16 = 7
                env.send(i, 2, 1, 15, 0);
                env.send(i, 0, 4, 14, -1);                    // unroutable: dropped
            }
            env.drain(3_000);
            assertThat(env.board.matched()).isEqualTo(4 * 17);
            assertThat(env.count(env.core.unroutableDrops)).isEqualTo(4);
            assertThat(env.count(env.core.malformedDrops)).isZero();
        }
    }

    @Test
    void tablesByRegionIndexTheOwnRegionsDestIdsByTheirLowBitsAndOtherRegionsOncePerRegion(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.busy(0.3), Throttle.busy(0.3), 1, 4)) {
            // regions of 4 DestIDs (L = 2), this chip's region 5 (DestIDs 20..23): entries 0..3; region r: entry 4 + r
            env.sim.poke(env.core.tableRegions.localBits, 2);
            env.sim.poke(env.core.tableRegions.region, 5);
            env.sim.poke(env.core.tableRegions.fallback, 0b1000);
            env.writeTable(-1, 0, 0b0001); // DestID 20
            env.writeTable(-1, 1, 0b0010); // DestID 21
            // DestID 22 (entry 2) and 23 (entry 3) left empty: a local entry does not fall back
            env.writeTable(-1, 4 + 0, 0b0100); // region 0: DestIDs 0..3
            env.writeTable(-1, 4 + 2, 0b0010); // region 2: DestIDs 8..11
            env.writeTable(-1, 4 + 5, 0b0001); // region 5's own region entry is never read
            env.writeTable(-1, 4 + 11, 0b0100); // region 11: DestIDs 44..47, the last entry
            for (int i = 0; i < P.ports(); i++) {
                env.send(i, 0, 2, 20, 0);
                env.send(i, 1, 1, 21, 1);
                env.send(i, 2, 3, 22, -1);     // empty local entry: unroutable
                env.send(i, 0, 1, 2, 2);       // region 0
                env.send(i, 1, 4, 9, 1);       // region 2
                env.send(i, 2, 2, 14, 3);      // region 3: empty, falls back
                env.send(i, 0, 3, 46, 2);      // region 11
                env.send(i, 1, 1, 48, 3);      // region 12: entry 16, past the table, falls back
                env.send(i, 2, 2, 0x1234, 3);  // region 0x48D: past the table
            }
            env.drain(4_000);
            assertThat(env.board.matched()).isEqualTo(4 * 8);
            assertThat(env.count(env.core.unroutableDrops)).isEqualTo(4);
            // regions off again: the same tables are one flat table, DestID mod 16
            env.sim.poke(env.core.tableRegions.localBits, 0);
            for (int i = 0; i < P.ports(); i++) {
                env.send(i, 0, 1, 16 + 1, 1);  // entry 1
                env.send(i, 1, 2, 6, 1);       // entry 6 (region 2's when by region)
                env.send(i, 2, 1, 14, -1);     // entry 14: empty, no fallback in a flat table
            }
            env.drain(4_000);
            assertThat(env.board.matched()).isEqualTo(4 * 10);
            assertThat(env.count(env.core.unroutableDrops)).isEqualTo(8);
            for (int d : new int[] {20, 22, 2, 14, 48, 0x1234, 7}) {
                int index = TableRegions.index(d, 2, 5, P.tableEntries());
                long raw = index < 0 ? 0 : env.readTable(0, index);
                assertThat(TableRegions.allowed(d, 2, 5, (int) raw, 0b1000)).as("software model, DestID %d", d)
                        .isEqualTo(switch (d) {
                            case 20 -> 0b0001;
                            case 22 -> 0;
                            case 2 -> 0b0100;
                            default -> 0b1000;
                        });
            }
        }
    }

    @Test
    void aVcWithoutDownstreamCreditsBlocksOnlyItself(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE, Throttle.NONE, 1, 3)) {
            env.writeTable(0, 1, 0b0010);
            env.downs[1].hold(0, true); // output 1's neighbour frees no VC0 slot
            for (int k = 0; k < 6; k++) {
                env.send(0, 0, 2, 1, 1);
                env.send(0, 1, 2, 1, 1);
            }
            env.tb.run(300);
            // VC0 gets its 4 reserved slots and the 4 shared ones downstream: 4 packets of 2 flits, then waits for credits
            assertThat(env.delivered.items().stream().filter(d -> DataPackets.vc(d.flits()) == 0).count()).isEqualTo(4);
            assertThat(env.delivered.items().stream().filter(d -> DataPackets.vc(d.flits()) == 1).count()).isEqualTo(6);
            assertThat(env.sim.peek(env.core.occ[1][0])).isEqualTo(8);
            // the two VC0 packets left wait in the input buffer, their slots still owed upstream
            assertThat(env.sim.peek(env.core.inputs.get(0).damq.count.get(0))).isEqualTo(4);
            env.downs[1].hold(0, false);
            env.drain(500);
            assertThat(env.board.matched()).isEqualTo(12);
        }
    }

    @Test
    void anInputServesItsReadyVcsRoundRobin(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE, Throttle.NONE, 1, 1)) {
            env.writeTable(2, 9, 0b0010);
            env.sim.poke(env.core.linkUp.get(1), 0); // the packets wait in the input buffer
            List<Long> sent = new ArrayList<>();
            for (int vc = 2; vc >= 0; vc--) {
                for (int k = 0; k < 3; k++) {
                    sent.add(Delivered.idOf(env.send(2, vc, 1, 9, 1)));
                }
            }
            env.tb.run(30);
            assertThat(env.delivered.size()).isZero();
            env.sim.poke(env.core.linkUp.get(1), 1);
            env.drain(200);
            // sent VC2, VC2, VC2, VC1, ..., VC0; they leave VC0, VC1, VC2, VC0, ... each VC in its own order
            List<Long> order = env.delivered.items().stream().map(Delivered::id).toList();
            assertThat(order).containsExactly(sent.get(6), sent.get(3), sent.get(0), sent.get(7), sent.get(4), sent.get(1),
                    sent.get(8), sent.get(5), sent.get(2));
            // back to back, one flit per cycle
            assertThat(env.flitsOut.get(1).cycle(8) - env.flitsOut.get(1).cycle(0)).isEqualTo(8);
        }
    }

    @Test
    void theManagementVcGoesFirstThenTheOthersRoundRobin(RunConfig cfg) {
        boolean[] open = {false};
        try (Env env = new Env(cfg, Throttle.NONE, (rng, cycle) -> open[0], 1, 1)) {
            env.writeTable(3, 2, 0b0010);
            env.writeTable(2, 2, 0b0010);
            List<Long> fill = new ArrayList<>();
            for (int k = 0; k < 4; k++) { // output 1's queue and pipeline hold 4 flits: then it is closed to new packets
                fill.add(Delivered.idOf(env.send(3, 0, 1, 2, 1)));
            }
            env.tb.run(20);
            List<Long> vc0 = new ArrayList<>();
            List<Long> vc1 = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                vc1.add(Delivered.idOf(env.send(2, 1, 1, 2, 1)));
                vc0.add(Delivered.idOf(env.send(2, 0, 1, 2, 1)));
            }
            long mgmt = Delivered.idOf(env.sendRouted(2, Th2.MANAGEMENT_VC, 4, 1));
            env.tb.run(30);
            assertThat(env.delivered.size()).isZero();
            open[0] = true;
            env.drain(200);
            assertThat(env.delivered.items().stream().map(Delivered::id).toList()).containsExactly(fill.get(0), fill.get(1),
                    fill.get(2), fill.get(3), mgmt, vc0.get(0), vc1.get(0), vc0.get(1), vc1.get(1));
        }
    }

    @Test
    void manyRandomPacketsAllArriveInOrderPerFlowUnderBackpressure(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.busy(0.3), Throttle.busy(0.4), 1, 10)) {
            Rng rnd = env.tb.rng("traffic");
            int[][] route = new int[P.ports()][P.tableEntries()];
            for (int i = 0; i < P.ports(); i++) {
                for (int d = 0; d < P.tableEntries(); d++) {
                    route[i][d] = rnd.nextInt(P.ports());
                    env.writeTable(i, d, 1L << route[i][d]);
                }
            }
            int perInput = 150;
            for (int k = 0; k < perInput; k++) {
                for (int i = 0; i < P.ports(); i++) {
                    int vc = rnd.nextInt(3);
                    int len = 1 + rnd.nextInt(P.maxPacketFlits());
                    if (rnd.chance(0.2)) {
                        env.sendRouted(i, vc, len, rnd.nextInt(P.ports()));
                    } else {
                        int dest = rnd.nextInt(1 << 16);
                        env.send(i, vc, len, dest, route[i][dest % P.tableEntries()]);
                    }
                }
            }
            env.drain(20_000);
            assertThat(env.board.matched()).isEqualTo(P.ports() * perInput);
            assertThat(env.count(env.core.malformedDrops) + env.count(env.core.unroutableDrops) + env.count(env.core.badVcDrops)
                    + env.count(env.core.overflowDrops) + env.count(env.core.framingErrors)).isZero();
        }
    }
}
