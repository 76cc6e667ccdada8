package org.flitkit.rtl.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link DmaMux}: round robin between requests, a multi-beat write keeps the grant to its last beat, nothing lost. */
@ExtendWith(TestbenchExtension.class)
class DmaMuxTest {
    /** One request beat, packed like the DmaRequest bundle (write, tag, addr, len, data, last; first field on top). */
    record Beat(boolean write, int tag, long addr, int len, BigInteger data, boolean last) {
        BigInteger pack() {
            BigInteger v = BigInteger.valueOf(write ? 1 : 0);
            v = v.shiftLeft(Pcie.TAG_BITS).or(BigInteger.valueOf(tag));
            v = v.shiftLeft(Pcie.ADDR_BITS).or(BigInteger.valueOf(addr));
            v = v.shiftLeft(Pcie.LEN_BITS).or(BigInteger.valueOf(len));
            v = v.shiftLeft(Pcie.BEAT_BITS).or(data);
            return v.shiftLeft(1).or(BigInteger.valueOf(last ? 1 : 0));
        }

        static Beat unpack(BigInteger v) {
            boolean last = v.testBit(0);
            v = v.shiftRight(1);
            BigInteger data = v.and(BigInteger.ONE.shiftLeft(Pcie.BEAT_BITS).subtract(BigInteger.ONE));
            v = v.shiftRight(Pcie.BEAT_BITS);
            int len = v.intValue() & ((1 << Pcie.LEN_BITS) - 1);
            v = v.shiftRight(Pcie.LEN_BITS);
            long addr = v.longValue();
            v = v.shiftRight(Pcie.ADDR_BITS);
            int tag = v.intValue() & 0xFF;
            return new Beat(v.shiftRight(Pcie.TAG_BITS).testBit(0), tag, addr, len, data, last);
        }
    }

    static List<Beat> write(long addr, byte[] bytes) {
        List<Beat> out = new ArrayList<>();
        int beats = (bytes.length + Pcie.BEAT_BYTES - 1) / Pcie.BEAT_BYTES;
        for (int b = 0; b < beats; b++) {
            byte[] part = new byte[Math.min(Pcie.BEAT_BYTES, bytes.length - b * Pcie.BEAT_BYTES)];
            System.arraycopy(bytes, b * Pcie.BEAT_BYTES, part, 0, part.length);
            out.add(new Beat(true, 0, addr, bytes.length, PcieHost.fromLittleEndian(part), b == beats - 1));
        }
        return out;
    }

    static Beat read(int tag, long addr) {
        return new Beat(false, tag, addr, 64, BigInteger.ZERO, false);
    }

    @Test
    void saturatedInputsTakeTurnsAndAWriteKeepsTheGrant(RunConfig cfg) {
        try (Testbench<DmaMux> tb = Testbench.create(() -> new DmaMux(3), cfg)) {
            DmaMux m = tb.dut();
            List<StreamSource> src = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                src.add(tb.add(new StreamSource("src" + i, StreamPort.of(m.in.get(i)))));
            }
            StreamPort out = StreamPort.of(m.out);
            tb.add(new StreamSink("sink", out));
            List<Beat> seen = new ArrayList<>();
            tb.add(new StreamMonitor("out_monitor", out).subscribe(b -> seen.add(Beat.unpack(b))));
            byte[] two = new byte[100];
            byte[] four = new byte[256];
            java.util.Arrays.fill(two, (byte) 2);
            java.util.Arrays.fill(four, (byte) 4);
            // input 0: read, 2-beat write, read; input 1: three reads; input 2: 4-beat write, read
            src.get(0).send(read(0, 0x000).pack());
            write(0x1000, two).forEach(b -> src.get(0).send(b.pack()));
            src.get(0).send(read(0, 0x040).pack());
            for (int k = 0; k < 3; k++) {
                src.get(1).send(read(1, 0x100 + 64 * k).pack());
            }
            write(0x2000, four).forEach(b -> src.get(2).send(b.pack()));
            src.get(2).send(read(2, 0x200).pack());
            tb.reset(1);
            tb.runUntil("all beats", () -> seen.size() == 12, 100);
            tb.finish();
            // one beat per cycle; the writes' beats back to back
            assertThat(seen).extracting(b -> b.write() ? "W" + b.addr() : "R" + b.tag()).containsExactly(
                    "R0", "R1", "W8192", "W8192", "W8192", "W8192", "W4096", "W4096", "R1", "R2", "R0", "R1");
        }
    }

    @Test
    void randomWritesFromFourSourcesLandWholeUnderBackpressure(RunConfig cfg) {
        try (Testbench<DmaMux> tb = Testbench.create(() -> new DmaMux(4), cfg)) {
            DmaMux m = tb.dut();
            HostMemory mem = new HostMemory();
            PcieHost host = tb.add(new PcieHost("host", mem, PcieParams.th2()).dma(m.out, null).backpressure(Throttle.busy(0.4)));
            RandomGenerator rnd = tb.rng("writes");
            List<List<byte[]>> expected = new ArrayList<>();
            int total = 0;
            for (int i = 0; i < 4; i++) {
                StreamSource s = tb.add(new StreamSource("src" + i, StreamPort.of(m.in.get(i))).gaps(Throttle.busy(0.5)));
                List<byte[]> mine = new ArrayList<>();
                for (int k = 0; k < 30; k++) {
                    byte[] b = new byte[1 + rnd.nextInt(256)];
                    rnd.nextBytes(b);
                    write(0x10_0000L * (i + 1) + 0x1000L * k, b).forEach(x -> s.send(x.pack()));
                    mine.add(b);
                    total++;
                }
                expected.add(mine);
            }
            int all = total;
            tb.reset(1);
            tb.runUntil("every write", () -> host.writes().size() == all && host.idle(), 20_000);
            tb.finish();
            for (int i = 0; i < 4; i++) {
                List<Long> order = host.writes().stream().map(PcieHost.Write::addr).filter(a -> a >>> 20 == 0).toList();
                assertThat(order).isEmpty();
                int src = i;
                // each source's writes in its order, every byte where it belongs
                List<Long> addrs = host.writes().stream().map(PcieHost.Write::addr).filter(a -> a >>> 20 == src + 1).toList();
                assertThat(addrs).hasSize(30).isSorted();
                for (int k = 0; k < 30; k++) {
                    byte[] b = expected.get(i).get(k);
                    assertThat(mem.read(0x10_0000L * (i + 1) + 0x1000L * k, b.length)).isEqualTo(b);
                }
            }
        }
    }
}
