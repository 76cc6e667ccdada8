package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.fromBools;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The send engine's data-reorder stage (paper 4.1, data reorder: one source segment needs several reads, one read
 * returns several completions; reorder into what the packer wants): owns the reorder buffer (16 byte lanes, each
 * transfer starting on a 16-byte row) and the read slots in issue order, and hands each transfer's bytes on in
 * order as {@link DataBeat}s as soon as whole rows are in, or one error beat when a read of it failed; it frees
 * buffer space and slots as it goes. docs/chpp-data-stages.md.
 */
public final class DataReorder extends Module {
    /** Most read slots (entries of the reorder order). */
    public static final int MAX_SLOTS = 1 << DataReadIssue.SLOT_BITS;
    /** Largest reorder buffer: 64 KB (positions of {@link DataReadIssue#POS_BITS} bits with the wrap bit). */
    public static final int MAX_BYTES = 1 << (DataReadIssue.POS_BITS - 1);
    /** The default buffer: 4 KB, or two max-size reads if Max_Read_Request_Size is larger (docs, decisions). */
    public static final int DEFAULT_BYTES = 4096;

    public final ChppParams params;
    public final SendEngineParams sendParams;
    /** Reorder-buffer bytes. */
    public final int bufferBytes;
    /** Read slots. */
    public final int slotCount;
    /** Reads and markers as {@link DataRead} issues them (slot order = byte order). */
    public final Valid<DataReadIssue> issued;
    /** Completion bytes into the buffer, from {@link DataExtract#write}. */
    public final Valid<RingWrite> write;
    /** Completion progress per slot, from {@link DataExtract#progress}. */
    public final Valid<ReadProgress> progress;
    /** The slot whose read timed out, from {@link DataExtract#timedOutSlot}. */
    public final Valid<UInt> timedOutSlot;
    /** Transfers' bytes in order, 16 per beat (only a transfer's last beat short), or one error beat. */
    public final Decoupled<DataBeat> out;
    /** Oldest slot still in use (with wrap bit): {@link DataRead} may fill slots up to head + slots. */
    public final UInt head;
    /** Buffer byte position (with wrap bit) of the next row to hand on: bytes from here on are reserved. */
    public final UInt readPtr;
    /** {@link DataRead}'s current transfer sequence number. */
    public final UInt issueSeq;
    /** A read of the transfer {@link DataRead} is issuing has failed: stop reading for it. */
    public final Bool abort;
    /** Transfers handed on whole / ended by an error beat (saturating). */
    public final UInt transfersDone;
    public final UInt transfersFailed;

    /** A read slot, in issue order: where the read's bytes go, how many have arrived, how it ended. */
    static final class ReadSlot extends Bundle {
        public final Bool used = Bool();
        public final UInt pos;
        public final UInt len = UInt(13);
        public final UInt recv = UInt(13);
        public final Bool done = Bool();
        public final UInt status = UInt(8);
        public final Bool last = Bool();
        public final UInt seq = UInt(8);

        ReadSlot(int posBits) {
            pos = UInt(posBits);
        }
    }

    public DataReorder(ChppParams p, SendEngineParams sp) {
        this(p, sp, defaultBytes(sp));
    }

    public DataReorder(ChppParams p, SendEngineParams sp, int reorderBytes) {
        params = p;
        sendParams = sp;
        int nb = checkBytes(reorderBytes, sp);
        bufferBytes = nb;
        int ns = slots(p);
        slotCount = ns;
        int sb = log2Up(ns);
        int pb = log2Up(nb) + 1;
        int rows = nb / DataBeat.DATA_BYTES;
        int rb = log2Up(rows);
        issued = input(Valid.of(DataReadIssue::new));
        write = input(Valid.of(RingWrite::new));
        progress = input(Valid.of(ReadProgress::new));
        timedOutSlot = input(Valid.of(UInt(DataReadIssue.SLOT_BITS)));
        out = output(Decoupled.of(DataBeat::new));
        head = output(UInt(sb + 1));
        readPtr = output(UInt(pb));
        issueSeq = input(UInt(8));
        abort = output(Bool());
        transfersDone = output(UInt(Counters.BITS));
        transfersFailed = output(UInt(Counters.BITS));

        UInt okCode = lit(CompletionStatus.OK.code(), 8);
        // ---- the buffer: 16 byte lanes, lane j holding the bytes at positions = j mod 16, so a completion beat at
        // any byte offset is one rotated write across at most two rows, and a row reads out as one beat
        List<Mem<UInt>> lanes = new ArrayList<>();
        for (int j = 0; j < DataBeat.DATA_BYTES; j++) {
            lanes.add(mem(rows, UInt(8)).named("lane" + j));
        }
        UInt wRow = write.bits.row.trunc(rb);
        List<UInt> laneRow = new ArrayList<>();
        for (int j = 0; j < DataBeat.DATA_BYTES; j++) {
            final int lj = j;
            // lane 15 is never before the first byte's lane: its row is always the first
            UInt row = j == DataBeat.DATA_BYTES - 1 ? wRow : mux(lit(j, 4).lt(write.bits.off), wRow.add(1), wRow);
            laneRow.add(row);
            when(write.valid.and(write.bits.mask.bit(j)), () -> lanes.get(lj).write(row, write.bits.data.bits(8 * lj + 7, 8 * lj)));
        }

        // ---- read slots in issue order: where each read's bytes go, how many have arrived, how it ended
        List<ReadSlot> slots = new ArrayList<>();
        for (int s = 0; s < ns; s++) {
            slots.add(regInit(new ReadSlot(pb), 0).named("slot" + s));
        }
        List<Bool> sUsed = slots.stream().map(x -> x.used).toList();
        List<UInt> sPos = slots.stream().map(x -> x.pos).toList();
        List<UInt> sLen = slots.stream().map(x -> x.len).toList();
        List<UInt> sRecv = slots.stream().map(x -> x.recv).toList();
        List<Bool> sDone = slots.stream().map(x -> x.done).toList();
        List<UInt> sStatus = slots.stream().map(x -> x.status).toList();
        List<Bool> sLast = slots.stream().map(x -> x.last).toList();
        List<UInt> sSeq = slots.stream().map(x -> x.seq).toList();
        // slot pointers: the oldest read (pops in order) and the next one issued
        Counter headPtr = new Counter(2 * ns).named("headPtr");
        Counter tailPtr = Counter.enabled(issued.valid, 2 * ns).named("tailPtr");
        UInt hd = headPtr.value;
        UInt tl = tailPtr.value;
        UInt rp = regInit(UInt(pb), 0).named("rp");
        // the previous transfer's end once its last read is in: its remaining rows go out before anything else
        Bool endValid = regInit(Bool(), 0).named("endValid");
        UInt end = regInit(UInt(pb), 0).named("end");
        // a transfer failed and its error beat left: its remaining slots are dropped as they end
        Bool drain = regInit(Bool(), 0).named("drain");
        // the end of the last good read that left while its transfer goes on: the frontier when no read is in the
        // slots (the next one not issued yet, e.g. for want of buffer space until these rows go out)
        Bool goneValid = regInit(Bool(), 0).named("goneValid");
        UInt goneEnd = regInit(UInt(pb), 0).named("goneEnd");

        List<Bool> hOH = new ArrayList<>();
        UInt hIdx = hd.trunc(sb);
        for (int s = 0; s < ns; s++) {
            hOH.add(hIdx.eq(s));
        }
        Bool headValid = hd.ne(tl);
        UInt hPos = Mux1H(hOH, sPos);
        UInt hLen = Mux1H(hOH, sLen);
        UInt hRecv = Mux1H(hOH, sRecv);
        Bool hDone = Mux1H(hOH, sDone);
        UInt hStatus = Mux1H(hOH, sStatus);
        Bool hLast = Mux1H(hOH, sLast);
        Bool hOk = hStatus.eq(okCode);
        int w = Math.max(pb, 13);
        UInt hEnd = hPos.pad(w).add(hLen.pad(w)).trunc(pb);
        UInt frontier = mux(headValid, hPos.pad(w).add(hRecv.pad(w)).trunc(pb), goneEnd);
        // distances from rp, modulo twice the buffer (never more than the buffer)
        UInt avail = frontier.sub(rp).trunc(pb);
        UInt toHeadEnd = hEnd.sub(rp).trunc(pb);
        UInt toEnd = end.sub(rp).trunc(pb);

        // ---- what goes out this cycle: the ending transfer's rows; else a whole row of the head read's transfer
        // (never the transfer's final row, which waits for the end to carry last), or the final row itself once the
        // transfer's last read at the head is done and only that row is left; else the head's error beat
        Bool endRow = endValid;
        Bool endLast = toEnd.le(DataBeat.DATA_BYTES);
        Bool fromHead = headValid.and(hOk).and(hLast.not().or(toHeadEnd.gt(DataBeat.DATA_BYTES)));
        Bool open = drain.not().and(endValid.not());
        Bool midRow = open.and(fromHead.or(headValid.not().and(goneValid))).and(avail.ge(DataBeat.DATA_BYTES));
        Bool headFinal = open.and(headValid).and(hOk).and(hDone).and(hLast).and(toHeadEnd.le(DataBeat.DATA_BYTES));
        Bool errBeat = open.and(headValid).and(hDone).and(hOk.not());
        Bool rowOut = endRow.or(midRow).or(headFinal);
        Bool lastRow = endRow.and(endLast).or(headFinal);
        UInt bytes = mux(endRow.and(endLast), toEnd.trunc(5), mux(headFinal, toHeadEnd.trunc(5), lit(DataBeat.DATA_BYTES, 5)));
        // the buffer is read registered (block RAM): the row read in a cycle is the one rp points at in the next,
        // and a byte written into that row in the same cycle is forwarded past the memory
        UInt rpNext = wire(UInt(pb)).named("rpNext");
        UInt rdRow = rpNext.bits(pb - 2, 4);
        List<UInt> outBytes = new ArrayList<>();
        for (int j = DataBeat.DATA_BYTES - 1; j >= 0; j--) {
            Bool fwd = regNext(write.valid.and(write.bits.mask.bit(j)).and(laneRow.get(j).eq(rdRow)), 0).named("fwd" + j);
            UInt fwdData = regNext(write.bits.data.bits(8 * j + 7, 8 * j)).named("fwdData" + j);
            UInt b = mux(fwd, fwdData, lanes.get(j).readSync(rdRow));
            // bytes past a short last beat read as zeros, not as whatever the buffer held
            outBytes.add(mux(rowOut.and(lit(j, 5).lt(bytes)), b, lit(0, 8)));
        }
        out.valid.assign(rowOut.or(errBeat));
        out.bits.data.assign(cat(outBytes));
        out.bits.bytes.assign(mux(rowOut, bytes, lit(0, 5)));
        out.bits.last.assign(errBeat.or(lastRow));
        out.bits.status.assign(mux(rowOut, okCode, hStatus));
        Bool rowFire = out.fire().and(rowOut);
        Bool endFire = rowFire.and(lastRow);
        Bool errFire = out.fire().and(errBeat);
        rpNext.assign(rp);
        when(rowFire, () -> rpNext.assign(rp.add(DataBeat.DATA_BYTES)));
        when(endFire, () -> endValid.assign(FALSE()));
        transfersDone.assign(Counters.count(endFire, "doneCount"));
        transfersFailed.assign(Counters.count(errFire, "failedCount"));

        // ---- slots leave in order: a finished good read at once (its bytes stay until their rows go out; the
        // frontier only moves on), a transfer's last one when no other end is pending; in drain, any finished one
        Bool popGood = drain.not().and(headValid).and(hDone).and(hOk).and(hLast.not().or(endValid.not()));
        Bool popDrain = drain.and(headValid).and(hDone);
        Bool pop = popGood.or(popDrain);
        when(popGood.and(hLast).andNot(endFire), () -> {
            endValid.assign(TRUE());
            end.assign(hEnd);
        });
        when(popGood, () -> {
            goneValid.assign(hLast.not());
            goneEnd.assign(hEnd);
        }).elsewhen(errFire, () -> goneValid.assign(FALSE()));
        when(errFire, () -> drain.assign(TRUE()));
        when(popDrain.and(hLast), () -> {
            drain.assign(FALSE());
            // the next transfer starts on the next row, as DataRead placed it
            rpNext.assign(cat(hEnd.add(15).trunc(pb).bits(pb - 1, 4), lit(0, 4)));
        });
        when(pop, headPtr::inc);

        UInt iSlot = issued.bits.slot.trunc(sb);
        UInt gSlot = progress.bits.slot.trunc(sb);
        UInt oSlot = timedOutSlot.bits.trunc(sb);
        UInt toCode = lit(CompletionStatus.COMPLETION_TIMEOUT.code(), 8);
        List<Bool> failedNow = new ArrayList<>();
        for (int s = 0; s < ns; s++) {
            final int si = s;
            Bool isIssue = issued.valid.and(iSlot.eq(s));
            Bool isProg = progress.valid.and(gSlot.eq(s));
            Bool isTo = timedOutSlot.valid.and(oSlot.eq(s));
            when(isIssue, () -> {
                sUsed.get(si).assign(TRUE());
                sPos.get(si).assign(issued.bits.pos.trunc(pb));
                sLen.get(si).assign(issued.bits.len);
                sRecv.get(si).assign(0);
                sDone.get(si).assign(issued.bits.marker);
                sStatus.get(si).assign(mux(issued.bits.marker, issued.bits.status, okCode));
                sLast.get(si).assign(issued.bits.last);
                sSeq.get(si).assign(issued.bits.seq);
            }).otherwise(() -> {
                when(pop.and(hIdx.eq(si)), () -> sUsed.get(si).assign(FALSE()));
                when(isProg, () -> {
                    sRecv.get(si).assign(sRecv.get(si).add(progress.bits.bytes.pad(13)));
                    when(progress.bits.end, () -> {
                        sDone.get(si).assign(TRUE());
                        sStatus.get(si).assign(progress.bits.status);
                    });
                });
                when(isTo, () -> {
                    sDone.get(si).assign(TRUE());
                    sStatus.get(si).assign(toCode);
                });
            });
            failedNow.add(sUsed.get(s).and(sDone.get(s)).and(sStatus.get(s).ne(okCode)).and(sSeq.get(s).eq(issueSeq)));
        }
        rp.assign(rpNext);
        abort.assign(fromBools(failedNow).orR());
        head.assign(hd);
        readPtr.assign(rp);
    }

    /** Read slots for {@code p}: one per tag, a power of two, 2..{@link #MAX_SLOTS}. */
    public static int slots(ChppParams p) {
        int t = Math.max(2, Math.min(MAX_SLOTS, p.tags()));
        return Integer.highestOneBit(t - 1) << 1;
    }

    /** The default buffer for {@code sp}: {@link #DEFAULT_BYTES}, at least two max-size reads. */
    public static int defaultBytes(SendEngineParams sp) {
        return Math.max(DEFAULT_BYTES, 2 * sp.maxReadRequest());
    }

    /** {@code bytes} if it is a usable reorder buffer for {@code sp}, else an error that says why. */
    public static int checkBytes(int bytes, SendEngineParams sp) {
        if (bytes < 2 * sp.maxReadRequest() || bytes > MAX_BYTES || Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("reorder buffer of " + bytes + " bytes: must be a power of two from twice the max read request ("
                    + 2 * sp.maxReadRequest() + ") to " + MAX_BYTES + " bytes (a max-size read must fit beside a partly sent row)");
        }
        return bytes;
    }
}
