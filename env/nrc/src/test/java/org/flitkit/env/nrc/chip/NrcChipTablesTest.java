package org.flitkit.env.nrc.chip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nrc.MgmtServer;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.rtl.nrc.TableConfig;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Routing tables through the table-config registers of a whole NRC: the entries the E2PROM loaded at power-up
 * (common to all ports) read back exactly; a management write reaches one port's table only; a pointer beyond
 * the ports writes nothing. docs/th2-nrc-switch.md, "Table access".
 */
@ExtendWith(TestbenchExtension.class)
class NrcChipTablesTest {
    static final int ADDR = 0x108;
    static final int DATA = 0x109;
    static final int PTR = 0x10A;
    static final int READ = 0x10B;

    @Test
    void powerUpTablesReadBackAndWritesReachOnePort(RunConfig cfg) {
        try (Testbench<NrcPeerBoard> tb = NrcPeerBoard.testbench(4, cfg)) {
            MgmtServer server = new MgmtServer(tb, tb.dut().portIn, tb.dut().portOut, null, Throttle.NONE);
            List<Long> got = new ArrayList<>();
            server.onReceive(r -> got.addAll(((RegisterPayload) ManagementPacket.parse(r.bits()).payload()).data()));
            tb.reset(4);
            tb.runUntil("the power-up load", () -> !tb.sim().peekBool(tb.dut().nrc.booting), 2_000_000);
            int[] tid = {1};
            java.util.function.BiFunction<Integer, Long, Long> entry = (port, index) -> {
                got.clear();
                server.send(5, Requests.write(5, 0xFFFF, tid[0]++, List.of(ADDR), List.of((long) port << TableConfig.PORT_LSB | index)).toBits());
                server.send(5, Requests.read(5, 0xFFFF, tid[0]++, List.of(PTR, READ)).toBits());
                tb.runUntil("the answers", () -> got.size() == 2, 5_000);
                return got.get(1);
            };
            // loaded at power-up (NrcChipTrafficScenario.eeprom): 0x100+q -> output q, 0x300+k -> outputs k and k+12, all ports
            assertThat(entry.apply(0, 0x100L)).isEqualTo(1L);
            assertThat(entry.apply(7, 0x10BL)).isEqualTo(1L << 11);
            assertThat(entry.apply(23, 0x117L)).isEqualTo(1L << 23);
            assertThat(entry.apply(0, 0x118L)).isZero();
            assertThat(entry.apply(3, 0x305L)).isEqualTo(1L << 5 | 1L << 17);

            // one port's entry, written and read back; the other ports keep theirs; the pointer advanced by one
            got.clear();
            server.send(5, Requests.write(5, 0xFFFF, tid[0]++, List.of(ADDR, DATA), List.of(3L << TableConfig.PORT_LSB | 0x105, 0xABCL)).toBits());
            server.send(5, Requests.read(5, 0xFFFF, tid[0]++, List.of(PTR)).toBits());
            tb.runUntil("the answers", () -> got.size() == 1, 5_000);
            assertThat(got.get(0)).isEqualTo(3L << TableConfig.PORT_LSB | 0x106);
            assertThat(entry.apply(3, 0x105L)).isEqualTo(0xABCL);
            assertThat(entry.apply(4, 0x105L)).isEqualTo(1L << 5);

            // a pointer at port 24 (no such table): the write changes nothing, the entry reads 0
            got.clear();
            server.send(5, Requests.write(5, 0xFFFF, tid[0]++, List.of(ADDR, DATA), List.of(24L << TableConfig.PORT_LSB | 0x105, 0x1L)).toBits());
            tb.runUntil("the answer", () -> true, 2_000);
            assertThat(entry.apply(24, 0x105L)).isZero();
            for (int p = 0; p < 24; p++) {
                assertThat(entry.apply(p, 0x105L)).as("port %d", p).isEqualTo(p == 3 ? 0xABCL : 1L << 5);
            }
        }
    }
}
