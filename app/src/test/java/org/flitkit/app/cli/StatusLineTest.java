package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** One line redrawn in place, erased before other output, never drawn in the middle of another line or too often. */
class StatusLineTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream terminal = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String terminal() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void redrawsInPlaceAndNotAgainWithinTheGap() {
        StatusLine line = new StatusLine(terminal, 0, Long.MAX_VALUE);
        line.accept("run  10 cycles");
        line.accept("run  20 cycles");
        assertThat(terminal()).isEqualTo("\rrun  10 cycles\033[K");
        assertThat(line.redraws()).isEqualTo(1);
        line.close();
        assertThat(terminal()).isEqualTo("\rrun  10 cycles\033[K\r\033[K");
    }

    @Test
    void drawsNothingBeforeItsDelay() {
        StatusLine line = new StatusLine(terminal, Long.MAX_VALUE / 2, 0);
        line.accept("run");
        line.close();
        assertThat(terminal()).isEmpty();
        assertThat(line.redraws()).isZero();
    }

    @Test
    void outputErasesTheLineAndAHalfWrittenLineHoldsTheRedrawsBack() throws IOException {
        StatusLine line = new StatusLine(terminal, 0, 0);
        line.accept("a");
        OutputStream out = line.guard((OutputStream) terminal);
        out.write("PASS ".getBytes(StandardCharsets.US_ASCII));
        line.accept("b");
        out.write("x=1\n".getBytes(StandardCharsets.US_ASCII));
        line.accept("c");
        assertThat(terminal()).isEqualTo("\ra\033[K\r\033[KPASS x=1\n\rc\033[K");
    }

    @Test
    void aWriterAndPrintlnWriteAboveTheLineToo() {
        StatusLine line = new StatusLine(terminal, 0, 0);
        StringWriter text = new StringWriter();
        PrintWriter w = new PrintWriter(line.guard(new PrintWriter(text)), true);
        line.accept("a");
        w.println("request 1");
        line.accept("b");
        line.println("built");
        assertThat(text.toString()).isEqualTo("request 1" + System.lineSeparator());
        assertThat(terminal()).isEqualTo("\ra\033[K\r\033[K\rb\033[K\r\033[Kbuilt" + System.lineSeparator());
    }
}
