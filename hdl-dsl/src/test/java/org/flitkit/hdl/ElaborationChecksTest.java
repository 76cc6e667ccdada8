package org.flitkit.hdl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import org.junit.jupiter.api.Test;

/** Every elaboration check names the signals by hierarchical name and the Java line that made them. */
class ElaborationChecksTest {
    private static final String FILE = "ElaborationChecksTest.java:";

    static final class Loop extends Module {
        final UInt out = output(UInt(8));
        final UInt a = wire(UInt(8));
        final UInt b = wire(UInt(8));

        Loop() {
            a.assign(b.add(1));
            b.assign(a.xor(lit(3, 8)));
            out.assign(b);
        }
    }

    static final class Outer extends Module {
        final Loop inner = instance(new Loop());
        final UInt o = output(UInt(8));

        Outer() {
            o.assign(inner.out);
        }
    }

    @Test
    void combinationalLoopListsTheWholeCycle() {
        assertThatThrownBy(() -> Circuit.elaborate(Outer::new))
                .isInstanceOf(HdlException.class)
                .hasMessageContaining("combinational loop")
                .hasMessageContaining("'outer.inner.a' (created at " + FILE)
                .hasMessageContaining("'outer.inner.b' (created at " + FILE)
                .hasMessageContaining("expression add")
                .hasMessageContaining("expression xor");
    }

    static final class Truncating extends Module {
        final UInt in = input(UInt(9));
        final UInt out = output(UInt(8));

        Truncating() {
            out.assign(in);
        }
    }

    @Test
    void silentTruncationIsAnError() {
        assertThatThrownBy(() -> Circuit.elaborate(Truncating::new))
                .hasMessageContaining("9-bit 'truncating.in' (created at " + FILE)
                .hasMessageContaining("does not fit 8-bit truncating.out")
                .hasMessageContaining("connect at " + FILE)
                .hasMessageContaining(".trunc(8)");
    }

    static final class ExplicitTrunc extends Module {
        final UInt in = input(UInt(9));
        final UInt out = output(UInt(8));
        final SInt s = output(SInt(8));

        ExplicitTrunc() {
            out.assign(in.trunc(8));
            s.assign(in.trunc(8).asSInt());
        }
    }

    @Test
    void explicitTruncationAndNarrowerSourcesAreFine() {
        assertThat(Circuit.elaborate(ExplicitTrunc::new).netlist().outputs()).hasSize(2);
    }

    static final class SignMix extends Module {
        final SInt in = input(SInt(4));
        final UInt out = output(UInt(8));

        SignMix() {
            out.assign(in);
        }
    }

    @Test
    void signedToUnsignedNeedsAConversion() {
        assertThatThrownBy(() -> Circuit.elaborate(SignMix::new))
                .hasMessageContaining("cannot drive UInt<8> signMix.out from SInt<4> 'signMix.in'")
                .hasMessageContaining("asUInt()");
    }

    static final class Undriven extends Module {
        final UInt out = output(UInt(4));
        final UInt w = wire(UInt(4));
        final Bool c = input(Bool());

        Undriven() {
            when(c, () -> w.assign(1));
        }
    }

    @Test
    void undrivenOutputAndPartlyDrivenWireAreBothReported() {
        assertThatThrownBy(() -> Circuit.elaborate(Undriven::new))
                .isInstanceOfSatisfying(HdlException.class, e -> assertThat(e.problems()).hasSize(2))
                .hasMessageContaining("output undriven.out (created at " + FILE)
                .hasMessageContaining("is never driven")
                .hasMessageContaining("wire undriven.w (created at " + FILE)
                .hasMessageContaining("not driven on every path");
    }

    static final class FullyDriven extends Module {
        final UInt out = output(UInt(4));
        final Bool c = input(Bool());
        final UInt d = wireDefault(UInt(4), 7);

        FullyDriven() {
            when(c, () -> out.assign(1)).otherwise(() -> out.assign(2));
            when(c, () -> d.assign(3));
        }
    }

    @Test
    void whenWithOtherwiseAndDefaultsCountAsDriven() {
        assertThat(Circuit.elaborate(FullyDriven::new).netlist().combOrder()).isNotEmpty();
    }

    static final class Leaf extends Module {
        final UInt in = input(UInt(4));
        final UInt out = output(UInt(4));
        final UInt secret = regNext(in);

        Leaf() {
            out.assign(secret);
        }
    }

    static final class Peeker extends Module {
        final Leaf leaf = instance(new Leaf());
        final UInt out = output(UInt(4));

        Peeker() {
            leaf.in.assign(3);
            out.assign(leaf.secret.add(1));
        }
    }

    @Test
    void readingAnotherModulesInternalsIsAnError() {
        assertThatThrownBy(() -> Circuit.elaborate(Peeker::new))
                .hasMessageContaining("'peeker.leaf.secret' (created at " + FILE)
                .hasMessageContaining("is used in peeker at " + FILE)
                .hasMessageContaining("only through the ports");
    }

    static final class DrivesChildOutput extends Module {
        final Leaf leaf = instance(new Leaf());
        final UInt out = output(UInt(4));

        DrivesChildOutput() {
            leaf.in.assign(1);
            leaf.out.assign(2);
            out.assign(leaf.out);
        }
    }

    @Test
    void drivingAChildOutputIsAnError() {
        assertThatThrownBy(() -> Circuit.elaborate(DrivesChildOutput::new))
                .hasMessageContaining("cannot drive drivesChildOutput.leaf.out (created at " + FILE)
                .hasMessageContaining("an output of a child instance is a source");
    }

    static final class DrivesOwnInput extends Module {
        final UInt in = input(UInt(4));
        final UInt out = output(UInt(4));

        DrivesOwnInput() {
            in.assign(1);
            out.assign(in);
        }
    }

    @Test
    void drivingOwnInputIsAnError() {
        assertThatThrownBy(() -> Circuit.elaborate(DrivesOwnInput::new))
                .hasMessageContaining("cannot drive drivesOwnInput.in (created at " + FILE)
                .hasMessageContaining("an input port cannot be driven from inside its own module");
    }

    static final class WideLiteral extends Module {
        final UInt out = output(UInt(8));

        WideLiteral() {
            out.assign(lit(300, 8));
        }
    }

    @Test
    void literalTooWideNamesTheLine() {
        assertThatThrownBy(() -> Circuit.elaborate(WideLiteral::new))
                .hasMessageContaining("literal 300 at " + FILE)
                .hasMessageContaining("does not fit in 8 bits unsigned");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            final SInt s = output(SInt(4));

            {
                s.assign(-9);
            }
        })).hasMessageContaining("value -9 at " + FILE).hasMessageContaining("range -8..7");
    }

    static final class BadIndex extends Module {
        final Vec<UInt> v = input(Vec(4, () -> UInt(8)));
        final UInt out = output(UInt(8));

        BadIndex() {
            out.assign(v.get(4));
        }
    }

    @Test
    void constantIndexOutOfRange() {
        assertThatThrownBy(() -> Circuit.elaborate(BadIndex::new))
                .hasMessageContaining("index 4 at " + FILE)
                .hasMessageContaining("out of range for Vec of 4 (badIndex.v)");
    }

    static final class BadSlice extends Module {
        final UInt in = input(UInt(8));
        final UInt out = output(UInt(8));

        BadSlice() {
            out.assign(in.bits(8, 1));
        }
    }

    @Test
    void bitSliceOutOfRange() {
        assertThatThrownBy(() -> Circuit.elaborate(BadSlice::new))
                .hasMessageContaining("bits(8, 1) at " + FILE)
                .hasMessageContaining("8-bit 'badSlice.in'");
    }

    static final class Forgotten extends Module {
        final UInt out = output(UInt(4));
        final SrcLoc newAt;

        Forgotten() {
            newAt = SrcLoc.here(); new Leaf();
            out.assign(1);
        }
    }

    @Test
    void moduleNotPassedToInstanceIsReportedAtItsNewExpression() {
        Forgotten[] top = new Forgotten[1];
        assertThatThrownBy(() -> Circuit.elaborate(() -> top[0] = new Forgotten()))
                .hasMessage("module Leaf created at " + top[0].newAt + " was never passed to instance(); write instance(new Leaf(...))");
        assertThat(top[0].newAt.toString()).startsWith(FILE);
    }

    /** A module whose no-argument constructor delegates to another, with a subclass on top. */
    static class Base extends Module {
        final UInt out;

        Base() {
            this(4);
        }

        Base(int w) {
            out = output(UInt(w));
            out.assign(0);
        }
    }

    static final class Derived extends Base {
        final UInt extra = output(UInt(2));

        Derived() {
            extra.assign(1);
        }
    }

    /** A tree of modules of one class, each level forgetting to pass its child to instance(). */
    static final class Tree extends Module {
        final UInt out = output(UInt(4));
        SrcLoc childAt;

        Tree(int depth) {
            out.assign(depth);
            if (depth > 0) {
                childAt = SrcLoc.here(); new Tree(depth - 1);
            }
        }
    }

    @Test
    void theCreationSiteSkipsSuperclassAndDelegatingConstructorsButNotAParentOfTheSameClass() {
        SrcLoc[] at = new SrcLoc[1];
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            {
                at[0] = SrcLoc.here(); new Derived();
            }
        })).hasMessageStartingWith("module Derived created at " + at[0] + " was never passed");
        Tree[] top = new Tree[1];
        assertThatThrownBy(() -> Circuit.elaborate(() -> top[0] = new Tree(1)))
                .hasMessageStartingWith("module Tree created at " + top[0].childAt + " was never passed");
    }

    static final class Compare extends Module {
        final UInt in8 = input(UInt(8));
        final SInt s8 = input(SInt(8));
        final Bool out = output(Bool());

        Compare(java.util.function.Function<Compare, Bool> cmp) {
            out.assign(cmp.apply(this));
        }
    }

    @Test
    void aConstantOutsideTheRangeOfWhatItIsComparedWithIsAnError() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> m.in8.eq(300))))
                .hasMessageStartingWith("eq(300) at " + FILE)
                .hasMessageContaining("the constant 300 needs 9 bits but 'compare.in8' (created at " + FILE)
                .hasMessageContaining(") has 8 (UInt<8>), so the comparison has the same result on every cycle");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> m.in8.ne(256)))).hasMessageStartingWith("ne(256) at ");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> m.in8.lt(1000)))).hasMessageContaining("needs 10 bits");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> m.in8.ge(lit(256, 16))))).hasMessageStartingWith("ge(256)");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> m.s8.gt(128))))
                .hasMessageContaining("the constant 128 needs 9 bits signed but 'compare.s8'").hasMessageContaining("has 8 (SInt<8>)");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> m.s8.le(-129)))).hasMessageStartingWith("le(-129) at ");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Compare(m -> {
            Bool hit = wireDefault(Bool(), 0);
            switchOn(m.in8).is(300, () -> hit.assign(1));
            return hit;
        }))).hasMessageStartingWith("eq(300) at " + FILE);
        // the extremes of each range are fine
        Circuit.elaborate(() -> new Compare(m -> m.in8.eq(255).and(m.in8.lt(0)).or(m.s8.eq(-128)).or(m.s8.ne(127))));
    }

    static final class SignedLiteral extends Module {
        final SInt out = output(SInt(8));

        SignedLiteral() {
            out.assign(slit(-3, 16));
        }
    }

    @Test
    void signedLiteralsPrintAsTheNumberWritten() {
        assertThat(slit(-3, 8).toString()).isEqualTo("SInt<8>(-3)");
        assertThat(lit(253, 8).toString()).isEqualTo("UInt<8>(0xfd)");
        assertThatThrownBy(() -> Circuit.elaborate(SignedLiteral::new))
                .hasMessageContaining("16-bit literal -3 (at " + FILE).hasMessageContaining("does not fit 8-bit signedLiteral.out");
    }

    @Test
    void typesAreNotHardware() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            final UInt out = output(UInt(4));

            {
                out.assign(UInt(4).add(1));
            }
        })).hasMessageContaining("UInt<4> created at " + FILE).hasMessageContaining("is a type, not hardware");
    }

    @Test
    void hardwareOutsideAModuleIsRejected() {
        assertThatThrownBy(() -> lit(3, 4).add(1))
                .hasMessageContaining("outside a module");
    }
}
