package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class VcdWriterFormatTest {

    @Test
    void writesHeaderScopesVarsAndChangesExactly() {
        String vcd = VcdText.write(w -> {
            Scope top = w.root("top");
            int clk = top.wire("clk", 1);
            int count = top.reg("count", 8);
            Scope fifo = top.child("fifo");
            int level = fifo.wire("level", 4);
            int full = fifo.reg("full", 1);
            w.time(0);
            w.value(clk, 0);
            w.value(count, 0);
            w.value(level, 0);
            w.value(full, 0);
            w.time(5);
            w.value(clk, 1);
            w.value(count, 5);
            w.time(10);
            w.value(clk, 0);
            w.value(level, 0b1010);
            w.value(full, 1);
        });

        assertThat(vcd).isEqualTo(String.join("\n",
                "$date " + VcdText.FIXED_DATE + " $end",
                VcdText.VERSION_LINE,
                "$timescale 1ns $end",
                "$scope module top $end",
                "$var wire 1 ! clk $end",
                "$var reg 8 \" count [7:0] $end",
                "$scope module fifo $end",
                "$var wire 4 # level [3:0] $end",
                "$var reg 1 $ full $end",
                "$upscope $end",
                "$upscope $end",
                "$enddefinitions $end",
                "#0",
                "$dumpvars",
                "0!",
                "b0 \"",
                "b0 #",
                "0$",
                "$end",
                "#5",
                "1!",
                "b101 \"",
                "#10",
                "0!",
                "b1010 #",
                "1$",
                ""));
    }

    @Test
    void supportsSeveralRootsAndTimescalesOtherThanOne() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VcdWriter w = new VcdWriter(bytes, new Timescale(100, "ps"))) {
            w.root("a").wire("x", 1);
            w.root("b").wire("x", 1);
        }
        String vcd = bytes.toString(StandardCharsets.US_ASCII);

        assertThat(vcd).contains("$timescale 100ps $end\n")
                .contains("$scope module a $end\n$var wire 1 ! x $end\n$upscope $end\n"
                        + "$scope module b $end\n$var wire 1 \" x $end\n$upscope $end\n$enddefinitions $end\n");
    }

    @Test
    void sanitisesNamesForViewers() {
        VcdReader dump = VcdText.read(w -> {
            Scope top = w.root("my top");
            top.child("port[0]").wire("data.valid", 1);
            w.time(0);
        });

        assertThat(dump.signals()).containsOnlyKeys("my_top.port_0_.data_valid");
        assertThat(dump.scopes()).containsExactly("my_top", "my_top.port_0_");
    }

    @Test
    void stripsLeadingZerosButKeepsFullWidthValues() {
        String body = VcdText.body(VcdText.write(w -> {
            int bus = w.root("top").wire("bus", 64);
            w.time(0);
            w.value(bus, 1);
            w.time(1);
            w.value(bus, -1L);
            w.time(2);
            w.value(bus, Long.MIN_VALUE);
        }));

        assertThat(body.lines()).containsExactly(
                "#0", "$dumpvars", "b1 !", "$end",
                "#1", "b" + "1".repeat(64) + " !",
                "#2", "b1" + "0".repeat(63) + " !");
    }

    @Test
    void masksBitsAboveTheDeclaredWidth() {
        VcdReader dump = VcdText.read(w -> {
            int nibble = w.root("top").wire("nibble", 4);
            w.time(0);
            w.value(nibble, 0xF3);
            w.time(1);
            w.value(nibble, -1L);
        });

        assertThat(dump.signal("top.nibble").changes()).extracting(VcdReader.Change::value)
                .containsExactly(BigInteger.valueOf(3), BigInteger.valueOf(15));
    }
}
