package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.nma.format.PacketLayout;
import org.flitkit.rtl.nma.format.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nma.hw.PacketBits;

/**
 * The gate between nmp_unpacker and the NMA core: a packet whose tail CRC does not match is dropped and
 * counted, then one whose DestID is neither this chip's ID nor all ones (0xFFFF) is dropped and
 * counted; neither is answered. An unconfigured chip (CHIP_ID 0xFFFF) so accepts only DestID 0xFFFF.
 * Spec: 20-th2-management.md, "Management packets and descriptors" (DestID); docs/th2-nrc.md.
 */
public final class NmpChecker extends Module {
    public final Decoupled<UInt> in = input(PacketBits.packetStream());
    public final Decoupled<UInt> out = output(PacketBits.packetStream());
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    /** packets dropped for a CRC mismatch */
    public final UInt crcErrors = output(UInt(32));
    /** packets dropped for a DestID that is not this chip's */
    public final UInt destIdDrops = output(UInt(32));

    public NmpChecker() {
        Bool crcOk = Crc32cHw.of(in.bits).eq(PacketBits.get(in.bits, PacketLayout.CRC));
        UInt destId = PacketBits.get(in.bits, "head.DestID");
        Bool forUs = destId.eq(Th2.CHIP_ID_ANY).or(destId.eq(chipId));
        Bool pass = crcOk.and(forUs);
        out.valid.assign(in.valid.and(pass));
        out.bits.assign(in.bits);
        in.ready.assign(pass.not().or(out.ready));

        UInt crcCount = regInit(UInt(32), 0);
        UInt destCount = regInit(UInt(32), 0);
        when(in.valid.and(crcOk.not()), () -> crcCount.assign(crcCount.add(1)))
                .elsewhen(in.valid.and(forUs.not()), () -> destCount.assign(destCount.add(1)));
        crcErrors.assign(crcCount);
        destIdDrops.assign(destCount);
    }
}
