package org.flitkit.env.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.host.PcieHost.ReadFaults;
import org.flitkit.env.host.PcieHost.ReadOutcome;
import org.flitkit.rtl.pcie.Pcie;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PcieHost} against {@link EchoDevice}: exact cycles of BAR writes, read completions and write visibility,
 * multi-beat writes under backpressure, completions split at the read completion boundary and max payload size,
 * error and lost completions, seeded error injection, interrupts.
 */
@ExtendWith(TestbenchExtension.class)
class PcieHostTest {
    /** Small latencies so the exact cycles are easy to read: round trip 20, posted write 8, BAR write 5. */
    /** The causes of IRQ_COMPLETION and IRQ_MPQ (the host model does not depend on the TH-2 formats). */
    static final int IRQ_COMPLETION = 1;
    static final int IRQ_MPQ = 2;
    static final PcieParams FAST = new PcieParams(new DmaParams(20, 8, 256, 512, 128, 64), 5);

    /** A completion beat as the device took it. */
    record CplBeat(long cycle, int tag, int bytes, int status, boolean last) {
    }

    /** Records the completion beats the device takes, and when a host-memory range first holds the expected bytes. */
    static final class Watch extends Component {
        final EchoDevice d;
        final HostMemory mem;
        final List<CplBeat> beats = new ArrayList<>();
        long addr;
        byte[] want;
        long visibleAt = -1;

        Watch(EchoDevice d, HostMemory mem) {
            super("watch");
            this.d = d;
            this.mem = mem;
        }

        @Override
        protected void drive() {
            // added after the host, so this is what host software would see in this cycle
            if (want != null && visibleAt < 0 && java.util.Arrays.equals(mem.read(addr, want.length), want)) {
                visibleAt = cycle();
            }
        }

        @Override
        protected void sample() {
            if (sim().peek(d.dmaCpl.valid) != 0 && sim().peek(d.dmaCpl.ready) != 0) {
                beats.add(new CplBeat(cycle(), (int) sim().peek(d.dmaCpl.bits.tag), (int) sim().peek(d.dmaCpl.bits.bytes),
                        (int) sim().peek(d.dmaCpl.bits.status), sim().peek(d.dmaCpl.bits.last) != 0));
            }
        }
    }

    static PcieHost host(Testbench<EchoDevice> tb, HostMemory mem, PcieParams p) {
        EchoDevice d = tb.dut();
        return tb.add(new PcieHost("host", mem, p).dma(d.dmaRq, d.dmaCpl).mmio(d.mmio).irq(d.irq));
    }

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + seed);
        }
        return b;
    }

    @Test
    void barWriteReadCompletionAndWriteBackArriveAtExactCycles(RunConfig cfg) {
        try (Testbench<EchoDevice> tb = Testbench.create(EchoDevice::new, cfg)) {
            HostMemory mem = new HostMemory();
            byte[] data = pattern(128, 3);
            mem.write(0x4000, data);
            PcieHost host = host(tb, mem, FAST);
            Watch w = tb.add(new Watch(tb.dut(), mem));
            w.addr = 0x4000 + EchoDevice.COPY_OFFSET;
            w.want = data;
            tb.reset(1);
            long c0 = tb.cycle();
            host.mmioWrite(8 * 128, 0x4000);
            tb.runUntil("the copy is visible", () -> w.visibleAt >= 0, 200);
            tb.finish();
            // BAR write seen 5 cycles after it was issued; the read leaves the cycle after
            assertThat(host.mmioDelivered()).containsExactly(c0 + 5);
            assertThat(host.reads()).containsExactly(new PcieHost.Read(c0 + 6, 0, 0x4000, 128, ReadOutcome.OK));
            // one 128-byte completion (the max payload), as two 64-byte beats back to back, the first a round trip later
            assertThat(w.beats).containsExactly(new CplBeat(c0 + 26, 0, 64, Pcie.SC, false), new CplBeat(c0 + 27, 0, 64, Pcie.SC, true));
            // two write beats at c0+28 and c0+29; visible 8 cycles after the last
            assertThat(host.writes()).hasSize(1);
            assertThat(host.writes().get(0).cycle()).isEqualTo(c0 + 29);
            assertThat(host.writes().get(0).addr()).isEqualTo(0x4000 + EchoDevice.COPY_OFFSET);
            assertThat(host.writes().get(0).data()).isEqualTo(data);
            assertThat(w.visibleAt).isEqualTo(c0 + 37);
            assertThat(host.interrupts()).containsExactly(new PcieHost.Interrupt(c0 + 29, 0, IRQ_MPQ));
            assertThat(host.idle()).isTrue();
        }
    }

    @Test
    void completionsSplitAtTheBoundaryAndMaxPayloadAndWritesReassembleUnderBackpressure(RunConfig cfg) {
        try (Testbench<EchoDevice> tb = Testbench.create(EchoDevice::new, cfg)) {
            HostMemory mem = new HostMemory();
            byte[] data = pattern(256, 11);
            long src = 0x2028;
            mem.write(src, data);
            PcieHost host = host(tb, mem, FAST).backpressure(Throttle.random(0.4));
            Watch w = tb.add(new Watch(tb.dut(), mem));
            tb.reset(1);
            host.mmioWrite(8 * 256, src);
            tb.runUntil("the copy is written", () -> host.writes().size() == 1 && host.idle(), 500);
            tb.finish();
            // completions of 88 (to the 64-byte boundary 0x2080), 128 (max payload) and 40 bytes, as 64-byte beats
            assertThat(w.beats).extracting(CplBeat::bytes).containsExactly(64, 24, 64, 64, 40);
            assertThat(w.beats).extracting(CplBeat::last).containsExactly(false, false, false, false, true);
            // one beat per cycle: the completions queue behind each other
            for (int i = 1; i < w.beats.size(); i++) {
                assertThat(w.beats.get(i).cycle()).isEqualTo(w.beats.get(0).cycle() + i);
            }
            assertThat(w.beats.get(0).cycle()).isEqualTo(host.reads().get(0).cycle() + 20);
            // four write beats reassembled into one 256-byte write, then split at 128-byte boundaries for the host
            assertThat(host.writes()).hasSize(1);
            assertThat(host.writes().get(0).data()).isEqualTo(data);
            assertThat(mem.read(src + EchoDevice.COPY_OFFSET, 256)).isEqualTo(data);
            assertThat(mem.read(src + EchoDevice.COPY_OFFSET - 8, 8)).containsOnly(0);
            assertThat(mem.read(src + EchoDevice.COPY_OFFSET + 256, 8)).containsOnly(0);
        }
    }

    @Test
    void errorCompletionsEndTheReadAndFreeTheTag(RunConfig cfg) {
        try (Testbench<EchoDevice> tb = Testbench.create(EchoDevice::new, cfg)) {
            HostMemory mem = new HostMemory();
            mem.write(0x8000, pattern(64, 1));
            PcieHost host = host(tb, mem, FAST).readFaults((addr, len, rng) -> addr == 0x5000 ? ReadOutcome.UR
                    : addr == 0x6000 ? ReadOutcome.CA : ReadOutcome.OK);
            Watch w = tb.add(new Watch(tb.dut(), mem));
            tb.reset(1);
            host.mmioWrite(8 * 64, 0x5000);
            host.mmioWrite(8 * 64, 0x6000);
            host.mmioWrite(8 * 64, 0x8000);
            tb.runUntil("three reads answered", () -> host.writes().size() == 3 && host.idle(), 500);
            tb.finish();
            assertThat(host.reads()).extracting(PcieHost.Read::outcome).containsExactly(ReadOutcome.UR, ReadOutcome.CA, ReadOutcome.OK);
            assertThat(host.reads()).extracting(PcieHost.Read::tag).containsExactly(0, 1, 2);
            // one beat each for the errors, no data, last set, a round trip after the request
            assertThat(w.beats).hasSize(3);
            assertThat(w.beats.get(0)).isEqualTo(new CplBeat(host.reads().get(0).cycle() + 20, 0, 0, Pcie.UR, true));
            assertThat(w.beats.get(1)).isEqualTo(new CplBeat(host.reads().get(1).cycle() + 20, 1, 0, Pcie.CA, true));
            assertThat(w.beats.get(2)).isEqualTo(new CplBeat(host.reads().get(2).cycle() + 20, 2, 64, Pcie.SC, true));
            assertThat(mem.readLe(0x5000 + EchoDevice.COPY_OFFSET, 8)).isEqualTo(Pcie.UR);
            assertThat(mem.readLe(0x6000 + EchoDevice.COPY_OFFSET, 8)).isEqualTo(Pcie.CA);
            assertThat(mem.read(0x8000 + EchoDevice.COPY_OFFSET, 64)).isEqualTo(pattern(64, 1));
            assertThat(host.interrupts()).extracting(PcieHost.Interrupt::cause)
                    .containsExactly(IRQ_COMPLETION, IRQ_COMPLETION, IRQ_MPQ);
            assertThat(host.interrupts()).extracting(PcieHost.Interrupt::vp).containsExactly(0, 1, 2);
        }
    }

    @Test
    void aLostCompletionNeverArrives(RunConfig cfg) {
        try (Testbench<EchoDevice> tb = Testbench.create(EchoDevice::new, cfg)) {
            HostMemory mem = new HostMemory();
            PcieHost host = host(tb, mem, FAST).readFaults(ReadFaults.inRange(0x3000, 0x3040, ReadOutcome.LOST));
            Watch w = tb.add(new Watch(tb.dut(), mem));
            tb.reset(1);
            host.mmioWrite(8 * 16, 0x3030);
            tb.run(1000);
            tb.finish();
            assertThat(host.reads()).extracting(PcieHost.Read::outcome).containsExactly(ReadOutcome.LOST);
            assertThat(w.beats).isEmpty();
            assertThat(host.writes()).isEmpty();
            assertThat(mem.pages()).isZero();
            assertThat(host.idle()).isTrue();
        }
    }

    @Test
    void aSeededFractionOfReadsFailsReproducibly(RunConfig cfg) {
        int n = 40;
        try (Testbench<EchoDevice> tb = Testbench.create(EchoDevice::new, cfg)) {
            HostMemory mem = new HostMemory();
            PcieHost host = host(tb, mem, FAST).readFaults(ReadFaults.fraction(0.5, ReadOutcome.CA));
            tb.reset(1);
            for (int i = 0; i < n; i++) {
                host.mmioWrite(8 * 8, 0x1000 + 64L * i);
            }
            tb.runUntil("every read answered", () -> host.writes().size() == n && host.idle(), 5_000);
            tb.finish();
            // the host's stream is the run seed forked by its name; one draw per read, nothing else draws from it
            Rng replay = new Rng(cfg.seed()).fork("host");
            int failed = 0;
            for (int i = 0; i < n; i++) {
                boolean fail = replay.chance(0.5);
                failed += fail ? 1 : 0;
                assertThat(host.reads().get(i).outcome()).isEqualTo(fail ? ReadOutcome.CA : ReadOutcome.OK);
                assertThat(mem.readLe(0x1000 + 64L * i + EchoDevice.COPY_OFFSET, 8)).isEqualTo(fail ? Pcie.CA : 0);
            }
            assertThat(host.reads()).filteredOn(r -> r.outcome() == ReadOutcome.CA).hasSize(failed);
            assertThat(failed).isBetween(1, n - 1);
        }
    }

    @Test
    void barWritesAreDeliveredInOrderNoEarlierThanTheirLatency(RunConfig cfg) {
        try (Testbench<EchoDevice> tb = Testbench.create(EchoDevice::new, cfg)) {
            HostMemory mem = new HostMemory();
            PcieHost host = host(tb, mem, FAST.withMmioLatency(12));
            tb.reset(1);
            long c0 = tb.cycle();
            host.mmioWrite(8, 0x100);
            tb.run(3);
            host.mmioWrite(8, 0x200);
            tb.runUntil("both reads", () -> host.reads().size() == 2 && host.idle(), 500);
            tb.finish();
            assertThat(host.mmioDelivered().get(0)).isEqualTo(c0 + 12);
            // the device is busy with the first until its write-back: the second waits for ready
            assertThat(host.mmioDelivered().get(1)).isEqualTo(host.writes().get(0).cycle() + 1);
            assertThat(host.reads()).extracting(PcieHost.Read::addr).containsExactly(0x100L, 0x200L);
        }
    }

    @Test
    void th2DefaultsComeFromNanosecondsAt100MHz() {
        PcieParams p = PcieParams.th2();
        assertThat(p.dma().readRoundTripCycles()).isEqualTo(60);
        assertThat(p.dma().writeLatencyCycles()).isEqualTo(30);
        assertThat(p.mmioLatencyCycles()).isEqualTo(30);
        assertThat(p.dma().tags()).isEqualTo(32);
        assertThat(PcieParams.fromNanos(781.25, 512, 256, 100).dma().readRoundTripCycles()).isEqualTo(400);
        assertThat(DmaParams.cycles(100, 14)).isEqualTo(1);
        assertThat(DmaParams.cycles(100, 16)).isEqualTo(2);
        assertThatThrownBy(() -> DmaParams.cycles(0, 10)).hasMessageContaining("positive clock");
        assertThatThrownBy(() -> PcieParams.fromNanos(100, 600, 300, 1)).hasMessageContaining("at least 1 cycle");
        assertThat(PcieHost.fromLittleEndian(new byte[] {1, 2, (byte) 0xFF})).isEqualTo(BigInteger.valueOf(0xFF0201));
    }
}
