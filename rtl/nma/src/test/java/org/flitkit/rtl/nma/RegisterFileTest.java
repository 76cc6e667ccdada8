package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link RegisterFile} on its RegBus (RW, RO, W1C, unmapped), the definition checks and the printed map. */
@ExtendWith(TestbenchExtension.class)
class RegisterFileTest {
    static final List<RegDef> DEFS = List.of(
            RegDef.rw("CTRL", 0x10, 0x1234, "rw"),
            RegDef.ro("STATUS", 0x11, "ro"),
            RegDef.w1c("PENDING", 0x12, "w1c"));

    Testbench<RegisterFile> tb;
    Simulator sim;
    RegisterFile rf;

    Testbench<RegisterFile> start(RunConfig cfg) {
        tb = Testbench.create(() -> new RegisterFile(12, DEFS), cfg);
        sim = tb.sim();
        rf = tb.dut();
        tb.reset(1);
        return tb;
    }

    long read(int addr) {
        sim.poke(rf.bus.addr, addr);
        sim.poke(rf.bus.read, 1);
        long v = sim.peek(rf.bus.rdata);
        tb.run(1);
        sim.poke(rf.bus.read, 0);
        return v;
    }

    boolean write(int addr, long v) {
        sim.poke(rf.bus.addr, addr);
        sim.poke(rf.bus.wdata, new BigInteger(Long.toUnsignedString(v)));
        sim.poke(rf.bus.write, 1);
        boolean err = sim.peekBool(rf.bus.error);
        tb.run(1);
        sim.poke(rf.bus.write, 0);
        return err;
    }

    @Test
    void rwRoW1cBehaveAndErrorsChangeNothing(RunConfig cfg) {
        try (Testbench<RegisterFile> t = start(cfg)) {
            assertThat(read(0x10)).isEqualTo(0x1234);
            assertThat(write(0x10, -1L)).isFalse();
            assertThat(read(0x10)).isEqualTo(-1L);
            assertThat(sim.peek(rf.value("CTRL"))).isEqualTo(-1L);

            sim.poke(rf.hw("STATUS"), 0x55);
            assertThat(read(0x11)).isEqualTo(0x55);
            sim.poke(rf.bus.addr, 0x11);
            assertThat(sim.peekBool(rf.bus.readOnly)).isTrue();
            assertThat(sim.peekBool(rf.bus.error)).as("reading RO is fine").isFalse();
            assertThat(write(0x11, 1)).as("writing RO is an error").isTrue();

            sim.poke(rf.hw("PENDING"), 0b0110);
            tb.run(1);
            sim.poke(rf.hw("PENDING"), 0b1000);
            assertThat(write(0x12, 0b1100)).as("set wins over clear in the same cycle").isFalse();
            sim.poke(rf.hw("PENDING"), 0);
            assertThat(read(0x12)).isEqualTo(0b1010);
            assertThat(write(0x12, 0b0010)).isFalse();
            assertThat(read(0x12)).isEqualTo(0b1000);

            sim.poke(rf.bus.addr, 0x13);
            assertThat(sim.peekBool(rf.bus.error)).as("unmapped").isTrue();
            assertThat(sim.peekBool(rf.bus.readOnly)).isFalse();
            assertThat(write(0x13, 7)).isTrue();
            assertThat(read(0x10)).isEqualTo(-1L);
        }
    }

    @Test
    void definitionsAreCheckedAndTheMapPrints() {
        assertThatThrownBy(() -> RegisterFile.check(12, List.of(RegDef.rw("A", 1, 0, ""), RegDef.rw("B", 1, 0, ""))))
                .hasMessageContaining("share address 0x0001");
        assertThatThrownBy(() -> RegisterFile.check(12, List.of(RegDef.rw("A", 1, 0, ""), RegDef.ro("A", 2, ""))))
                .hasMessageContaining("defined twice");
        assertThatThrownBy(() -> RegisterFile.check(12, List.of(RegDef.rw("A", 0x1000, 0, ""))))
                .hasMessageContaining("does not fit a 12-bit address");
        assertThatThrownBy(() -> RegDef.bank("PORT", 0x400, 0x10, 2, List.of(RegDef.ro("X", 0x10, ""))))
                .hasMessageContaining("stride");
        assertThatThrownBy(() -> new RegDef("lower", 0, RegDef.Access.RW, 0, "")).hasMessageContaining("UPPER_SNAKE_CASE");
        assertThat(RegisterFile.map(12, DEFS)).isEqualTo(
                "CTRL 0x0010 RW reset=0x1234\nSTATUS 0x0011 RO reset=0x0\nPENDING 0x0012 W1C reset=0x0\n");
        List<RegDef> banks = NmaRegisters.portBanks(24);
        assertThat(banks).hasSize(24 * NmaRegisters.portTemplate().size());
        assertThat(banks).contains(RegDef.ro("PORT23_NEIGHBOUR", 0x400 + 23 * 0x10 + 1,
                NmaRegisters.portTemplate().get(1).description()).withFields(NmaRegisters.IDENTITY));
        String nrc = NmaDoc.regmap(org.flitkit.formats.th2.ChipType.NRC);
        assertThat(nrc).contains("CHIP_ID 0x0000 RW reset=0xFFFF\n", "SCRATCH0 0x0008 RW reset=0x0\n",
                "NMP_CRC_ERRORS 0x0021 RO reset=0x0\n", "PORT23_BIST_RESULT 0x0579 RO reset=0x0\n");
        assertThat(NmaDoc.regmap(org.flitkit.formats.th2.ChipType.NIC)).doesNotContain("PORT1_");
        assertThatThrownBy(() -> NmaRegisters.common(NmaRegisters.MAX_FAULTS + 1)).hasMessageContaining("fault count");
        assertThat(NmaRegisters.common(65).stream().map(RegDef::name)).contains("FAULT_PENDING0", "FAULT_PENDING1");
    }

    @Test
    void identityWordMatchesBetweenSoftwareAndHardware() {
        long w = NmaRegisters.identity(org.flitkit.formats.th2.ChipType.NRC, 0xBEEF, 17);
        assertThat(w).isEqualTo(1L << 32 | 0xBEEFL << 16 | 17L << 8 | 1);
    }

    /** A register's fields split a value the way its description says, highest first, and list as regmap --fields prints them. */
    @Test
    void fieldsDecodeValuesAndListForTheMap() {
        RegDef neighbour = NmaRegisters.portBanks(24).stream().filter(d -> d.name().equals("PORT7_NEIGHBOUR")).findFirst().orElseThrow();
        long w = NmaRegisters.identity(org.flitkit.formats.th2.ChipType.NRC, 0x42, 5);
        assertThat(neighbour.decode(w)).isEqualTo("valid=1,chip_id=0x42,port=5,chip_type=1");
        RegDef dest = NmaRegisters.common(8).stream().filter(d -> d.name().equals(NmaRegisters.REPORT_DEST)).findFirst().orElseThrow();
        assertThat(dest.decode(0x1_2B_0001L)).isEqualTo("rint=1,dest_vp=0x2b,dest_id=1");
        assertThat(dest.fieldLines()).containsExactly(
                "  [24]      rint             Rint: interrupt the server on arrival",
                "  [21:16]   dest_vp          DestVP: the VP whose MPQ receives them",
                "  [15:0]    dest_id          DestID of fault reports (the management server's NIC)");
        RegDef scratch = NmaRegisters.common(8).stream().filter(d -> d.name().equals(NmaRegisters.SCRATCH0)).findFirst().orElseThrow();
        assertThat(scratch.decode(0x1234)).isEmpty();
        assertThat(scratch.fieldLines()).isEmpty();
        assertThat(RegisterFile.map(12, List.of(dest), true)).isEqualTo(dest.mapLine() + "\n" + String.join("\n", dest.fieldLines()) + "\n");
        assertThatThrownBy(() -> scratch.withFields(org.flitkit.formats.core.Layout.builder("x", 32).field("a", 0, 4, "").build()))
                .hasMessageContaining("not 64");
    }
}
