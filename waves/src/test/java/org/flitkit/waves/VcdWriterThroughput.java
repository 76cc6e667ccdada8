package org.flitkit.waves;

import java.io.OutputStream;

/**
 * Manual throughput check (unit tests must not assert on wall-clock time). Run after {@code mvn test}:
 * {@code java -cp waves/target/classes:waves/target/test-classes org.flitkit.waves.VcdWriterThroughput}.
 */
public final class VcdWriterThroughput {
    private VcdWriterThroughput() {
    }

    public static void main(String[] args) {
        for (int round = 0; round < 5; round++) {
            CountingStream sink = new CountingStream();
            long start = System.nanoTime();
            VcdWriterVolumeTest.writeCounterDesign(sink, 1_000_000);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("%,d lines, %,d bytes in %.3f s = %.1f M lines/s%n",
                    sink.lines, sink.bytes, seconds, sink.lines / seconds / 1e6);
        }
    }

    /** Discards output but counts bytes and lines, so measurements exclude the disk. */
    static final class CountingStream extends OutputStream {
        long bytes;
        long lines;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    lines++;
                }
            }
        }
    }
}
