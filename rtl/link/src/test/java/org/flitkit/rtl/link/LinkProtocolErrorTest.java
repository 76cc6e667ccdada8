package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.testbench.Component;
import org.junit.jupiter.api.Test;

/**
 * CRC-good frames that break the protocol (forged in the cable: the error mask turns A's frame into another frame
 * with a correct CRC) are counted, only their valid parts are used, and the link carries on.
 * docs/th2-link.md, "Decisions" (protocol errors).
 */
class LinkProtocolErrorTest {

    /** Rewrites A's frame at three given cycles: CreditVC 7, an ACK 100 ahead, an unknown type. */
    static final class Forge extends Component {
        private final LinkHarness t;
        private final long start;
        int forged;

        Forge(LinkHarness t, long start) {
            super("forge");
            this.t = t;
            this.start = start;
        }

        @Override
        protected void drive() {
            BitVector f = BitVector.of(LinkFrame.BITS, sim().peekBig(t.dut.a.wireOut));
            long k = cycle() - start;
            BitVector g = null;
            if (k == 0) {
                g = f.with(LinkFrame.FRAME.CREDIT_VC, 7);
            } else if (k == 100) {
                g = f.with(LinkFrame.FRAME.ACK, (f.get(LinkFrame.FRAME.ACK) + 100) & 0xFF);
            } else if (k == 200) {
                g = f.with(LinkFrame.FRAME.TYPE, 0b100001);
            }
            if (g == null) {
                sim().poke(t.dut.errorAB, 0);
                return;
            }
            g = LinkFrame.withCrc(g);
            sim().poke(t.dut.errorAB, g.toBigInteger().xor(f.toBigInteger()));
            forged++;
        }
    }

    @Test
    void forgedFramesAreCountedAndTheLinkCarriesOn() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 61)) {
            t.waitUp(200);
            Forge forge = t.tb.add(new Forge(t, t.tb.cycle() + 50));
            t.a.traffic.budget = 600;
            t.b.traffic.budget = 600;
            t.drain(20_000);
            t.tb.finish();
            assertThat(forge.forged).isEqualTo(3);
            assertThat(t.peek(t.dut.b.status.protocolErrors)).isEqualTo(3);
            assertThat(t.peek(t.dut.a.status.protocolErrors)).isZero();
            assertThat(t.peek(t.dut.b.status.up)).isEqualTo(1);
            assertThat(t.a.toPeer.matched()).isEqualTo(600);
            assertThat(t.b.toPeer.matched()).isEqualTo(600);
            for (int v = 0; v < LinkHarness.VCS; v++) {
                assertThat(t.b.credits.receivedFromPeer[v]).as("credits for VC %d at B", v).isEqualTo(t.b.traffic.perVc[v]);
                assertThat(t.a.credits.receivedFromPeer[v]).as("credits for VC %d at A", v).isEqualTo(t.a.traffic.perVc[v]);
            }
        }
    }

    /** Pokes A's txCredit for VC 7 (the link carries 6) once, after the idle credit loop has driven it. */
    static final class BadCredit extends Component {
        private final LinkHarness t;
        private final long at;

        BadCredit(LinkHarness t, long at) {
            super("bad_credit");
            this.t = t;
            this.at = at;
        }

        @Override
        protected void drive() {
            if (cycle() == at) {
                sim().poke(t.dut.a.txCredit.bits, 7);
                sim().poke(t.dut.a.txCredit.valid, 1);
            }
        }
    }

    @Test
    void aLocalCreditForAVcTheLinkDoesNotCarryIsCountedAndIgnored() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 62)) {
            t.waitUp(200);
            t.tb.add(new BadCredit(t, t.tb.cycle() + 5));
            t.tb.run(100);
            assertThat(t.peek(t.dut.a.status.protocolErrors)).isEqualTo(1);
            assertThat(t.peek(t.dut.b.status.protocolErrors)).isZero();
            long credits = 0;
            for (long c : t.b.credits.receivedFromPeer) {
                credits += c;
            }
            assertThat(credits).isZero();
        }
    }
}
