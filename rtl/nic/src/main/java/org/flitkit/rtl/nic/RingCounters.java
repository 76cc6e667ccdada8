package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.formats.th2.NicHost;

/**
 * What a writer of host rings (MPQ, EQ) keeps per VP: the free-running producer index and the count of entries
 * it dropped at a full or missing ring, as registers driving the block's register-map outputs. Built inside
 * the block's constructor. docs/th2-nic.md, "Host-visible queues".
 */
final class RingCounters {
    final Vec<UInt> producer;
    final Vec<UInt> drops;

    /** Registers for {@code vps} VPs (1..64: a VP is 6 bits), shown on {@code producerOut} and {@code dropsOut}. */
    RingCounters(int vps, Vec<UInt> producerOut, Vec<UInt> dropsOut) {
        producer = regInit(Vec(vps, () -> UInt(NicHost.INDEX_BITS)), 0);
        drops = regInit(Vec(vps, () -> UInt(32)), 0);
        producerOut.assign(producer);
        dropsOut.assign(drops);
    }

    static int checkVps(int vps) {
        if (vps < 1 || vps > 64) {
            throw new IllegalArgumentException("VP count must be in 1..64 (6-bit VP), got " + vps);
        }
        return vps;
    }

    /** Counts a dropped entry of {@code vp} (under the caller's when). */
    void drop(UInt vp) {
        drops.write(vp, drops.at(vp).add(1));
    }
}
