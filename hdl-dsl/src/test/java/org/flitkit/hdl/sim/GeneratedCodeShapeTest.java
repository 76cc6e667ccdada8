package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;
import org.flitkit.hdl.lib.SkidBuffer;

/**
 * What the generated simulator looks like where it decides speed: selects over a constant zero, selects
 * nested under the same condition, CRC equations, packets moved through selects into registers, and
 * constants (docs/simulator.md, "Other code generation details").
 */
class GeneratedCodeShapeTest {
    /** Three values written under conditions over a default of zero, as a decoder or a packet builder does. */
    public static final class Decode extends Module {
        public final UInt sel = input(UInt(2));
        public final UInt a = input(UInt(16));
        public final UInt b = input(UInt(16));
        public final UInt out = output(UInt(16));
        public final UInt held = output(UInt(16));

        public Decode() {
            UInt r = regInit(UInt(16), 0);
            UInt w = wire(UInt(16));
            w.assign(0);
            when(sel.eq(1), () -> w.assign(a)).elsewhen(sel.eq(2), () -> w.assign(b));
            r.assign(0);
            when(sel.eq(3), () -> r.assign(a.xor(b)));
            out.assign(w);
            held.assign(r);
        }
    }

    @Test
    void aSelectWithAZeroArmIsAMaskNotAnXorChain() {
        Simulator sim = Simulator.of(Decode::new);
        String src = sim.generatedSource();
        assertThat(src).doesNotContain("0x0L ^").doesNotContain("^ 0x0L");
        sim.reset();
        int[][] cases = {{0, 0}, {1, 0x1234}, {2, 0xABCD}, {3, 0}};
        for (int[] c : cases) {
            sim.poke("decode.sel", c[0]);
            sim.poke("decode.a", 0x1234);
            sim.poke("decode.b", 0xABCD);
            assertThat(sim.peek("decode.out")).as("sel=%d", c[0]).isEqualTo(c[1]);
            sim.step();
        }
        assertThat(sim.peek("decode.held")).isEqualTo(0x1234 ^ 0xABCD);
        sim.poke("decode.sel", 0);
        sim.step();
        assertThat(sim.peek("decode.held")).isZero();
    }

    /**
     * Registers written under nested conditions that test the same selects again (as when/otherwise
     * chains and the skid buffer do): inside an arm the select is known, so the inner tests fold.
     */
    public static final class Nested extends Module {
        public final Bool a = input(Bool());
        public final Bool b = input(Bool());
        public final UInt x = input(UInt(4));
        public final UInt y = input(UInt(4));
        public final Bool flag = output(Bool());
        public final UInt data = output(UInt(4));
        public final Bool mixed = output(Bool());

        public Nested() {
            Bool f = regInit(Bool(), 0);
            UInt d = regInit(UInt(4), 0);
            when(a, () -> {
                when(f, () -> f.assign(0)).otherwise(() -> f.assign(b));
                when(a, () -> d.assign(x)).otherwise(() -> d.assign(y));
            }).elsewhen(b, () -> {
                when(a, () -> d.assign(y)).otherwise(() -> d.assign(x.add(1)));
                when(b.not(), () -> f.assign(1)).otherwise(() -> f.assign(f.not()));
            });
            flag.assign(f);
            data.assign(d);
            // a 1-bit select with a constant arm on either side, and equal arms
            mixed.assign(mux(a, TRUE(), mux(b, f, TRUE())).and(mux(f, b, b)));
        }
    }

    @Test
    void nestedSelectsOnTheSameConditionFoldAndStayExact() {
        Simulator sim = Simulator.of(Nested::new);
        sim.reset();
        boolean f = false;
        int d = 0;
        // every input combination from every reachable state, against the same rules written in Java
        for (int round = 0; round < 4; round++) {
            for (int in = 0; in < 1024; in++) {
                boolean a = (in & 1) != 0;
                boolean b = (in & 2) != 0;
                int x = (in >>> 2) & 15;
                int y = ((in >>> 6) * 5 + round) & 15;
                sim.poke("nested.a", a ? 1 : 0);
                sim.poke("nested.b", b ? 1 : 0);
                sim.poke("nested.x", x);
                sim.poke("nested.y", y);
                assertThat(sim.peek("nested.mixed")).as("mixed, in=%d", in).isEqualTo((a || !b || f) && b ? 1 : 0);
                sim.step();
                if (a) {
                    f = !f && b;
                    d = x;
                } else if (b) {
                    d = (x + 1) & 15;
                    f = !f;
                }
                assertThat(sim.peek("nested.flag")).as("flag, in=%d", in).isEqualTo(f ? 1 : 0);
                assertThat(sim.peek("nested.data")).as("data, in=%d", in).isEqualTo(d);
            }
        }
    }

    /** A stage of a skid-buffer chain, as in the relay-chain benchmark. */
    public static final class Chain extends Module {
        public final UInt out = output(UInt(8));

        public Chain() {
            SkidBuffer s0 = instance(new SkidBuffer(8));
            SkidBuffer s1 = instance(new SkidBuffer(8));
            UInt src = regInit(UInt(8), 1);
            s0.in.valid.assign(1);
            s0.in.bits.assign(src);
            when(s0.in.ready, () -> src.assign(src.add(3)));
            s1.in.connect(s0.out);
            UInt tick = regInit(UInt(3), 0);
            tick.assign(tick.add(1));
            s1.out.ready.assign(tick.bit(0).or(tick.bit(2)));
            UInt sum = regInit(UInt(8), 0);
            when(s1.out.valid.and(s1.out.ready), () -> sum.assign(sum.add(s1.out.bits)));
            out.assign(sum);
        }
    }

    @Test
    void aSkidBufferHasNoBranches() {
        // its next state is selects of selects on handshakes, which mispredict as branches; with the
        // known selects folded, every one is an AND/OR/XOR mask
        Simulator sim = Simulator.of(Chain::new);
        assertThat(sim.generatedSource()).doesNotContain(" != 0L ?");
        sim.reset();
        sim.step(1000);
        Simulator off = Simulator.of(Chain::new);
        off.setActivitySkipping(false);
        off.reset();
        for (int i = 0; i < 1000; i++) {
            off.step();
        }
        assertThat(sim.peek("chain.out")).isEqualTo(off.peek("chain.out")).isNotZero();
    }

    /** Fields of a 200-bit value read at constant positions, some across a 64-bit limb boundary. */
    public static final class Fields extends Module {
        static final int[][] FIELDS = {{0, 8}, {60, 8}, {64, 64}, {100, 40}, {127, 2}, {136, 64}, {190, 10}, {57, 64}};
        public final UInt in = input(UInt(200));
        public final UInt[] out = new UInt[FIELDS.length];

        public Fields() {
            for (int i = 0; i < FIELDS.length; i++) {
                out[i] = output(UInt(FIELDS[i][1]));
                out[i].assign(in.bits(FIELDS[i][0] + FIELDS[i][1] - 1, FIELDS[i][0]));
            }
        }
    }

    @Test
    void wideFieldReadsAreWrittenOutExactly() {
        Simulator sim = Simulator.of(Fields::new);
        // the reads are limb loads, shifts and masks in the generated code, not calls
        assertThat(sim.generatedSource()).doesNotContain("Wide.extract(");
        Fields f = (Fields) sim.circuit().top();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(26);
        for (int k = 0; k < 200; k++) {
            java.math.BigInteger v = new java.math.BigInteger(200, new java.util.Random(rnd.nextLong()));
            sim.poke(f.in, v);
            for (int i = 0; i < Fields.FIELDS.length; i++) {
                int lo = Fields.FIELDS[i][0];
                int w = Fields.FIELDS[i][1];
                java.math.BigInteger expected = v.shiftRight(lo).and(java.math.BigInteger.ONE.shiftLeft(w).subtract(java.math.BigInteger.ONE));
                assertThat(sim.peekBig(f.out[i])).as("bits %d..%d of %s", lo, lo + w - 1, v.toString(16)).isEqualTo(expected);
            }
            sim.step();
        }
    }

    /** A 32-bit CRC of a 300-bit value written as the NMA's Crc32cHw writes its own: parities of masked copies, some inverted. */
    public static final class Crc extends Module {
        static final int WIDTH = 300;
        static final BigInteger[] MASKS = new BigInteger[32];
        static final long CONSTANT = 0x9b4f_12c3L;

        static {
            java.util.Random r = new java.util.Random(1126);
            for (int i = 0; i < 32; i++) {
                MASKS[i] = new BigInteger(WIDTH, r);
            }
        }

        public final UInt in = input(UInt(WIDTH));
        public final UInt out = output(UInt(32));

        public Crc() {
            Bits[] msbFirst = new Bits[32];
            for (int i = 0; i < 32; i++) {
                Bits b = in.and(lit(MASKS[i], WIDTH)).xorR();
                msbFirst[31 - i] = (CONSTANT >>> i & 1) != 0 ? b.asUInt().not() : b;
            }
            out.assign(cat(msbFirst));
        }

        static long expected(BigInteger x) {
            long c = 0;
            for (int i = 0; i < 32; i++) {
                c |= (long) (x.and(MASKS[i]).bitCount() & 1) << i;
            }
            return c ^ CONSTANT;
        }
    }

    @Test
    void crcEquationsAreOneTableLookupPerInputByte() {
        Simulator sim = Simulator.of(Crc::new);
        assertThat(sim.generatedSource()).contains("LinearMaps.apply(").doesNotContain("andParity");
        Crc c = (Crc) sim.circuit().top();
        java.util.Random r = new java.util.Random(26);
        for (int k = 0; k < 500; k++) {
            // single bits too: each input bit must flip exactly its own column
            BigInteger x = k < Crc.WIDTH ? BigInteger.ONE.shiftLeft(k) : new BigInteger(Crc.WIDTH, r);
            sim.poke(c.in, x);
            sim.step();
            assertThat(sim.peek(c.out)).as("CRC of %s", x.toString(16)).isEqualTo(Crc.expected(x));
        }
    }

    /** A 321-bit value plus its low 300 bits: the slice, computed in place, is zero-extended to 322 bits. */
    public static final class SliceSum extends Module {
        public final UInt in = input(UInt(321));
        public final UInt out = output(UInt(322));

        public SliceSum() {
            out.assign(in.addW(in.trunc(300)));
        }
    }

    @Test
    void aSliceComputedInPlaceIsZeroAboveItsWidthWherePadded() {
        Simulator sim = Simulator.of(SliceSum::new);
        SliceSum s = (SliceSum) sim.circuit().top();
        java.util.Random r = new java.util.Random(20261126401L);
        BigInteger low = BigInteger.ONE.shiftLeft(300).subtract(BigInteger.ONE);
        for (int k = 0; k < 200; k++) {
            // the top bit set half of the time: limb 5 of the input is what a slice must not pass on
            BigInteger x = new BigInteger(321, r);
            sim.poke(s.in, x);
            sim.step();
            assertThat(sim.peekBig(s.out)).as("in %s", x.toString(16)).isEqualTo(x.add(x.and(low)));
        }
    }

    /**
     * A 300-bit register loaded, shifted down by a limb or by 6 bits with zeros coming in, or held:
     * selects of a zero-extended slice and of a shift, as a serializer moves a packet. With {@code auto}
     * the operation is the cycle count since reset modulo 4, so runs of unobserved cycles go through
     * all four.
     */
    public static final class Shifter extends Module {
        public final UInt op = input(UInt(2));
        public final Bool auto = input(Bool());
        public final UInt in = input(UInt(300));
        public final UInt out = output(UInt(300));

        public Shifter() {
            UInt turn = regInit(UInt(2), 0);
            turn.assign(turn.add(1));
            UInt o = mux(auto, turn, op);
            UInt r = regInit(UInt(300), 0);
            r.assign(mux(o.eq(1), in, mux(o.eq(2), r.bits(299, 64).pad(300), mux(o.eq(3), r.shr(6), r))));
            out.assign(r);
        }

        static BigInteger apply(int op, BigInteger r, BigInteger in) {
            return op == 1 ? in : op == 2 ? r.shiftRight(64) : op == 3 ? r.shiftRight(6) : r;
        }
    }

    @Test
    void aPacketThroughSelectsIntoARegisterIsWrittenOnce() {
        Simulator sim = Simulator.of(Shifter::new);
        // no wide intermediate is stored: the selects are an if/else chain writing the next value once
        assertThat(sim.generatedSource()).doesNotContainPattern("[^x]w\\[\\d+\\] = ").contains("} else if (");
        Shifter s = (Shifter) sim.circuit().top();
        java.util.Random r = new java.util.Random(1126);
        BigInteger model = BigInteger.ZERO;
        sim.reset();
        int k = 0;
        for (; k < 2000; k++) {
            int op = r.nextInt(4);
            BigInteger x = new BigInteger(300, r);
            sim.poke(s.op, op);
            sim.poke(s.in, x);
            sim.step();
            model = Shifter.apply(op, model, x);
            assertThat(sim.peekBig(s.out)).as("cycle %d, op %d", k, op).isEqualTo(model);
        }
        // runs of cycles nobody observes (the fast variant, whose arm that holds stores nothing), a new
        // input between them; each run loads, shifts and holds in turn
        sim.poke(s.auto, true);
        for (int run = 0; run < 300; run++) {
            BigInteger x = new BigInteger(300, r);
            sim.poke(s.in, x);
            int n = 1 + r.nextInt(40);
            sim.step(n);
            for (int i = 0; i < n; i++, k++) {
                model = Shifter.apply(k & 3, model, x);
            }
            assertThat(sim.peekBig(s.out)).as("run %d of %d cycles, to cycle %d", run, n, k).isEqualTo(model);
        }
    }

    /** Five flits, one chosen by one-hot grants into a register (an arbiter's output stage), and a bitwise mix of three. */
    public static final class OneHotFlits extends Module {
        public final UInt grant = input(UInt(5));
        public final List<UInt> flits = List.of(input(UInt(198)), input(UInt(198)), input(UInt(198)), input(UInt(198)), input(UInt(198)));
        public final UInt out = output(UInt(198));
        public final UInt mixed = output(UInt(198));

        public OneHotFlits() {
            UInt r = regInit(UInt(198), 0);
            List<Bool> sels = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                sels.add(grant.bit(i));
            }
            r.assign(Mux1H(sels, flits));
            out.assign(r);
            mixed.assign(flits.get(0).xor(flits.get(1)).and(flits.get(2)).or(flits.get(3).and(lit(0xF0F0, 198))));
        }
    }

    /**
     * A one-hot select of wide values is an OR of selects with a zero arm: computed limb by limb in place, one
     * expression per limb, with no stored temporaries and no {@code Wide} calls; bitwise operations of wide values of
     * one width too.
     */
    @Test
    void aOneHotSelectOfFlitsIsOneExpressionPerLimb() {
        Simulator sim = Simulator.of(OneHotFlits::new);
        OneHotFlits d = (OneHotFlits) sim.circuit().top();
        assertThat(sim.generatedSource()).doesNotContain("Wide.or(").doesNotContain("Wide.and(").doesNotContain("Wide.xor(");
        java.util.Random rnd = new java.util.Random(11);
        BigInteger mask = BigInteger.ONE.shiftLeft(198).subtract(BigInteger.ONE);
        sim.reset();
        BigInteger[] f = new BigInteger[5];
        for (int cycle = 0; cycle < 300; cycle++) {
            for (int i = 0; i < 5; i++) {
                f[i] = new BigInteger(198, rnd);
                sim.poke(d.flits.get(i), f[i]);
            }
            int g = rnd.nextInt(6);
            sim.poke(d.grant, g == 5 ? 0 : 1 << g);
            assertThat(sim.peekBig(d.mixed)).as("cycle %d", cycle)
                    .isEqualTo(f[0].xor(f[1]).and(f[2]).or(f[3].and(BigInteger.valueOf(0xF0F0))).and(mask));
            sim.step();
            assertThat(sim.peekBig(d.out)).as("cycle %d", cycle).isEqualTo(g == 5 ? BigInteger.ZERO : f[g]);
        }
        // unobserved runs (the fast and plain variants) take the granted flit too
        sim.poke(d.grant, 1 << 3);
        sim.step(5000);
        assertThat(sim.peekBig(d.out)).isEqualTo(f[3]);
    }
}
