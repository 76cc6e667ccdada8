package org.flitkit.env.nrc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Script parsing: every command, comments, numbers, and malformed lines with their line number. */
class MgmtScriptTest {
    @Test
    void parsesEveryCommand() throws Exception {
        MgmtScript s = MgmtScript.parse("""
                # comment
                port 23
                dest any   # trailing comment
                dest 0x42
                read 0x8 9
                write 0x8 0xffffffffffffffff 9 18446744073709551615
                eeprom-read 1 2 3 4 5 6
                eeprom-write 0x10 0xff

                corrupt-next
                fault 72
                wait 100
                timeout 0x1000
                nowait eeprom-write 0x0100 0x5a
                NOWAIT read 0x000
                sync
                """);
        assertThat(s.commands()).containsExactly(
                new MgmtScript.Port(2, 23), new MgmtScript.Dest(3, 0xFFFF), new MgmtScript.Dest(4, 0x42),
                new MgmtScript.Read(5, List.of(8, 9)),
                new MgmtScript.Write(6, List.of(8, 9), List.of(-1L, -1L)),
                new MgmtScript.EepromRead(7, List.of(1, 2, 3, 4, 5, 6)),
                new MgmtScript.EepromWrite(8, List.of(0x10), List.of(0xFF)),
                new MgmtScript.CorruptNext(10), new MgmtScript.Fault(11, 72), new MgmtScript.Wait(12, 100),
                new MgmtScript.Timeout(13, 0x1000),
                new MgmtScript.NoWait(14, new MgmtScript.EepromWrite(14, List.of(0x100), List.of(0x5A))),
                new MgmtScript.NoWait(15, new MgmtScript.Read(15, List.of(0))), new MgmtScript.Sync(16));
    }

    @Test
    void rejectsMalformedLinesWithTheirNumber() {
        String[] bad = {"port 24", "port", "dest 0x10000", "read", "read 1 2 3", "read 0x8000", "write 8", "write 8 1 9",
            "eeprom-read 1 2 3 4 5 6 7", "eeprom-write 1 256", "eeprom-write 1", "frobnicate", "wait -1", "timeout 0",
            "read 0xzz", "write 8 0x1ffffffffffffffff", "corrupt-next now", "nowait", "nowait wait 5", "nowait nowait read 8",
            "nowait read", "sync now"};
        for (String b : bad) {
            assertThatThrownBy(() -> MgmtScript.parse("port 1\n# ok\n" + b))
                    .as(b).isInstanceOf(MgmtScript.ParseException.class)
                    .satisfies(e -> assertThat(((MgmtScript.ParseException) e).line()).isEqualTo(3));
        }
    }

    @Test
    void nowaitNamesWhatItTakes() {
        assertThatThrownBy(() -> MgmtScript.parse("nowait port 3")).hasMessage(
                "line 1: nowait takes a request (read, write, eeprom-read or eeprom-write), not 'port'");
        assertThatThrownBy(() -> MgmtScript.parse("sync 1")).hasMessage("line 1: sync takes 0 arguments (got 1)");
    }
}
