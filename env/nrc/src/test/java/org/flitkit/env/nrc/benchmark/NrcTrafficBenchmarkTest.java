package org.flitkit.env.nrc.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.env.nrc.NrcReference;
import org.flitkit.env.nrc.MgmtServer;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ErrorPayload;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.junit.jupiter.api.Test;

/**
 * The {@code nrc-traffic} stimulus is real management traffic: every packet entering a port is a
 * well-formed request as the server's NIC builds it, every answer leaving the NMA is what
 * {@link NrcReference} predicts (register values, error codes, CHIP_ID changes), and leaves unchanged
 * by the port the request came in on; nothing is dropped for its CRC or framing.
 */
class NrcTrafficBenchmarkTest {
    /** Boot on the erased E2PROM fails after about 25,000 cycles; then traffic flows. */
    private static final long CYCLES = 50_000;

    /** Watches the ports and the NMA output of a running {@link NrcTrafficBenchmark}. */
    private static final class Checker {
        final NrcReference ref = new NrcReference(null);
        /** requests in the chip, by TransactionID */
        final Map<Integer, ManagementPacket> inFlight = new HashMap<>();
        final List<ArrayDeque<BitVector>> leaving = new ArrayList<>();
        final int[] answeredByPort = new int[RsGeometry.TH2.ports()];
        final Map<String, Integer> answers = new TreeMap<>();
        int requests;
        int twoRegister;
        int writes;
        int leftPorts;

        static final Framing PACKETS = Framing.fixed(Th2.PACKET_FLITS);

        Checker(Testbench<NrcTrafficBenchmark> tb) {
            NrcTrafficBenchmark d = tb.dut();
            // the failed power-up load raised EEPROM_LOAD_FAILED, unmasked, before any request is served
            int input = NrcRegisters.faultInput(FaultCode.EEPROM_LOAD_FAILED.code(), FaultCode.CHIP_LEVEL_PORT);
            ref.load(NmaRegisters.FAULT_PENDING_BASE + input / 64, 1L << (input % 64));
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                int port = p;
                leaving.add(new ArrayDeque<>());
                tb.add(new FrameMonitor<>("in" + p, StreamPort.of(d.nrc.portIn.get(p)), PACKETS, MgmtServer.FLITS)
                        .subscribe(bits -> request(port, bits)));
                tb.add(new FrameMonitor<>("out" + p, StreamPort.of(d.nrc.portOut.get(p)), PACKETS, MgmtServer.FLITS)
                        .subscribe(bits -> left(port, bits)));
            }
            tb.add(new StreamMonitor("nma", StreamPort.of(d.nrc.plane.fromNma)).subscribe(f -> answered(BitVector.of(Th2.PACKET_BITS, f))));
        }

        void request(int port, BitVector bits) {
            ManagementPacket req = ManagementPacket.parse(bits);
            assertThat(req).as("request on port %d", port)
                    .isEqualTo(Requests.request(port, Th2.CHIP_ID_ANY, req.transactionId(), req.nmpType(), req.payload()));
            assertThat(req.toBits()).isEqualTo(bits);
            assertThat(inFlight.put(req.transactionId(), req)).as("TransactionID %d twice in flight", req.transactionId()).isNull();
            requests++;
            RegisterPayload p = (RegisterPayload) req.payload();
            twoRegister += p.count() == 2 ? 1 : 0;
            writes += req.nmpType().isWrite() ? 1 : 0;
        }

        void answered(BitVector bits) {
            ManagementPacket got = ManagementPacket.parse(bits);
            ManagementPacket req = inFlight.remove(got.transactionId());
            assertThat(req).as("answer %s to no request in flight", got).isNotNull();
            ManagementPacket want = ref.answer(req, i -> got.payload() instanceof RegisterPayload r ? r.data().get(i) : 0);
            assertThat(got).as("answer to %s", req).isEqualTo(want);
            String kind = want.payload() instanceof ErrorPayload e ? e.error().name() : "OK";
            answers.merge(kind, 1, Integer::sum);
            int port = want.route().hop(0);
            answeredByPort[port]++;
            leaving.get(port).add(want.advance().toBits());
        }

        void left(int port, BitVector bits) {
            assertThat(bits).as("packet leaving port %d", port).isEqualTo(leaving.get(port).poll());
            leftPorts++;
        }
    }

    @Test
    void requestsAreWellFormedAndAnsweredAsTheReferencePredicts() {
        try (Testbench<NrcTrafficBenchmark> tb = Testbench.create(NrcTrafficBenchmark::new, RunConfig.of(1, CYCLES))) {
            Checker c = new Checker(tb);
            tb.reset(1);
            tb.run(CYCLES);
            NrcTrafficBenchmark d = tb.dut();

            assertThat(c.requests).isEqualTo(601);
            // the mix follows the timing: the generator offers one LFSR draw per cycle and a port takes the one
            // offered when it is ready, so writes answered on acceptance (a cycle earlier) shift which draws are taken
            assertThat(c.twoRegister).isEqualTo(328);
            assertThat(c.writes).isEqualTo(299);
            assertThat(c.answers).isEqualTo(Map.of("OK", 502, "UNMAPPED_ADDRESS", 62, "READ_ONLY", 34));
            assertThat(c.inFlight).as("601 requests in, 598 answered").hasSize(3);
            // relay stations nearer the NMA (column 5: ports 5, 11, 17, 23) win more of its bandwidth
            assertThat(c.answeredByPort).containsExactly(5, 5, 9, 19, 37, 75, 5, 5, 9, 19, 37, 75, 5, 5, 9, 19, 37, 74,
                    5, 5, 9, 19, 37, 74);
            assertThat(c.leftPorts).isEqualTo(593);
            // the design's own counts are the monitors'
            assertThat(tb.sim().peek(d.requests)).isEqualTo(c.requests);
            assertThat(tb.sim().peek(d.responses)).isEqualTo(c.leftPorts);
            for (String drop : List.of("crcErrors", "malformedDrops", "destIdDrops")) {
                assertThat(tb.sim().peek("nrcTrafficBenchmark.nrc.nma." + drop)).as(drop).isZero();
            }
        }
    }
}
