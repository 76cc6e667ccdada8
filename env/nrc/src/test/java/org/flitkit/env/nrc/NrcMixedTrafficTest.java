package org.flitkit.env.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Status polling while an E2PROM write is in progress, through the whole NRC (spec 20-th2-management.md,
 * "NMA submodules"; docs/th2-nma.md, "Ordering"): register reads from the last port of each row, sent one
 * cycle after an E2PROM write and an E2PROM read queued behind it, are answered while eep_access is busy, with the latency they have alone,
 * and before the write; the scoreboard matches answers by TransactionID, out of order.
 */
@ExtendWith(TestbenchExtension.class)
class NrcMixedTrafficTest {
    @Test
    void registerReadsFromEveryRowCompleteWhileAnE2promWriteRuns(RunConfig cfg) {
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, Throttle.NONE)) {
            int me = env.ref.chipId();
            ManagementPacket write = Requests.eepromWrite(5, me, env.tid(), List.of(0x0100), List.of(0x5A));
            ManagementPacket readBack = Requests.eepromRead(5, me, env.tid(), List.of(0x0100));
            env.submit(5, write);
            env.submit(5, readBack); // waits for eep_access behind the write, in the NMA's E2PROM queue
            env.idle(1);
            // one read from the last RS of each of rows 1..3 (row 0 carries the write), then a second from
            // port 11 behind the first, and a 2-register read from the far port 18 (column 0, 6 relay stations)
            List<ManagementPacket> reads = new ArrayList<>();
            for (int port : new int[] {11, 17, 23, 11, 18}) {
                List<Integer> addrs = port == 18 ? List.of(0x008, 0x009) : List.of(0x000);
                ManagementPacket r = Requests.read(port, me, env.tid(), addrs);
                env.submit(port, r);
                reads.add(r);
            }
            env.drain(1_000_000L);
            env.tb.finish();
            List<Long> lat = reads.stream().map(r -> env.latency(r.transactionId())).toList();
            long eep = env.latency(write.transactionId());
            long eepRead = env.latency(readBack.transactionId());
            System.out.printf("register reads while an E2PROM write runs: %s cycles; E2PROM write %d, read %d cycles%n",
                    lat, eep, eepRead);
            // 90 cycles alone from a column-5 port (docs/th2-nrc.md). nmp_unpacker takes one whole packet (40
            // beats) at a time from the rows, so the requests reach the NMA 40 cycles apart, the first read 39
            // cycles behind the E2PROM write's packet: 90 + 39, then 40 more each (rows round robin: 1, 2, 3, then
            // row 0's E2PROM read, then the last two reads). None waits for eep_access: the last two pass the
            // E2PROM read waiting in the NMA (without the E2PROM queue they waited behind it: 857 and 902)
            assertThat(lat).as("read latencies, ports 11, 17, 23, 11, 18").containsExactly(129L, 169L, 209L, 289L, 335L);
            assertThat(eep).as("E2PROM write (fast timing), answered after every read").isEqualTo(818L);
            assertThat(eepRead).as("E2PROM read, after the write").isEqualTo(1323L);
            assertThat(lat).allMatch(l -> l + 1 < eep);
        }
    }
}
