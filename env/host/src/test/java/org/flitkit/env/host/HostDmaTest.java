package org.flitkit.env.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostDmaTest {
    private final HostMemory mem = new HostMemory();
    private final HostDma dma = new HostDma(mem, new DmaParams(20, 8, 4, 512, 128, 64));

    @Test
    void writesBecomeVisibleAfterTheWriteLatencyInOrder() {
        dma.write(100, 0x1000, new byte[] {1, 2, 3});
        dma.write(101, 0x1001, new byte[] {9});
        dma.tick(107);
        assertThat(mem.read(0x1000, 3)).containsExactly(0, 0, 0);
        dma.tick(108);
        assertThat(mem.read(0x1000, 3)).containsExactly(1, 2, 3);
        dma.tick(109);
        assertThat(mem.read(0x1000, 3)).containsExactly(1, 9, 3);
        assertThat(dma.writesDone()).isEqualTo(2);
    }

    @Test
    void readsSplitAtTheCompletionBoundaryAndMaxPayloadAndSeeEarlierWrites() {
        byte[] data = new byte[300];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        mem.write(0x2000 + 40, data, 0, 100);
        dma.write(0, 0x2000 + 140, slice(data, 100, 100));
        dma.write(0, 0x2000 + 240, slice(data, 200, 100));
        dma.read(0, 3, 0x2000 + 40, 300);
        assertThat(dma.tagBusy(3)).isTrue();
        List<HostDma.Completion> got = new ArrayList<>();
        long firstAt = -1;
        for (long c = 0; c < 40; c++) {
            List<HostDma.Completion> now = dma.tick(c);
            if (!now.isEmpty() && firstAt < 0) {
                firstAt = c;
            }
            got.addAll(now);
        }
        assertThat(firstAt).isEqualTo(20);
        // at most 128 B each, cut back to a 64-B boundary: 0x2028..0x207F, 0x2080..0x20FF, then the rest
        assertThat(got).extracting(c -> c.data().length).containsExactly(88, 128, 84);
        assertThat(got).extracting(HostDma.Completion::addr).containsExactly(0x2028L, 0x2080L, 0x2100L);
        assertThat(got).extracting(HostDma.Completion::last).containsExactly(false, false, true);
        byte[] joined = new byte[300];
        int off = 0;
        for (HostDma.Completion c : got) {
            System.arraycopy(c.data(), 0, joined, off, c.data().length);
            off += c.data().length;
        }
        assertThat(joined).isEqualTo(data);
        assertThat(dma.tagBusy(3)).isFalse();
    }

    @Test
    void badRequestsAreRejectedWithTheLimitTheyBreak() {
        dma.read(0, 1, 0, 8);
        assertThatThrownBy(() -> dma.read(1, 1, 64, 8)).hasMessageContaining("tag 1 while a read with that tag is outstanding");
        assertThatThrownBy(() -> dma.read(1, 4, 0, 8)).hasMessageContaining("tag 4 outside 0..3");
        assertThatThrownBy(() -> dma.read(1, 2, 0, 513)).hasMessageContaining("max read request size");
        assertThatThrownBy(() -> dma.write(1, 0, new byte[129])).hasMessageContaining("max payload size");
        assertThatThrownBy(() -> new DmaParams(8, 8, 4, 512, 128, 64)).hasMessageContaining("must exceed the write");
        assertThatThrownBy(() -> new DmaParams(20, 8, 4, 500, 128, 64)).hasMessageContaining("powers of two");
    }

    @Test
    void memoryIsSparseAndLittleEndian() {
        mem.writeLe(0x7FFF_FFFEL, 0x1122334455667788L, 8);
        assertThat(mem.readLe(0x7FFF_FFFEL, 8)).isEqualTo(0x1122334455667788L);
        assertThat(mem.read(0x7FFF_FFFEL, 2)).containsExactly(0x88, 0x77);
        assertThat(mem.pages()).isEqualTo(2);
        assertThat(mem.readLe(0x5000, 4)).isZero();
    }

    private static byte[] slice(byte[] b, int from, int n) {
        byte[] out = new byte[n];
        System.arraycopy(b, from, out, 0, n);
        return out;
    }
}
