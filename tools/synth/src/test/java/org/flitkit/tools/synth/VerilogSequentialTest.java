package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Registers with and without reset, nested when/switch, memories with every kind of port. */
class VerilogSequentialTest {
    static final class Seq extends Module {
        final Bool en = input(Bool());
        final UInt op = input(UInt(2));
        final UInt din = input(UInt(8));
        final UInt waddr = input(UInt(3));
        final UInt raddr = input(UInt(3));
        final Bool we = input(Bool());
        final Bool we2 = input(Bool());

        final UInt count = output(UInt(8));
        final UInt acc = output(UInt(8));
        final UInt state = output(UInt(2));
        final UInt combRd = output(UInt(8));
        final UInt syncRd = output(UInt(8));
        final UInt syncRdEn = output(UInt(8));
        final UInt plain = output(UInt(8));
        final UInt loaded = output(UInt(8));
        final UInt delayed = output(UInt(8));

        final UInt cnt = regInit(UInt(8), 0);
        final UInt accR = regInit(UInt(8), 5);
        final UInt st = regInit(UInt(2), 0);
        final UInt noReset = reg(UInt(8));
        final UInt enReg;
        final UInt next;
        final Mem<UInt> mem = mem(6, UInt(8)).init(1, 2, 3, 4, 5, 6);

        Seq() {
            when(en, () -> {
                cnt.assign(cnt.add(1));
                switchOn(op)
                        .is(0, () -> accR.assign(accR.add(din)))
                        .is(1, () -> when(din.gt(100), () -> accR.assign(0)).otherwise(() -> accR.assign(accR.sub(din))))
                        .is(2, () -> st.assign(st.add(1)))
                        .otherwise(() -> {
                            accR.assign(din);
                            st.assign(0);
                        });
            });
            noReset.assign(din.xor(cnt));
            enReg = regEnable(din, en);
            next = regNext(din.add(3), 9);
            when(we, () -> mem.write(waddr, din));
            when(we2, () -> mem.write(waddr, din.add(1)));
            combRd.assign(mem.read(raddr));
            syncRd.assign(mem.readSync(raddr));
            syncRdEn.assign(mem.readSync(raddr, en));
            count.assign(cnt);
            acc.assign(accR);
            state.assign(st);
            plain.assign(noReset);
            loaded.assign(enReg);
            delayed.assign(next);
        }
    }

    @Test
    void lintSynthCompile() {
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(Circuit.elaborate(Seq::new), "seq");
        String v = e.text("Seq");
        assertThat(e.result().topClocked()).isTrue();
        assertThat(v).contains("  input clk,\n  input reset,\n")
                .contains("always @(posedge clk) begin")
                .contains("    if (reset) begin\n      cnt <= 8'h0;\n      accR <= 8'h5;")
                .contains("reg [7:0] cnt = 8'h0;")
                .contains("reg [7:0] mem [0:5];");
        // registers without reset are assigned outside the reset branch
        assertThat(v).containsPattern("    end\n    noReset <= ");
    }

    /** Hand-written Java model of Seq. */
    static final class Model {
        long cnt, acc, st, noReset, enReg, next, sync, syncEn;
        long[] mem = {1, 2, 3, 4, 5, 6};

        Map<String, Long> outputs(long raddr) {
            Map<String, Long> o = new LinkedHashMap<>();
            o.put("count", cnt);
            o.put("acc", acc);
            o.put("state", st);
            o.put("combRd", raddr < 6 ? mem[(int) raddr] : 0);
            o.put("syncRd", sync);
            o.put("syncRdEn", syncEn);
            o.put("plain", noReset);
            o.put("loaded", enReg);
            o.put("delayed", next);
            return o;
        }

        void edge(boolean reset, long en, long op, long din, long waddr, long raddr, long we, long we2) {
            long oldCnt = cnt;
            long read = raddr < 6 ? mem[(int) raddr] : 0;
            if (reset) {
                cnt = 0;
                acc = 5;
                st = 0;
                next = 9;
            } else {
                if (en == 1) {
                    cnt = (cnt + 1) & 0xff;
                    switch ((int) op) {
                        case 0 -> acc = (acc + din) & 0xff;
                        case 1 -> acc = din > 100 ? 0 : (acc - din) & 0xff;
                        case 2 -> st = (st + 1) & 3;
                        default -> {
                            acc = din;
                            st = 0;
                        }
                    }
                }
                next = (din + 3) & 0xff;
            }
            noReset = din ^ oldCnt;
            if (en == 1) {
                enReg = din;
                syncEn = read;
            }
            sync = read;
            if (we == 1 && waddr < 6) {
                mem[(int) waddr] = din;
            }
            if (we2 == 1 && waddr < 6) {
                mem[(int) waddr] = (din + 1) & 0xff;
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"icarus", "verilator"})
    void simulatorMatchesHandModel(String simulator) {
        Circuit c = Circuit.elaborate(Seq::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emit(c, "seq-sim" + "-" + simulator);
        TbScript tb = new TbScript(e, c.top());
        Model model = new Model();
        List<Map<String, Long>> want = new ArrayList<>();
        Random rnd = new Random(42);
        // directed cycles first: read-before-write, write priority, out-of-range addresses
        long[][] directed = {
            // reset, en, op, din, waddr, raddr, we, we2
            {1, 0, 0, 0, 0, 0, 0, 0},
            {0, 1, 0, 10, 2, 2, 1, 0},
            {0, 1, 0, 20, 2, 2, 1, 1},
            {0, 0, 1, 200, 7, 2, 1, 1},
            {0, 1, 1, 200, 6, 7, 1, 0},
            {0, 1, 1, 3, 5, 6, 0, 1},
            {0, 1, 2, 0, 0, 5, 0, 0},
            {0, 1, 3, 77, 0, 0, 0, 0},
            {1, 1, 0, 1, 1, 1, 1, 1},
        };
        List<long[]> cycles = new ArrayList<>(List.of(directed));
        for (int i = 0; i < 60; i++) {
            cycles.add(new long[] {rnd.nextInt(10) == 0 ? 1 : 0, rnd.nextInt(2), rnd.nextInt(4), rnd.nextInt(256),
                rnd.nextInt(8), rnd.nextInt(8), rnd.nextInt(2), rnd.nextInt(2)});
        }
        String[] ins = {"en", "op", "din", "waddr", "raddr", "we", "we2"};
        for (long[] cy : cycles) {
            tb.reset(cy[0] == 1);
            for (int i = 0; i < ins.length; i++) {
                tb.poke(ins[i], cy[i + 1]);
            }
            tb.sample().step();
            want.add(model.outputs(cy[5]));
            model.edge(cy[0] == 1, cy[1], cy[2], cy[3], cy[4], cy[5], cy[6], cy[7]);
        }
        List<Map<String, BigInteger>> got = tb.run(simulator);
        for (int k = 0; k < want.size(); k++) {
            Map<String, Long> actual = new LinkedHashMap<>();
            for (String name : want.get(k).keySet()) {
                actual.put(name, got.get(k).get(name).longValueExact());
            }
            assertThat(actual).as("cycle %d", k).isEqualTo(want.get(k));
        }
    }
}
