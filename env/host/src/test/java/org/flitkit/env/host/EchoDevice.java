package org.flitkit.env.host;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * A tiny device for the {@link PcieHost} tests: a BAR write of address {@code 8 * n} with value {@code a} makes it
 * read n bytes (1..256) at {@code a} (tags 0, 1, 2, ... in turn), pack the completion beats, and write what it got
 * back at {@code a + COPY_OFFSET}, then raise an MPQ interrupt for "VP" = tag mod 64. A completion with an error
 * status makes it write the 8-byte status instead, with a completion interrupt. One request at a time.
 */
final class EchoDevice extends Module {
    static final long COPY_OFFSET = 0x10000;
    static final int MAX_BYTES = 256;
    private static final int IDLE = 0;
    private static final int READ = 1;
    private static final int WAIT = 2;
    private static final int WRITE = 3;

    final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    final Decoupled<DmaRequest> dmaRq = output(Decoupled.of(DmaRequest::new));
    final Decoupled<DmaCompletion> dmaCpl = input(Decoupled.of(DmaCompletion::new));
    final Valid<UInt> irq = output(Valid.of(UInt(8)));

    EchoDevice() {
        UInt state = regInit(UInt(2), IDLE);
        UInt src = regInit(UInt(64), 0);
        UInt len = regInit(UInt(Pcie.LEN_BITS), 0);
        UInt tag = regInit(UInt(Pcie.TAG_BITS), 0);
        UInt buf = regInit(UInt(8 * MAX_BYTES), 0);
        UInt got = regInit(UInt(9), 0);
        UInt status = regInit(UInt(Pcie.STATUS_BITS), 0);
        UInt beat = regInit(UInt(2), 0);

        mmio.ready.assign(state.eq(IDLE));
        when(mmio.fire(), () -> {
            src.assign(mmio.bits.data);
            len.assign(mmio.bits.addr.bits(Pcie.LEN_BITS + 2, 3));
            buf.assign(0);
            got.assign(0);
            status.assign(0);
            beat.assign(0);
            state.assign(READ);
        });

        Bool ok = status.eq(Pcie.SC);
        UInt beats = got.add(lit(Pcie.BEAT_BYTES - 1, 9)).shr(6);
        Bool lastBeat = mux(ok, beat.pad(9).eq(beats.sub(1)), TRUE());
        dmaRq.valid.assign(state.eq(READ).or(state.eq(WRITE)));
        dmaRq.bits.write.assign(state.eq(WRITE));
        dmaRq.bits.tag.assign(tag);
        dmaRq.bits.addr.assign(mux(state.eq(WRITE), src.add(COPY_OFFSET), src));
        dmaRq.bits.len.assign(mux(state.eq(WRITE), mux(ok, got.pad(Pcie.LEN_BITS), lit(8, Pcie.LEN_BITS)), len));
        UInt shifted = buf.shr(cat(beat, lit(0, 9)));
        dmaRq.bits.data.assign(mux(ok, shifted.bits(Pcie.BEAT_BITS - 1, 0), status.pad(Pcie.BEAT_BITS)));
        dmaRq.bits.last.assign(state.eq(READ).or(lastBeat));
        when(dmaRq.fire(), () -> {
            when(state.eq(READ), () -> state.assign(WAIT));
            when(state.eq(WRITE), () -> {
                beat.assign(beat.add(1));
                when(lastBeat, () -> {
                    state.assign(IDLE);
                    tag.assign(tag.add(1));
                });
            });
        });
        irq.valid.assign(dmaRq.fire().and(state.eq(WRITE)).and(lastBeat));
        irq.bits.assign(cat(mux(ok, lit(2, 2), lit(1, 2)), tag.bits(5, 0)));

        dmaCpl.ready.assign(state.eq(WAIT));
        when(dmaCpl.fire(), () -> {
            UInt at = cat(got, lit(0, 3));
            buf.assign(buf.or(dmaCpl.bits.data.pad(8 * MAX_BYTES).shlTrunc(at)));
            got.assign(got.add(dmaCpl.bits.bytes.pad(9)));
            when(dmaCpl.bits.status.ne(Pcie.SC), () -> status.assign(dmaCpl.bits.status));
            when(dmaCpl.bits.last, () -> state.assign(WRITE));
        });
    }
}
