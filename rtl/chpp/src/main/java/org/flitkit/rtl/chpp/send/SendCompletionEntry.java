package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.Entries;
import org.flitkit.rtl.chpp.receive.CompletionRing;
import org.flitkit.rtl.chpp.receive.EventMerge;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;

/**
 * Combinational formatter of send completions (paper section 4: the send completion ring; spec 30-chpp-dma.md,
 * "Engine structure"): a {@link SendCompletionEvent} becomes the 128-bit entry of formats/chpp
 * {@code CompletionLayouts.SEND} with Phase 0 (the {@link CompletionRing} sets it). docs/chpp-upload.md.
 */
public final class SendCompletionEntry extends Module {
    /** Events from the send engine's stages (descriptor extract, packer). */
    public final Decoupled<SendCompletionEvent> in;
    /** The same events as ring entries, toward an {@link EventMerge} or a {@link CompletionRing}; valid/ready pass through. */
    public final Decoupled<UInt> out;

    public SendCompletionEntry() {
        in = input(Decoupled.of(SendCompletionEvent::new));
        out = output(Decoupled.of(UInt(Entries.BITS)));
        out.valid.assign(in.valid);
        out.bits.assign(Entries.send(in.bits));
        in.ready.assign(out.ready);
    }
}
