package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.ChipType;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.IdentityWord;
import org.junit.jupiter.api.Test;

/** A LinkLayer behind the NMA's per-port registers (PortStatus words, BIST_CTRL). docs/th2-link.md, "Registers". */
class LinkRegistersTest {

    /** Two link layers A and B back to back (1-cycle wires); A's status as PortStatus, A's BIST from a BIST_CTRL word. */
    static final class Harness extends Module {
        final UInt bistCtrl = input(UInt(64));
        final PortStatus ps = output(new PortStatus());
        final BistResult peerBist = output(new BistResult());
        final BistResult ownBist = output(new BistResult());

        Harness() {
            LinkLayer a = instance("a", new LinkLayer());
            LinkLayer b = instance("b", new LinkLayer());
            a.wireIn.assign(regNext(b.wireOut, 0));
            b.wireIn.assign(regNext(a.wireOut, 0));
            for (LinkLayer l : new LinkLayer[] {a, b}) {
                l.txFlit.valid.assign(FALSE());
                l.txFlit.bits.assign(0);
                l.txCredit.valid.assign(FALSE());
                l.txCredit.bits.assign(0);
                l.port.assign(l == a ? 2 : 9);
                l.chipId.assign(l == a ? 0x0101 : 0x0202);
                l.chipType.assign(l == a ? 1 : 0);
            }
            LinkRegisters.bistControl(a.bist, bistCtrl);
            b.bist.start.assign(FALSE());
            b.bist.stop.assign(FALSE());
            b.bist.duration.assign(0);
            b.bist.interval.assign(0);
            LinkRegisters.portStatus(ps, a.status, a.bistResult);
            peerBist.connect(b.bistResult);
            ownBist.connect(a.bistResult);
        }
    }

    @Test
    void statusWordsAndBistControlFollowTheRegisterLayouts() {
        Simulator sim = Simulator.of(Harness::new);
        Harness h = (Harness) sim.circuit().top();
        sim.reset(2);
        sim.step(40);
        // all 8 lanes received well both ways [31:24], [23:16]; width 8 [11:8]; up [0]
        assertThat(sim.peek(h.ps.linkStatus)).isEqualTo(0xFFL << 24 | 0xFF << 16 | 8 << 8 | 1);
        assertThat(sim.peek(h.ps.handshakeCount)).isEqualTo(1);
        assertThat(sim.peek(h.ps.retryCount)).isZero();
        assertThat(sim.peek(h.ps.neighbour)).isEqualTo(IdentityWord.of(ChipType.NIC, 0x0202, 9));
        assertThat(sim.peek(h.ps.bistResult)).isZero();
        // BIST_CTRL: start, one frame in 2, 100 frames
        sim.poke(h.bistCtrl, 100L << 16 | 2 << 8 | 1);
        sim.step(5);
        assertThat(sim.peek(h.ps.bistResult) & 0b11).isEqualTo(0b10);
        sim.step(300);
        assertThat(sim.peek(h.ps.bistResult) & 0b111).isEqualTo(0b001);
        assertThat(sim.peek(h.peerBist.framesTested)).isEqualTo(100);
        // start again (0 then 1), unbounded; clearing bit 0 stops it
        sim.poke(h.bistCtrl, 0);
        sim.step(2);
        sim.poke(h.bistCtrl, 1);
        sim.step(50);
        assertThat(sim.peek(h.ps.bistResult) & 0b11).isEqualTo(0b10);
        sim.poke(h.bistCtrl, 0);
        sim.step(10);
        assertThat(sim.peek(h.ps.bistResult) & 0b11).isEqualTo(0b01);
        // the start edge is seen one cycle after the write, the stop edge likewise: 50 slots, one frame each
        assertThat(sim.peek(h.ownBist.framesSent)).isEqualTo(50);
        assertThat(sim.peek(h.peerBist.framesTested)).isEqualTo(50);
        assertThat(sim.peek(h.peerBist.erroredFrames)).isZero();
    }
}
