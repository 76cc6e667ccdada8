package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.Entries;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.receive.ReceiveDispatch;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The receive engine's NAP upload (paper section 4.2, figure 13: a NAP carries no address, so its data goes to a
 * 2 KB-aligned receive buffer from buffer management, and a receive completion always follows): each accepted NAP
 * with payload takes one buffer from {@link BufferManagement} and is written there with posted writes of at most
 * Max_Payload_Size; then a receive completion (NAP, Status OK, Length, Address = the buffer). With no buffer
 * available (none held and none on its way) the data is dropped and the completion says NO_RECEIVE_BUFFER; a
 * 0-byte NAP takes no buffer (Address 0). docs/chpp-upload.md, "NapUpload".
 */
public final class NapUpload extends Module {
    public final int maxPayload;
    /** Accepted NAP packets ({@link ReceiveDispatch#napOut}): header beat, then the payload in wire order. */
    public final Decoupled<PacketBeat> in;
    /** Free receive buffers ({@link BufferManagement#out}), one taken with each NAP header that carries data. */
    public final Decoupled<UInt> buffer;
    /** {@link BufferManagement#refillPending}: while high, a NAP finding no buffer waits instead of being dropped. */
    public final Bool bufferPending;
    /** Posted writes of the payload into its buffer (16-byte beats, {@code write} 1, tag 0). */
    public final Decoupled<DmaRequest> dmaRq;
    /** Receive completion entries (formats/chpp {@code CompletionLayouts.RECEIVE}, Phase 0), one per NAP. */
    public final Decoupled<UInt> event;
    /** Saturating counters: NAPs written; write requests taken; completions posted. */
    public final UInt packets;
    public final UInt writes;
    public final UInt events;
    /** NAPs dropped for want of a buffer (each also posted NO_RECEIVE_BUFFER). */
    public final UInt noBuffer;
    /** NAPs whose beats disagreed with Length (short: the rest written as zeros; long: extra beats dropped). */
    public final UInt framingErrors;
    /** NAPs dropped for a Length above 2048 (none reach here behind {@link ReceiveDispatch}); no completion. */
    public final UInt badLength;

    public NapUpload(int maxPayload) {
        // checked before the module exists, so a bad size fails with its own message even outside elaboration
        this(PutUpload.checkPayload("NapUpload", maxPayload), true);
    }

    private NapUpload(int maxPayload, boolean checked) {
        this.maxPayload = maxPayload;
        in = input(Decoupled.of(PacketBeat::new));
        buffer = input(Decoupled.of(UInt(64)));
        bufferPending = input(Bool());
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        event = output(Decoupled.of(UInt(Entries.BITS)));
        packets = output(UInt(Counters.BITS));
        writes = output(UInt(Counters.BITS));
        events = output(UInt(Counters.BITS));
        noBuffer = output(UInt(Counters.BITS));
        framingErrors = output(UInt(Counters.BITS));
        badLength = output(UInt(Counters.BITS));

        UploadPath p = new UploadPath(true, maxPayload, in, dmaRq, event, buffer, bufferPending);
        packets.assign(Counters.count(p.packetDone, "packetCount"));
        writes.assign(Counters.count(p.writeDone, "writeCount"));
        events.assign(Counters.count(p.eventFire, "eventCount"));
        noBuffer.assign(Counters.count(p.dropped, "noBufferCount"));
        framingErrors.assign(Counters.count(p.framingError, "framingCount"));
        badLength.assign(Counters.count(p.badLength, "badLengthCount"));
    }
}
