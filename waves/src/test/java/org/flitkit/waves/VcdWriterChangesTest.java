package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The "write only what changed" contract that lets simulators report every signal every cycle. */
class VcdWriterChangesTest {

    @Test
    void repeatedValuesProduceNoOutputAndNoTimestamps() {
        String body = VcdText.body(VcdText.write(w -> {
            Scope top = w.root("top");
            int a = top.wire("a", 1);
            int b = top.wire("b", 16);
            for (long t = 0; t < 100; t++) {
                w.time(t);
                w.value(a, t >= 50 ? 1 : 0);
                w.value(b, 0x1234);
            }
        }));

        assertThat(body.lines()).containsExactly(
                "#0", "$dumpvars", "0!", "b1001000110100 \"", "$end",
                "#50", "1!",
                "#99"); // close() marks the end of simulation
    }

    @Test
    void readerSeesOnlyRealChanges() {
        VcdReader dump = VcdText.read(w -> {
            int q = w.root("top").reg("q", 3);
            long[] limbs = new long[1];
            for (long t = 0; t < 20; t++) {
                w.time(t * 10);
                limbs[0] = t / 5; // changes every 5 cycles
                w.value(q, limbs, 0);
            }
        });

        assertThat(dump.signal("top.q").changes()).containsExactly(
                new VcdReader.Change(0, BigInteger.ZERO),
                new VcdReader.Change(50, BigInteger.ONE),
                new VcdReader.Change(100, BigInteger.TWO),
                new VcdReader.Change(150, BigInteger.valueOf(3)));
        assertThat(dump.signal("top.q").valueAt(149)).isEqualTo(BigInteger.TWO);
        assertThat(dump.endTime()).isEqualTo(190);
    }

    @Test
    void dumpvarsListsEverySignalIncludingNeverAssignedOnesAsZero() {
        String vcd = VcdText.write(w -> {
            Scope top = w.root("top");
            for (int i = 0; i < 300; i++) {
                top.child("u" + i).wire("s", 1 + i % 70);
            }
            w.time(7);
            w.value(5, 1); // only one signal assigned before the block closes
            w.time(8);
        });
        VcdReader dump = VcdText.parse(vcd);

        String dumpvars = vcd.substring(vcd.indexOf("$dumpvars"), vcd.indexOf("$end", vcd.indexOf("$dumpvars")));
        assertThat(dumpvars.lines().count()).isEqualTo(1 + 300);
        assertThat(dump.signals()).hasSize(300).allSatisfy((name, signal) -> {
            assertThat(signal.changes()).hasSize(1);
            assertThat(signal.changes().get(0).time()).isEqualTo(7);
        });
        assertThat(dump.signal("top.u5.s").valueAt(7)).isEqualTo(BigInteger.ONE);
        assertThat(dump.signal("top.u6.s").valueAt(7)).isEqualTo(BigInteger.ZERO);
    }

    @Test
    void anEndTimeExtendsTheDumpPastItsLastChangeButNeverShortensIt() {
        assertThat(bodyEndingAt(10, 25).lines()).containsExactly("#0", "$dumpvars", "0!", "$end", "#10", "1!", "#25");
        assertThat(bodyEndingAt(30, 25).lines()).containsExactly("#0", "$dumpvars", "0!", "$end", "#10", "1!", "#30");
    }

    /** A change at 10, time advanced to {@code last}, then {@code endTime(end)} and close. */
    private static String bodyEndingAt(long last, long end) {
        return VcdText.body(VcdText.write(w -> {
            int a = w.root("top").wire("a", 1);
            w.time(0);
            w.time(10);
            w.value(a, 1);
            w.time(last);
            w.endTime(end);
        }));
    }

    @Test
    void initialBlockTakesTheLastValueGivenAtTheFirstTimestamp() {
        String body = VcdText.body(VcdText.write(w -> {
            int a = w.root("top").wire("a", 1);
            w.time(0);
            w.value(a, 1);
            w.value(a, 0);
            w.time(0); // equal time is allowed
            w.value(a, 1);
            w.time(3);
            w.value(a, 0);
        }));

        assertThat(body.lines()).containsExactly("#0", "$dumpvars", "1!", "$end", "#3", "0!");
    }

    @Test
    void flushClosesTheInitialBlockAndLaterChangesShareItsTimestamp() {
        String body = VcdText.body(VcdText.write(w -> {
            int a = w.root("top").wire("a", 1);
            w.time(2);
            w.flush();
            w.value(a, 1);
        }));

        assertThat(body.lines()).containsExactly("#2", "$dumpvars", "0!", "$end", "1!");
    }

    @Test
    void closeWithoutTimeStillWritesACompleteHeader() {
        String vcd = VcdText.write(w -> w.root("top").wire("a", 1));

        assertThat(vcd).endsWith("$upscope $end\n$enddefinitions $end\n");
        assertThat(VcdText.parse(vcd).signals()).containsOnlyKeys("top.a");
    }
}
