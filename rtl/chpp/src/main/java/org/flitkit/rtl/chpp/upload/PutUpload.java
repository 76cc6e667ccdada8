package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.Entries;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.receive.ReceiveDispatch;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The receive engine's PUT upload (paper section 4.2, figure 13: PUT packets split into PCIe memory writes within
 * the protocol's size and alignment rules; a receive completion when the packet's flag asks): the payload of each
 * accepted PUT is written at the header's Address with posted writes of at most Max_Payload_Size, cut at its
 * address boundaries (so never across 4 KB), data packed from the first byte; with S_Flag CE a receive completion
 * (Status OK, Length and Address of the packet) follows the last write request. The header-only end of a failed GET
 * answer (Length 0, CE+LAST+RESP) writes nothing and posts Status GET_FAILED at its Address. docs/chpp-upload.md,
 * "PutUpload".
 */
public final class PutUpload extends Module {
    /** PCIe Max_Payload_Size values this block can be built for. */
    public static final int MIN_PAYLOAD = 128;
    public static final int MAX_PAYLOAD = 4096;

    public final int maxPayload;
    /** Accepted PUT packets ({@link ReceiveDispatch#putOut}): header beat, then the payload in wire order. */
    public final Decoupled<PacketBeat> in;
    /** Posted writes of the payload (16-byte beats, {@code write} 1, tag 0). */
    public final Decoupled<DmaRequest> dmaRq;
    /** Receive completion entries (formats/chpp {@code CompletionLayouts.RECEIVE}, Phase 0) for PUTs with CE. */
    public final Decoupled<UInt> event;
    /** Saturating counters: packets written; write requests taken; completions posted. */
    public final UInt packets;
    public final UInt writes;
    public final UInt events;
    /** Packets whose beats disagreed with Length (short: the rest written as zeros; long: extra beats dropped). */
    public final UInt framingErrors;
    /**
     * Packets dropped for a Length above 4096, or of 0 without S_Flag CE+LAST+RESP (none reach here behind
     * {@link ReceiveDispatch}).
     */
    public final UInt badLength;
    /**
     * Failed GET answers: header-only PUTs with S_Flag CE+LAST+RESP, which write nothing and post a GET_FAILED
     * receive completion at their Address (counted in {@link #packets} too).
     */
    public final UInt failedAnswers;

    public PutUpload(int maxPayload) {
        // checked before the module exists, so a bad size fails with its own message even outside elaboration
        this(PutUpload.checkPayload("PutUpload", maxPayload), true);
    }

    private PutUpload(int maxPayload, boolean checked) {
        this.maxPayload = maxPayload;
        in = input(Decoupled.of(PacketBeat::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        event = output(Decoupled.of(UInt(Entries.BITS)));
        packets = output(UInt(Counters.BITS));
        writes = output(UInt(Counters.BITS));
        events = output(UInt(Counters.BITS));
        framingErrors = output(UInt(Counters.BITS));
        badLength = output(UInt(Counters.BITS));
        failedAnswers = output(UInt(Counters.BITS));

        UploadPath p = new UploadPath(false, maxPayload, in, dmaRq, event, null, null);
        packets.assign(Counters.count(p.packetDone, "packetCount"));
        writes.assign(Counters.count(p.writeDone, "writeCount"));
        events.assign(Counters.count(p.eventFire, "eventCount"));
        framingErrors.assign(Counters.count(p.framingError, "framingCount"));
        badLength.assign(Counters.count(p.badLength, "badLengthCount"));
        failedAnswers.assign(Counters.count(p.failedAnswerDone, "failedAnswerCount"));
    }

    static int checkPayload(String block, int maxPayload) {
        if (maxPayload < MIN_PAYLOAD || maxPayload > MAX_PAYLOAD || Integer.bitCount(maxPayload) != 1) {
            throw new IllegalArgumentException(block + ": maxPayload must be a PCIe Max_Payload_Size (a power of two "
                    + MIN_PAYLOAD + ".." + MAX_PAYLOAD + " bytes), got " + maxPayload);
        }
        return maxPayload;
    }
}
